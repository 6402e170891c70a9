/**
 * "Did you mean" for command and option names: the known name within a
 * small edit distance of what was typed.
 */

/** Optimal-string-alignment distance: insertions, deletions, substitutions, swaps. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (up[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * Returns the candidate closest to `typed`, when it is close enough to be a
 * typo (at most a third of the longer name, and at most 3 edits), or when
 * `typed` is a prefix of exactly one candidate.
 *
 * @example
 * ```ts
 * closestName("rout", ["parse", "tags", "route"]); // "route"
 * ```
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
    const d = distance(typed.toLowerCase(), candidate.toLowerCase());
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best !== undefined) return best;
  const prefixed = candidates.filter((c) => c.startsWith(typed));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}
