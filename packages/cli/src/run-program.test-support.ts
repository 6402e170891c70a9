/**
 * Runs the `kubeimg` program as a subprocess for the tests. In the
 * integration project that is the published build (the project's global
 * setup builds it with tsup and provides `kubeimgProgram`). The unit project
 * has no global setup: the first run in a worker bundles the source once with
 * esbuild (about a second, no tsup, no `dist`), and every run spawns that.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { inject } from "vitest";

let sourceBundle: Promise<string> | undefined;

/** The program to run: the built one when provided, else this worker's bundle of the source. */
function program(): Promise<string> {
  const built = inject("kubeimgProgram") as string | undefined;
  if (built !== undefined) return Promise.resolve(built);
  sourceBundle ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), "kubeimg-cli-src-")), "cli.mjs");
    await build({
      entryPoints: [fileURLToPath(new URL("./cli.ts", import.meta.url))],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // A bundle of its own: the static variants of `#zod` and `#yaml`.
      conditions: ["@kubeimg/source", "@kubeimg/bundle"],
      // CommonJS dependencies bundled into an ES module may `require` Node's built-ins.
      banner: {
        js: 'import { createRequire as __kubeimgCreateRequire } from "node:module"; const require = __kubeimgCreateRequire(import.meta.url);',
      },
      logLevel: "silent",
    });
    return outfile;
  })();
  return sourceBundle;
}

/** What one run of the program produced. */
export interface ProgramRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `kubeimg args...` with a clean environment (no colour variables, no
 * docker config) plus `env`, in `cwd`, and collects its output.
 */
export function runKubeimg(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<ProgramRun> {
  return program().then(
    (path) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [path, ...args], {
          cwd: options.cwd ?? process.cwd(),
          env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/", ...options.env },
          stdio: ["ignore", "pipe", "pipe"],
          timeout: options.timeoutMs ?? 30_000,
        });
        let stdout = "";
        let stderr = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => {
          stdout += d;
        });
        child.stderr.setEncoding("utf8").on("data", (d: string) => {
          stderr += d;
        });
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      }),
  );
}

/** Asserts nothing in `stderr` looks like a stack trace; returns its lines. */
export function stderrLines(run: ProgramRun): string[] {
  return run.stderr.split("\n").filter((l) => l !== "");
}
