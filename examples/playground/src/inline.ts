/**
 * Whether the page answers a job on its own thread (only the first answer
 * after load: the worker is not running yet, and starting it costs more
 * than the answer). Decided on what the job's code will read, not on the
 * pasted text: YAML's escapes (`"\x7B"` is `{`) hide a pattern's shape from
 * the text.
 */
import type { Job } from "./jobs.js";

/**
 * The largest input the page answers on its own thread. Below this size,
 * with the linear regexp engine and capped YAML aliases, an answer is a few
 * milliseconds.
 */
export const INLINE_MAX_CHARS = 16 * 1024;

/**
 * A counted repetition (`x{1000}`): it multiplies a short pattern into a
 * large program, so a job holding one anywhere goes to the worker and its
 * budget.
 */
const countedRepetition = /\{\s*\d/;

/** The job's texts: those read as YAML and those read as they are. */
function textsOf(job: Job): {
  readonly yaml: readonly string[];
  readonly plain: readonly string[];
} {
  switch (job.view) {
    case "tags":
      return {
        yaml: [job.input.policy, job.input.objects ?? ""],
        plain: [job.input.tags],
      };
    case "routing":
      return { yaml: [job.input.crs, job.input.pod], plain: [job.input.image] };
    default:
      return { yaml: [], plain: [job.input] };
  }
}

/**
 * Returns whether `job` is small and cheap enough for the page thread: at
 * most {@link INLINE_MAX_CHARS} characters, and no counted repetition in
 * any text or in any scalar its YAML parses to (keys included; aliases are
 * not followed, the scalar they name is seen once). YAML that does not parse
 * goes to the worker.
 */
export async function inlineable(job: Job): Promise<boolean> {
  const { yaml, plain } = textsOf(job);
  const size = [...yaml, ...plain].reduce((n, t) => n + t.length, 0);
  if (size > INLINE_MAX_CHARS) return false;
  if ([...yaml, ...plain].some((t) => countedRepetition.test(t))) return false;
  const texts = yaml.filter((t) => t.trim() !== "");
  if (texts.length === 0) return true;
  const { parseAllDocuments, visit } = await import("yaml");
  for (const text of texts) {
    const docs = parseAllDocuments(text);
    if (!Array.isArray(docs)) continue;
    for (const doc of docs) {
      if (doc.errors.length > 0) return false;
      let costly = false;
      visit(doc, {
        Scalar(_, node) {
          if (typeof node.value === "string" && countedRepetition.test(node.value)) {
            costly = true;
            return visit.BREAK;
          }
          return undefined;
        },
      });
      if (costly) return false;
    }
  }
  return true;
}
