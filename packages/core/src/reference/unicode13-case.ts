/**
 * Which characters Go 1.19's `unicode.ToLower` changes, as data.
 *
 * Go 1.19 (the toolchain the reference vectors come from) carries the
 * Unicode 13.0.0 case tables. JavaScript's `toLowerCase` follows the ICU
 * that Node ships, which is newer (Unicode 16 and 17 added new capital
 * letters such as U+1C89 and U+A7CB). Asking JavaScript would call those
 * upper case, where Go leaves them alone, and flip an error code. So the
 * question "does lower-casing change this rune?" is answered from this fixed
 * table instead.
 *
 * @module
 */

/**
 * Every non-ASCII code point that has a simple lower-case mapping in
 * Unicode 13.0.0, as runs `[first, last, step]`: the run holds `first`,
 * `first + step`, … up to `last`. Step 2 covers the alternating
 * upper/lower pairs of the Latin, Greek, Cyrillic and other blocks. Sorted by
 * `first`, runs never overlap.
 */
export const UNICODE13_UPPER_RUNS: readonly (readonly [number, number, 1 | 2])[] =
  /*#__PURE__*/ decodeRuns(
    // Written as triples [gap after the previous run's last (U+007F at first), last - first, step]:
    // small numbers keep the browser bundle of `@kubeimg/core/reference` about 300 bytes lighter
    // (gzip) than the runs spelled out, which leaves room for `familiarMatch`.
    [
      65, 22, 1, 2, 6, 1, 34, 54, 2, 3, 14, 2, 3, 46, 2, 1, 4, 2, 4, 1, 1, 2, 2, 2, 1, 2, 2, 1, 1,
      1, 3, 3, 1, 2, 1, 1, 2, 2, 1, 4, 1, 1, 2, 1, 1, 2, 4, 2, 1, 2, 2, 3, 2, 2, 1, 2, 2, 1, 1, 1,
      2, 2, 2, 1, 0, 1, 4, 0, 1, 8, 1, 1, 2, 1, 1, 2, 1, 1, 2, 14, 2, 3, 16, 2, 3, 1, 1, 2, 2, 2, 1,
      1, 1, 2, 56, 2, 8, 1, 1, 2, 1, 1, 3, 2, 2, 1, 2, 1, 2, 6, 2, 290, 2, 2, 4, 0, 1, 9, 0, 1, 7,
      2, 2, 1, 1, 1, 2, 2, 2, 1, 2, 2, 1, 15, 1, 2, 8, 1, 36, 0, 1, 9, 22, 2, 6, 0, 1, 3, 2, 2, 1,
      0, 1, 3, 50, 1, 49, 32, 2, 10, 54, 2, 1, 12, 2, 3, 94, 2, 3, 37, 1, 2890, 37, 1, 2, 0, 1, 6,
      0, 1, 723, 85, 1, 2203, 42, 1, 3, 2, 1, 321, 148, 2, 10, 96, 2, 10, 7, 1, 9, 5, 1, 11, 7, 1,
      9, 7, 1, 9, 5, 1, 12, 6, 2, 9, 7, 1, 25, 7, 1, 9, 7, 1, 9, 7, 1, 9, 4, 1, 12, 4, 1, 12, 3, 1,
      13, 4, 1, 12, 4, 1, 298, 0, 1, 4, 1, 1, 7, 0, 1, 46, 15, 1, 20, 0, 1, 819, 25, 1, 1841, 46, 1,
      50, 2, 2, 1, 1, 1, 3, 6, 2, 1, 2, 1, 2, 0, 1, 3, 0, 1, 9, 2, 1, 2, 96, 2, 9, 2, 2, 5, 0, 1,
      31054, 44, 2, 20, 26, 2, 136, 12, 2, 4, 60, 2, 11, 4, 2, 1, 8, 2, 5, 2, 2, 3, 2, 2, 4, 20, 2,
      1, 3, 1, 2, 4, 1, 2, 8, 2, 4, 2, 2, 1, 2, 1, 2, 0, 1, 44, 0, 1, 22316, 25, 1, 1222, 39, 1,
      137, 35, 1, 1965, 50, 1, 3054, 31, 1, 21889, 31, 1, 31393, 33, 1,
    ],
  );

function decodeRuns(triples: readonly number[]): (readonly [number, number, 1 | 2])[] {
  const runs: (readonly [number, number, 1 | 2])[] = [];
  let last = 0x7f;
  for (let i = 0; i < triples.length; i += 3) {
    const first = last + (triples[i] as number);
    last = first + (triples[i + 1] as number);
    runs.push([first, last, triples[i + 2] as 1 | 2]);
  }
  return runs;
}

/**
 * True when Go 1.19's `unicode.ToLower(r) != r` for the non-ASCII code point
 * `codePoint` (a binary search of {@link UNICODE13_UPPER_RUNS}).
 */
export function lowerCaseChanges(codePoint: number): boolean {
  let lo = 0;
  let hi = UNICODE13_UPPER_RUNS.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const [first, last, step] = UNICODE13_UPPER_RUNS[mid] as readonly [number, number, 1 | 2];
    if (codePoint < first) hi = mid - 1;
    else if (codePoint > last) lo = mid + 1;
    else return (codePoint - first) % step === 0;
  }
  return false;
}
