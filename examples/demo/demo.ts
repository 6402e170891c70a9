/**
 * The demo: runs the `kubeimg` CLI in-process over the fixtures in
 * `fixtures/`, one section per worked example of the specs, and prints each
 * command line with its output. Every step states the exit code it expects,
 * so the demo is also a check: a surprise makes it fail.
 */
import { fileURLToPath } from "node:url";
import { type CliIo, runCli } from "@kubeimg/cli";

/** One command of a section. */
export interface DemoStep {
  /** What the step shows, printed above the command. */
  readonly say: string;
  /** The `kubeimg` arguments, file names relative to the repository root. */
  readonly args: readonly string[];
  /** The exit code this step must end with. */
  readonly exit: 0 | 1 | 2;
}

/** A group of steps about one spec example. */
export interface DemoSection {
  readonly title: string;
  readonly steps: readonly DemoStep[];
}

/** Where the demo writes, and whether it may colour its output. */
export interface DemoOutput {
  write(text: string): void;
  readonly color: boolean;
}

/** The repository root: each printed command runs from there as `pnpm -s kubeimg …`. */
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** `word` as a POSIX shell reads it back: quoted only when it holds more than safe characters. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((l) => (l === "" ? "" : `    ${l}`))
    .join("\n");
}

/**
 * Runs `sections` and writes the transcript to `output`; returns the number
 * of steps whose exit code was not the expected one.
 */
export async function runDemo(
  sections: readonly DemoSection[],
  output: DemoOutput,
): Promise<number> {
  const bold = (t: string) => (output.color ? `\u001b[1m${t}\u001b[22m` : t);
  const dim = (t: string) => (output.color ? `\u001b[2m${t}\u001b[22m` : t);
  let failures = 0;
  for (const section of sections) {
    output.write(`\n${bold(`== ${section.title}`)}\n`);
    for (const step of section.steps) {
      let stdout = "";
      let stderr = "";
      const io: CliIo = {
        stdout: {
          write: (t) => {
            stdout += t;
          },
          isTTY: true,
        },
        stderr: {
          write: (t) => {
            stderr += t;
          },
          isTTY: true,
        },
        env: output.color ? {} : { NO_COLOR: "1" },
        cwd: repoRoot,
        fetch: () => Promise.reject(new Error("the demo runs offline")),
      };
      const code = await runCli(step.args, io);
      output.write(
        `\n${dim(`# ${step.say}`)}\n$ pnpm -s kubeimg ${step.args.map(shellWord).join(" ")}\n`,
      );
      if (stdout !== "") output.write(`${indent(stdout)}\n`);
      if (stderr !== "") output.write(`${indent(stderr)}\n`);
      output.write(dim(`  (exit ${code})\n`));
      if (code !== step.exit) {
        failures++;
        output.write(`  !! expected exit ${step.exit}\n`);
      }
    }
  }
  return failures;
}
