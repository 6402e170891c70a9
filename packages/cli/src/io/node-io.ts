import type { CliIo } from "./io.js";

/**
 * Returns the {@link CliIo} of this Node.js process: its stdout and stderr,
 * environment, working directory and global `fetch`. Ctrl-C ends the
 * program as usual; a closed pipe (`kubeimg … | head`) ends it quietly.
 *
 * @example
 * ```ts
 * import { nodeIo, runCli } from "@kubeimg/cli";
 *
 * // The kubeimg bin passes process.argv.slice(2); the JSON lands on stdout.
 * process.exitCode = await runCli(["parse", "nginx:1.25"], nodeIo()); // → 0
 * ```
 */
export function nodeIo(): CliIo {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(process.exitCode ?? 0);
    });
  }
  return {
    stdout: {
      write: (text) => void process.stdout.write(text),
      isTTY: process.stdout.isTTY === true,
    },
    stderr: {
      write: (text) => void process.stderr.write(text),
      isTTY: process.stderr.isTTY === true,
    },
    env: process.env,
    cwd: process.cwd(),
    fetch: globalThis.fetch,
    readStdin: async (maxBytes) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of process.stdin) {
        const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
        size += buffer.byteLength;
        if (size > maxBytes) {
          process.stdin.destroy();
          return undefined;
        }
        chunks.push(buffer);
      }
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}
