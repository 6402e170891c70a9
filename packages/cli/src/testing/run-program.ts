/**
 * Runs the built `kubeimg` program as a subprocess for the tests.
 */
import { spawn } from "node:child_process";
import { inject } from "vitest";

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
  const program = inject("kubeimgProgram");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [program, ...args], {
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
  });
}

/** Asserts nothing in `stderr` looks like a stack trace; returns its lines. */
export function stderrLines(run: ProgramRun): string[] {
  return run.stderr.split("\n").filter((l) => l !== "");
}
