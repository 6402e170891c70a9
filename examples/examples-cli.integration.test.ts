import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Each example's entry script, run as `pnpm --filter … start` runs it: tsx in
// the example's own folder.
const root = fileURLToPath(new URL("..", import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const EXAMPLES = [
  "admission-webhook",
  "demo",
  "image-updater",
  "node-pull-gate",
  "parse-references",
  "playground",
  "registry-availability",
];

function start(example: string, args: string[]) {
  const run = spawnSync(tsx, ["--conditions=@kubeimg/source", "main.ts", "--", ...args], {
    cwd: `${root}examples/${example}`,
    encoding: "utf8",
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/" },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.each(EXAMPLES)("examples/%s entry script", (example) => {
  it("is what `pnpm start` runs", () => {
    const pkg = JSON.parse(readFileSync(`${root}examples/${example}/package.json`, "utf8"));
    expect(pkg.scripts.start).toBe("tsx --conditions=@kubeimg/source main.ts");
  });

  it("--help prints the usage, exit 0", () => {
    const run = start(example, ["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: /);
    expect(run.stderr).toBe("");
  });

  it("a bad option is one line on stderr, exit 2, no stack trace", () => {
    const run = start(example, ["--no-such-option"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("Unknown option '--no-such-option' (see --help)\n");
  });
});

describe("examples/playground", () => {
  it.each([
    { args: ["--port", "http"], line: '--port must be a port number from 0 to 65535, not "http"' },
    {
      args: ["--port", "65536"],
      line: '--port must be a port number from 0 to 65535, not "65536"',
    },
    { args: ["--port"], line: "Option '--port <value>' argument missing (see --help)" },
  ])("$args: one line on stderr, exit 2, nothing built", ({ args, line }) => {
    const run = start("playground", args);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`${line}\n`);
    expect(run.stdout).toBe("");
  });
});

describe("examples/admission-webhook", () => {
  it.each([
    { args: ["--port", "http"], line: '--port must be a whole number in 0..65535, not "http"' },
    {
      args: ["--deadline-ms", "0"],
      line: '--deadline-ms must be a whole number in 1..600000, not "0"',
    },
  ])("$args: one line on stderr, exit 2", ({ args, line }) => {
    const run = start("admission-webhook", args);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`${line}\n`);
  });
});

describe("relative paths", () => {
  it("are read from the directory the command was started in (INIT_CWD, set by pnpm)", () => {
    const run = spawnSync(
      tsx,
      ["--conditions=@kubeimg/source", "main.ts", "-f", "examples/demo/fixtures/none.yaml"],
      {
        cwd: `${root}examples/image-updater`,
        encoding: "utf8",
        timeout: 60_000,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/", INIT_CWD: root },
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${root}examples/demo/fixtures/none.yaml`);
  });
});
