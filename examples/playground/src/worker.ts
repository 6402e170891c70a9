/**
 * The Web Worker: every computation the page does not answer itself runs
 * here, so the page thread only renders. The page terminates this worker
 * when an answer takes longer than its budget (a 10 MB paste, a costly
 * pattern over a long tag list) and starts a new one.
 */
import { compute, type Job } from "./jobs.js";

const scope = globalThis as unknown as {
  onmessage: ((e: { readonly data: Job }) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (e) => {
  const job = e.data;
  compute(job).then(
    (result) => scope.postMessage({ id: job.id, result }),
    (error: unknown) =>
      scope.postMessage({
        id: job.id,
        failure: error instanceof Error ? error.message : String(error),
      }),
  );
};
