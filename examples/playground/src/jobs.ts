/**
 * One computation of the playground, as the page asks for it: the view and
 * its inputs. Each view's code is its own module, loaded when a job for
 * that view first comes, so answering the Tags view never loads routing.
 * The worker runs every job; the page runs the first small one itself.
 */
import type { RoutingInput } from "./compute/routing.js";
import type { TagsInput } from "./compute/tags.js";

export type Job =
  | { readonly id: number; readonly view: "tags"; readonly input: TagsInput }
  | { readonly id: number; readonly view: "references"; readonly input: string }
  | { readonly id: number; readonly view: "routing"; readonly input: RoutingInput };

/** Runs one job with its view's module. */
export async function compute(job: Job): Promise<unknown> {
  switch (job.view) {
    case "tags":
      return (await import("./compute/tags.js")).runTags(job.input);
    case "routing":
      return (await import("./compute/routing.js")).runRouting(job.input);
    default:
      return (await import("./compute/references.js")).runReferences(job.input);
  }
}
