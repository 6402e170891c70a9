/**
 * The character-level grammar of a platform specifier: the patterns Go's
 * messages quote, the character classes as one table, and the scan of an
 * OS piece. `parse.ts` applies them in containerd's order.
 *
 * @module
 */

import { Quote as goQuote } from "../internal/strconv.js";

/** An OS name, then optional parentheses holding a version and `+feature`s: `windows(10.0.17763+win32k)`. */
const OS_PATTERN = "^([A-Za-z0-9_-]+)(?:\\(([A-Za-z0-9_.%-]*)((?:\\+[A-Za-z0-9_.%-]+)*)\\))?$";
/** Architecture and variant pieces: letters, digits, `_`, `.`, `-` (so `v8.2` is one piece). */
const COMPONENT_PATTERN = "^[A-Za-z0-9_.-]+$";

// The scanners below read these grammars; the messages quote their text.
let quotedOSPattern: string | undefined;
let quotedComponentPattern: string | undefined;

/** A pattern's text as `%q` prints it, quoted once: it holds backslashes, the slow case of Quote. */
export function quotedPattern(which: "os" | "component"): string {
  if (which === "os") {
    quotedOSPattern ??= goQuote(OS_PATTERN);
    return quotedOSPattern;
  }
  quotedComponentPattern ??= goQuote(COMPONENT_PATTERN);
  return quotedComponentPattern;
}

/** Character classes of the grammar, one bit each: a table look-up per character. */
export const NAME = 1; // [A-Za-z0-9_-]
export const COMPONENT = 2; // [A-Za-z0-9_.-]
const OPTION = 4; // [A-Za-z0-9_.%-]
export const ALL_CLASSES = NAME | COMPONENT | OPTION;

function characterClasses(): Uint8Array {
  const table = new Uint8Array(128);
  for (let c = 0x30; c <= 0x39; c++) table[c] = ALL_CLASSES;
  for (let c = 0x41; c <= 0x5a; c++) table[c] = ALL_CLASSES;
  for (let c = 0x61; c <= 0x7a; c++) table[c] = ALL_CLASSES;
  table[0x5f] = ALL_CLASSES; // _
  table[0x2d] = ALL_CLASSES; // -
  table[0x2e] = COMPONENT | OPTION; // .
  table[0x25] = OPTION; // %
  return table;
}

/** 128 bytes, read for every character of every specifier: built once, as the module loads. */
const CLASSES = /*#__PURE__*/ characterClasses();

/** The classes character `c` belongs to (none for non-ASCII). */
export function classesOf(c: number): number {
  return c < 0x80 ? (CLASSES[c] as number) : 0;
}

function isIn(c: number, which: number): boolean {
  return (classesOf(c) & which) !== 0;
}

/** A piece that passed its check is ASCII: lower-cased by `toLowerCase`, and only when it has a capital. */
export function lowered(piece: string, capital: boolean): string {
  return capital ? piece.toLowerCase() : piece;
}

/** The groups of {@link OS_PATTERN}: the name, the raw version, and `+`-led raw features (`""` when none). */
export interface OSPiece {
  readonly name: string;
  readonly version: string;
  readonly features: string;
}

/** Returns the groups of {@link OS_PATTERN} in `piece`, or `undefined` when it does not match. */
export function scanOSPiece(piece: string): OSPiece | undefined {
  const n = piece.length;
  let i = 0;
  while (i < n && isIn(piece.charCodeAt(i), NAME)) i++;
  if (i === 0) return undefined;
  if (i === n) return { name: piece, version: "", features: "" };
  // The rest must be `(` version { `+` feature } `)`.
  if (piece.charCodeAt(i) !== 0x28 || piece.charCodeAt(n - 1) !== 0x29 || n - 1 <= i) {
    return undefined;
  }
  const name = piece.slice(0, i);
  const versionFrom = ++i;
  while (i < n - 1 && isIn(piece.charCodeAt(i), OPTION)) i++;
  const versionTo = i;
  while (i < n - 1) {
    if (piece.charCodeAt(i) !== 0x2b) return undefined;
    const featureFrom = ++i;
    while (i < n - 1 && isIn(piece.charCodeAt(i), OPTION)) i++;
    if (i === featureFrom) return undefined;
  }
  return {
    name,
    version: piece.slice(versionFrom, versionTo),
    features: piece.slice(versionTo, n - 1),
  };
}
