/**
 * How close two field names are, for did-you-mean hints; apart from the
 * schema walk so that readers without zod (the tag dialects') can suggest too.
 */

/**
 * Damerau-Levenshtein distance (optimal string alignment: insertions,
 * deletions, substitutions, swaps of neighbours) between two short names.
 *
 * @example
 * ```ts
 * import { objects } from "@kubeimg/policy/internal";
 *
 * objects.editDistance("registy", "registry"); // 1
 * objects.editDistance("regsitry", "registry"); // 1: a swap of neighbours is one edit
 * ```
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const prev = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(d);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * Returns the candidate closest to `name` when it is close enough to be a
 * typo (a case difference, or an edit distance of at most a third of the
 * longer name, and at most 3), preferring the first on ties.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  if (name.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate.toLowerCase() === name.toLowerCase()) return candidate;
    const limit = Math.min(3, Math.floor(Math.max(name.length, candidate.length) / 3));
    const d = editDistance(name, candidate);
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
