/**
 * What the Argo CD and Kargo single passes share (`argocd/single-pass.ts`,
 * `kargo/single-pass.ts`).
 *
 * A selection without an explain trace needs only the pick (Kargo: the best
 * `discoveryLimit` tags), so it can be found while the entries are checked,
 * in one pass over the input objects: no array of names, no map of the last
 * occurrence of each name, no `Instant` per tag, and the native string order
 * instead of Go's byte order. Two things make that exact only most of the
 * time, and the passes check them on the few tags they keep rather than on
 * every tag:
 *
 * - **Byte order.** JavaScript compares UTF-16 code units, Go compares UTF-8
 *   bytes; the two disagree only where the first difference pits a surrogate
 *   against a character in U+E000–U+FFFF. When no kept tag holds a character
 *   from U+D800 up, every comparison that decided involved such a tag on one
 *   side, so the native order decided as Go's would have.
 * - **The last occurrence.** Both updaters read a tag's metadata from its
 *   last entry in the list. A pass reading each entry's own metadata ranks a
 *   superset of the right keys (every last occurrence is in it, with its
 *   right key). A single pick (Argo CD) that is its name's last occurrence is
 *   in the right set, so it is the right pick. Kargo lists every entry of a
 *   discovered name, earlier ones under the last one's key, so there every
 *   kept name must occur once in the list.
 *
 * When a check fails (or nothing is picked, where the outcome needs the plain
 * path's bookkeeping) a pass answers `undefined` and the caller runs the plain
 * path, which decides. So a pass never decides anything the plain path would
 * decide differently; property tests hold each pass to it.
 *
 * Over a list checked once by `prepareTagList` neither check is needed: the
 * prepared list knows whether any name holds such a character (the passes
 * then compare in Go's byte order) and where each name occurs last (the
 * passes read that entry's metadata), so the same loops answer for every
 * list.
 */
import { checkEntry, checkShape, type InstantSlot } from "./tag-list.js";
import type { TagInfo } from "./types.js";

/**
 * Checks every entry's shape (`checkShape`) as `readTags` does without
 * metadata and returns their names, for a pass that reads names only.
 */
export function checkedNames(tags: readonly TagInfo[]): string[] {
  const names: string[] = new Array(tags.length);
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as TagInfo;
    checkShape(tag, i);
    names[i] = tag.name;
  }
  return names;
}

/**
 * The name of entry `i`: from a prepared list's names, or from the raw entry
 * after checking its shape, or all of it with `full` (a pass that reads
 * every entry's metadata; its creation time, if any, is left in `slot`).
 */
export function nameAt(
  raw: readonly TagInfo[],
  names: readonly string[] | undefined,
  i: number,
  slot: InstantSlot,
  full: boolean,
): string {
  if (names !== undefined) return names[i] as string;
  const tag = raw[i] as TagInfo;
  if (full) checkEntry(tag, i, slot);
  else checkShape(tag, i);
  return tag.name;
}

/**
 * The index of the last entry named `name` (-1 when none), checked in full:
 * the entry whose metadata a selection reads for that name.
 */
export function checkedLastIndex(tags: readonly TagInfo[], name: string): number {
  let i = tags.length - 1;
  while (i >= 0 && (tags[i] as TagInfo).name !== name) i--;
  if (i >= 0) checkEntry(tags[i] as TagInfo, i, { ms: 0, subMsNanos: 0 });
  return i;
}

/**
 * `text` as a flat string, for a pass that compares every name with it. A
 * constraint cut from a longer text is a slice of it, and V8 compares a
 * slice with another string several times slower than a flat one (as a
 * property key it is made flat once).
 */
export function flatString(text: string): string {
  return Object.keys({ [text]: 0 })[0] as string;
}

/** A character from U+D800 up: where JavaScript's string order may differ from Go's byte order. */
export const highChars = /[\uD800-\uFFFF]/;

/** Whether any of `names` holds a character where the native and Go orders can differ. */
export function anyHighChars(names: readonly string[]): boolean {
  for (const name of names) if (highChars.test(name)) return true;
  return false;
}

/** A cheap fingerprint of a name: its length and two of its characters. */
function fingerprint(name: string): number {
  const n = name.length;
  return (n * 31 + name.charCodeAt(n - 1) * 7 + name.charCodeAt(n >> 1)) & 1023;
}

/**
 * Whether the name of the entry at `at` occurs again after it: a single
 * pick is its name's last occurrence unless it does (earlier ones do not
 * matter, as they read the pick's own metadata).
 */
export function nameRepeatsAfter(tags: readonly TagInfo[], at: number): boolean {
  const name = (tags[at] as TagInfo).name;
  for (let j = at + 1; j < tags.length; j++) if ((tags[j] as TagInfo).name === name) return true;
  return false;
}

/**
 * Whether a name of one of the entries at `kept` occurs at any other index of
 * `tags` (whose entries have been checked). One pass: a fingerprint table
 * skips almost every other name without comparing it.
 */
export function keptNamesRepeat(tags: readonly TagInfo[], kept: readonly number[]): boolean {
  const marks = new Uint8Array(1024);
  const names = kept.map((i) => (tags[i] as TagInfo).name);
  for (const name of names) marks[fingerprint(name)] = 1;
  for (let j = 0; j < tags.length; j++) {
    const name = (tags[j] as TagInfo).name;
    if (marks[fingerprint(name)] === 0) continue;
    for (let k = 0; k < names.length; k++) {
      if (names[k] === name && kept[k] !== j) return true;
    }
  }
  return false;
}
