/**
 * The worker and its budget: each computation runs in a worker, a newer job
 * supersedes the one in flight, and a worker that runs past the budget is
 * terminated and replaced, so no paste can freeze the tab.
 */
import { compute, type Job } from "../jobs.js";

/** How long one answer may take before the worker is terminated and restarted. */
const BUDGET_MS = 1500;

let worker: Worker | undefined;
let pending: { id: number; timer: number; resolve: (r: unknown) => void } | undefined;
/** Workers terminated for running past the budget (shown to tests as `data-worker-restarts`). */
let restarts = 0;

function startWorker(): Worker {
  const w = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  w.onmessage = (e: MessageEvent<{ id: number; result?: unknown; failure?: string }>) => {
    if (pending === undefined || e.data.id !== pending.id) return;
    clearTimeout(pending.timer);
    const p = pending;
    pending = undefined;
    p.resolve(e.data.failure === undefined ? e.data.result : { failure: e.data.failure });
  };
  return w;
}

/** Runs one job in the worker; a newer job supersedes it, and one past the budget kills the worker. */
export function run(job: Job): Promise<unknown> {
  if (pending !== undefined) {
    // The previous answer is no longer wanted: if it is still computing, drop that worker.
    clearTimeout(pending.timer);
    pending.resolve(undefined);
    pending = undefined;
    worker?.terminate();
    worker = undefined;
  }
  worker ??= startWorker();
  const w = worker;
  return new Promise((resolve) => {
    const timer = window.setTimeout(() => {
      if (pending?.id !== job.id) return;
      pending = undefined;
      w.terminate();
      // A fresh worker at once, so the next edit is answered without waiting for one to start.
      restarts += 1;
      document.body.dataset.workerRestarts = String(restarts);
      if (worker === w) worker = startWorker();
      resolve({ timeout: BUDGET_MS });
    }, BUDGET_MS);
    pending = { id: job.id, timer, resolve };
    w.postMessage(job);
  });
}

export async function runInline(job: Job): Promise<unknown> {
  try {
    return await compute(job);
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}

/** Starts the worker ahead of the next job, if none runs. */
export function warmWorker(): void {
  worker ??= startWorker();
}
