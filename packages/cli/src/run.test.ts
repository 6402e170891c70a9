import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMAND_NAMES, loadCommand, loadCommands } from "./commands/all-commands.js";
import { memoryIo } from "./io/memory-io.test-support.js";
import { runCli } from "./run.js";
import { runKubeimg, stderrLines } from "./run-program.test-support.js";
import { VERSION } from "./version.js";

describe("the command table", () => {
  it("each name loads the command of that name, in the help's order", async () => {
    expect((await loadCommands()).map((c) => c.name)).toEqual([...COMMAND_NAMES]);
    for (const name of COMMAND_NAMES) expect((await loadCommand(name)).name).toBe(name);
  });
});

describe("kubeimg (built program)", () => {
  it("VERSION matches package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
  });

  it("--version", async () => {
    const run = await runKubeimg(["--version"]);
    expect(run).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });

  it("--help lists every command", async () => {
    const run = await runKubeimg(["--help"]);
    expect(run.code).toBe(0);
    for (const name of COMMAND_NAMES) expect(run.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
  });

  it("no command: help on stderr, exit 2", async () => {
    const run = await runKubeimg([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Usage: kubeimg COMMAND");
  });

  it("unknown command: one line, exit 2", async () => {
    const run = await runKubeimg(["frobnicate"]);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toEqual([
      `kubeimg: unknown command "frobnicate" (commands: ${COMMAND_NAMES.join(", ")}; see 'kubeimg --help')`,
    ]);
  });

  it.each(COMMAND_NAMES)("%s --help has a usage line and an example", async (name) => {
    for (const args of [
      [name, "--help"],
      ["help", name],
      [name, "-h"],
    ]) {
      const run = await runKubeimg(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: kubeimg ${name}`));
      expect(run.stdout).toMatch(/Examples:\n {2}# .+\n {2}kubeimg /);
      expect(run.stdout).toContain("Exit codes: 0");
    }
  });
});

describe("runCli on a terminal (in-process)", () => {
  it("defaults to a coloured table on a terminal", async () => {
    const { io, out } = memoryIo({ tty: true });
    expect(await runCli(["parse", "nginx"], io)).toBe(0);
    expect(out()).toContain("\u001b[2minput:");
  });

  it.each<{ env: Record<string, string>; flag?: string }>([
    { env: { NO_COLOR: "1" } },
    { env: {}, flag: "--no-color" },
  ])("honours NO_COLOR / --no-color ($env $flag)", async ({ env, flag }) => {
    const { io, out } = memoryIo({ tty: true, env });
    expect(await runCli(["parse", "nginx", ...(flag ? [flag] : [])], io)).toBe(0);
    expect(out()).toMatch(/^input: +nginx\nnormalized: +docker\.io\/library\/nginx\n/);
    expect(out()).not.toContain("\u001b[");
  });

  it("an empty NO_COLOR does not turn colour off (no-color.org)", async () => {
    const { io, out } = memoryIo({ tty: true, env: { NO_COLOR: "" } });
    await runCli(["parse", "nginx"], io);
    expect(out()).toContain("\u001b[");
  });

  it("defaults to JSON when stdout is not a terminal", async () => {
    const { io, out } = memoryIo({ tty: false });
    await runCli(["parse", "nginx"], io);
    expect(JSON.parse(out())).toHaveLength(1);
  });
});

describe("did you mean", () => {
  it.each([
    {
      argv: ["rout"],
      line: `kubeimg: unknown command "rout" (did you mean "route"? commands: ${COMMAND_NAMES.join(", ")}; see 'kubeimg --help')\n`,
    },
    {
      argv: ["route", "--namepsace", "x"],
      line: "kubeimg route: Unknown option '--namepsace'; did you mean --namespace? (see 'kubeimg route --help')\n",
    },
    {
      argv: ["tags", "--explian"],
      line: "kubeimg tags: Unknown option '--explian'; did you mean --explain? (see 'kubeimg tags --help')\n",
    },
    {
      argv: ["route", "--zzz"],
      line: "kubeimg route: Unknown option '--zzz' (see 'kubeimg route --help')\n",
    },
    {
      argv: ["zzz"],
      line: `kubeimg: unknown command "zzz" (commands: ${COMMAND_NAMES.join(", ")}; see 'kubeimg --help')\n`,
    },
  ])("$argv", async ({ argv, line }) => {
    const m = memoryIo({ tty: false });
    expect(await runCli(argv, m.io)).toBe(2);
    expect(m.err()).toBe(line);
  });
});
