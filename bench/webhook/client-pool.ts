/**
 * The load test's client as several processes (`review-client.ts`), each
 * with its own keep-alive agent and a slice of the reviews: they open their
 * connections and build their bodies first, then all start sending at one
 * signal. One Node process writing and reading a thousand HTTPS reviews at
 * once is busy enough on a small machine to make any webhook look late.
 */
import { type ChildProcess, fork } from "node:child_process";
import { setPriority } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ReviewOutcome, repoRoot } from "./cluster.js";
import type { ClientJob, ToClient } from "./review-client.js";

const clientPath = join(fileURLToPath(new URL(".", import.meta.url)), "review-client.ts");

/** What a pool of client processes measured. */
export interface PoolResult {
  readonly outcomes: readonly ReviewOutcome[];
  /** Each client process's event-loop delay while sending, in ms. */
  readonly loopDelayMs: readonly { readonly p99: number; readonly max: number }[];
}

type FromClient =
  | { readonly type: "ready" }
  | {
      readonly type: "done";
      readonly outcomes: ReviewOutcome[];
      readonly loopDelayMs: { p99: number; max: number };
    }
  | { readonly type: "failed"; readonly error: string };

/**
 * Sends reviews `0 .. reviews - 1` (the Pods of `reviewImages`) to the
 * webhook on `port` from `processes` client processes, all starting at once;
 * each review is cut off after `timeoutMs`.
 */
export async function sendFromPool(options: {
  readonly processes: number;
  readonly reviews: number;
  readonly port: number;
  readonly ca: string;
  readonly containers: number;
  readonly images: number;
  readonly origin: string;
  readonly timeoutMs: number;
  /**
   * The clients' scheduling priority (`nice`, 0..19; default 0): on a
   * machine where they share the cores with the webhook, a positive value
   * makes them take what the webhook leaves, as an API server on machines
   * of its own would.
   */
  readonly nice?: number;
  /** Called once every client is ready (connections open, bodies built), before they send. */
  readonly beforeSending?: () => Promise<void>;
}): Promise<PoolResult> {
  const n = Math.max(1, Math.min(options.processes, options.reviews));
  const children: ChildProcess[] = [];
  try {
    const runs = Array.from({ length: n }, (_, c) => {
      const first = Math.floor((c * options.reviews) / n);
      const job: ClientJob = {
        port: options.port,
        ca: options.ca,
        first,
        count: Math.floor(((c + 1) * options.reviews) / n) - first,
        containers: options.containers,
        images: options.images,
        origin: options.origin,
        timeoutMs: options.timeoutMs,
      };
      const child = fork(clientPath, [], {
        cwd: repoRoot,
        execArgv: ["--import", "tsx", "--conditions=@kubeimg/source"],
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      children.push(child);
      if (options.nice && child.pid !== undefined) setPriority(child.pid, options.nice);
      let ready: () => void = () => {};
      const isReady = new Promise<void>((resolve) => {
        ready = resolve;
      });
      const done = new Promise<Extract<FromClient, { type: "done" }>>((resolve, reject) => {
        child.on("message", (message: FromClient) => {
          if (message.type === "ready") ready();
          else if (message.type === "done") resolve(message);
          else reject(new Error(`client ${c} failed: ${message.error}`));
        });
        child.once("exit", (code, signal) =>
          reject(new Error(`client ${c} exited (${signal ?? code}) before it reported`)),
        );
      });
      // A client that dies before it is ready must not leave the others waiting.
      void done.catch(() => ready());
      child.send({ type: "job", job } satisfies ToClient);
      return { child, isReady, done };
    });
    await Promise.all(runs.map((r) => r.isReady));
    await options.beforeSending?.();
    for (const r of runs) r.child.send({ type: "go" } satisfies ToClient);
    const results = await Promise.all(runs.map((r) => r.done));
    return {
      outcomes: results.flatMap((r) => r.outcomes),
      loopDelayMs: results.map((r) => r.loopDelayMs),
    };
  } finally {
    for (const child of children) {
      if (child.connected) child.disconnect();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }
}
