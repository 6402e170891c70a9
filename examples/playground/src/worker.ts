/**
 * The Web Worker: every computation runs here, so the page thread only
 * renders. The page terminates this worker when an answer takes longer than
 * its budget (a 10 MB paste, a pathological pattern) and starts a new one.
 */
import {
  type RoutingInput,
  runReferences,
  runRouting,
  runTags,
  type TagsInput,
} from "./compute.js";

export type Job =
  | { readonly id: number; readonly view: "tags"; readonly input: TagsInput }
  | { readonly id: number; readonly view: "references"; readonly input: string }
  | { readonly id: number; readonly view: "routing"; readonly input: RoutingInput };

const scope = globalThis as unknown as {
  onmessage: ((e: { readonly data: Job }) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (e) => {
  const job = e.data;
  try {
    const result =
      job.view === "tags"
        ? runTags(job.input)
        : job.view === "routing"
          ? runRouting(job.input)
          : runReferences(job.input);
    scope.postMessage({ id: job.id, result });
  } catch (error) {
    scope.postMessage({
      id: job.id,
      failure: error instanceof Error ? error.message : String(error),
    });
  }
};
