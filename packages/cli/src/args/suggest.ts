/**
 * "Did you mean" for command and option names: the known name within a
 * small edit distance of what was typed (the distance of policy's
 * unknown-field messages, `@kubeimg/policy/objects`).
 */
import { editDistance } from "@kubeimg/policy/internal/objects";

/**
 * Returns the candidate closest to `typed`, when it is close enough to be a
 * typo (at most a third of the longer name, and at most 3 edits), or when
 * `typed` is a prefix of exactly one candidate.
 */
export function closestName(typed: string, candidates: readonly string[]): string | undefined {
  if (typed.length === 0 || typed.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const limit = Math.min(
      3,
      Math.max(1, Math.floor(Math.max(typed.length, candidate.length) / 3)),
    );
    const d = editDistance(typed.toLowerCase(), candidate.toLowerCase());
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best !== undefined) return best;
  const prefixed = candidates.filter((c) => c.startsWith(typed));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}
