/**
 * Runs the built `kubeimg` program under a real pseudo-terminal, with
 * util-linux `script` (installed by `scripts/setup.d/pty.sh`), so that what
 * a terminal user sees is tested: isTTY comes from the kernel, not a flag.
 */
import { execFileSync, spawn } from "node:child_process";
import { inject } from "vitest";

/** Throws, with how to install it, when util-linux `script` is missing. */
export function requireScript(): void {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error(
      "util-linux `script` is missing: run `bash scripts/setup.d/pty.sh` (package bsdutils)",
    );
  }
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Runs `kubeimg args...` in a pseudo-terminal; returns what the terminal received. */
export function runKubeimgInTerminal(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<{ code: number | null; output: string }> {
  const program = inject("kubeimgProgram");
  const commandLine = [process.execPath, program, ...args].map(shellQuote).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-q", "-e", "-c", commandLine, "/dev/null"], {
      cwd: options.cwd ?? process.cwd(),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/",
        TERM: "xterm-256color",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 30_000,
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      output += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      output += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output: output.replaceAll("\r\n", "\n") }));
  });
}
