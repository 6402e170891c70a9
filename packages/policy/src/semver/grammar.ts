/**
 * The constraint grammar of Masterminds/semver v3 (`constraints.go`), scanned
 * by hand.
 *
 * Masterminds writes it as four Go regular expressions; each function below
 * gives exactly the answer Go's `regexp` gives for one of them, in the shape
 * of the Go call that `NewConstraint` makes (the match, the submatch strings
 * or indexes, the successive non-overlapping matches):
 *
 * ```
 * operator    = "=" / "" / "!=" / ">" / "<" / ">=" / "=>" / "<=" / "=<" / "~" / "~>" / "^"
 * version     = [ "v" ] number [ "." number ] [ "." number ]
 *               [ "-" identifiers ] [ "+" identifiers ]
 * number      = 1*( DIGIT / "x" / "X" / "*" / "|" )
 * identifiers = ident *( "." ident )
 * ident       = 1*( ALPHA / DIGIT / "-" )               ; ASCII only
 * WS          = HTAB / LF / FF / CR / SP                ; Go's `\s`: no VT
 * ```
 *
 * `|` is a number character because Masterminds writes the class
 * `[0-9|x|X|\*]`: `1|2` passes the grammar and fails later as `constraint
 * parser error`.
 *
 * Why a scanner, not a regular expression engine:
 * - no exponential backtracking: the constraint comes from users, and the
 *   validation pattern, with its runs of `\s*` around optional operators,
 *   backtracks exponentially in a JavaScript `RegExp` on a crafted input;
 *   the search for successive matches memoizes the end of each run it
 *   scans, so a long input costs linear work as in RE2;
 * - Go's exact `\s` (no vertical tab, no Unicode spaces), where JavaScript's
 *   `\s` is wider;
 * - no compile at first use: the RE2 port compiles the four patterns on a
 *   process's first parse, most of what a short-lived run's first tag
 *   selection costs.
 *
 * The grammar needs no general engine: after each repeated class the next
 * character is never in that class, and a version's optional parts each
 * start with a character (`.`, `-`, `+`) that nothing after a version may
 * start with, so every choice but the operator is forced; and at most one
 * operator alternative leaves a whitespace or version character next, so
 * trying them in Masterminds' order (Go's alternation is leftmost-first)
 * finds Go's match. A property test holds these functions to the Go
 * patterns run through the RE2 port.
 */

/**
 * Characters and start positions the scanner has examined, for the tests
 * that hold a search to linear work (counted, not timed).
 */
export const scanWork = { steps: 0 };

/** The operators, in Masterminds' order (leftmost-first alternation). */
const operators = ["=", "", "!=", ">", "<", ">=", "=>", "<=", "=<", "~", "~>", "^"] as const;

/** Go's `\s`: tab, newline, form feed, carriage return, space (not vertical tab). */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** `[0-9|x|X|\*]`. */
function isNumber(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x78 || c === 0x58 || c === 0x2a || c === 0x7c;
}

/** `[0-9A-Za-z\-]`. */
function isIdent(c: number): boolean {
  if (c >= 0x30 && c <= 0x39) return true;
  const lower = c | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || c === 0x2d;
}

/**
 * The text and, for the searches that try many start positions, the end of
 * each run already scanned (stored as end + 1; 0 is unknown), which keeps a
 * search linear where starts inside one long run would rescan it.
 */
class Scan {
  readonly s: string;
  readonly n: number;
  readonly #space: Int32Array | undefined;
  readonly #number: Int32Array | undefined;
  readonly #chain: Int32Array | undefined;

  constructor(s: string, memoize: boolean) {
    this.s = s;
    this.n = s.length;
    if (memoize) {
      this.#space = new Int32Array(s.length + 1);
      this.#number = new Int32Array(s.length + 1);
      this.#chain = new Int32Array(s.length + 1);
    }
  }

  /** The end of the run of `isSpace` characters from `i`. */
  spaceEnd(i: number): number {
    return runEnd(this.s, i, isSpace, this.#space);
  }

  /** The end of the run of number characters from `i`. */
  numberEnd(i: number): number {
    return runEnd(this.s, i, isNumber, this.#number);
  }

  /** The end of `ident *( "." ident )` from `i`, an identifier character. */
  chainEnd(i: number): number {
    const s = this.s;
    const memo = this.#chain;
    let j = i;
    let end = -1;
    for (;;) {
      scanWork.steps++;
      const c = s.charCodeAt(j);
      if (isIdent(c)) {
        if (memo !== undefined && memo[j] !== 0) {
          end = (memo[j] as number) - 1;
          break;
        }
        j++;
      } else if (c === 0x2e && isIdent(s.charCodeAt(j + 1))) {
        j++;
      } else {
        end = j;
        break;
      }
    }
    if (memo !== undefined) {
      scanWork.steps += j - i;
      for (let k = i; k < j; k++) memo[k] = end + 1;
    }
    return end;
  }
}

function runEnd(
  s: string,
  i: number,
  inClass: (c: number) => boolean,
  memo: Int32Array | undefined,
): number {
  const from = i;
  if (memo === undefined) {
    while (inClass(s.charCodeAt(i))) i++;
    scanWork.steps += i - from + 1;
    return i;
  }
  let j = i;
  while (inClass(s.charCodeAt(j)) && memo[j] === 0) j++;
  const end = inClass(s.charCodeAt(j)) ? (memo[j] as number) - 1 : j;
  for (let k = i; k < j; k++) memo[k] = end + 1;
  scanWork.steps += 2 * (j - from) + 1;
  return end;
}

/** Index pairs a version fills: itself and its nine groups. */
const versionPairs = 10;

/**
 * Scans a version at `i`; returns its end, or -1. Writes the version's nine
 * groups (major, `.minor`, `.patch`, `-pre`, pre, last `.ident` of pre,
 * `+meta`, meta, last `.ident` of meta) as index pairs into `g` from `o`,
 * -1 for a group that did not take part, the last identifiers left to
 * {@link finishVersion} (a failed start does not pay for them).
 */
function scanVersion(sc: Scan, i: number, g: number[], o: number): number {
  const s = sc.s;
  if (s.charCodeAt(i) === 0x76) i++; // "v"
  const majorEnd = sc.numberEnd(i);
  if (majorEnd === i) return -1;
  g[o] = i;
  g[o + 1] = majorEnd;
  i = majorEnd;
  for (let k = o + 2; k <= o + 4; k += 2) {
    if (s.charCodeAt(i) === 0x2e && isNumber(s.charCodeAt(i + 1))) {
      const end = sc.numberEnd(i + 1);
      g[k] = i;
      g[k + 1] = end;
      i = end;
    } else {
      g[k] = -1;
      g[k + 1] = -1;
    }
  }
  // "-" pre-release at o + 6, "+" metadata at o + 12.
  for (let k = o + 6, mark = 0x2d; k <= o + 12; k += 6, mark = 0x2b) {
    if (s.charCodeAt(i) === mark && isIdent(s.charCodeAt(i + 1))) {
      const end = sc.chainEnd(i + 1);
      g[k] = i;
      g[k + 1] = end;
      g[k + 2] = i + 1;
      g[k + 3] = end;
      i = end;
    } else {
      g[k] = -1;
      g[k + 1] = -1;
      g[k + 2] = -1;
      g[k + 3] = -1;
    }
    g[k + 4] = -1;
    g[k + 5] = -1;
  }
  return i;
}

/** Fills the last-identifier groups of a matched version (the last `.ident` repetition). */
function finishVersion(s: string, g: number[], o: number): void {
  for (let k = o + 8; k <= o + 14; k += 6) {
    const start = g[k] as number;
    if (start < 0) continue;
    const end = g[k + 1] as number;
    for (let d = end - 1; d > start; d--) {
      scanWork.steps++;
      if (s.charCodeAt(d) === 0x2e) {
        g[k + 2] = d;
        g[k + 3] = end;
        break;
      }
    }
  }
}

/**
 * Scans `operator *WS version` at `i` trying the operators in order; returns
 * the version's end or -1, with the operator's pair at `g[o]` and the
 * version's ten pairs after it.
 */
function scanOperatorVersion(sc: Scan, i: number, g: number[], o: number): number {
  for (const op of operators) {
    scanWork.steps++;
    if (!sc.s.startsWith(op, i)) continue;
    const at = sc.spaceEnd(i + op.length);
    const end = scanVersion(sc, at, g, o + 4);
    if (end < 0) continue;
    g[o] = i;
    g[o + 1] = i + op.length;
    g[o + 2] = at;
    g[o + 3] = end;
    return end;
  }
  return -1;
}

/**
 * Masterminds' `constraintRegex` (`^\s*(op)\s*(version)\s*$`) as Go's
 * `FindStringSubmatch`: twelve strings (the whole text, the operator, the
 * version, the version's nine groups; `""` for a group that did not take
 * part), or null.
 */
export function matchSingleConstraint(text: string): string[] | null {
  const sc = new Scan(text, false);
  const g = new Array<number>(2 + 2 * (1 + versionPairs)).fill(-1);
  const end = scanOperatorVersion(sc, sc.spaceEnd(0), g, 2);
  if (end < 0 || sc.spaceEnd(end) !== sc.n) return null;
  g[0] = 0;
  g[1] = sc.n;
  finishVersion(text, g, 6);
  const out: string[] = [];
  for (let k = 0; k < g.length; k += 2) {
    const start = g[k] as number;
    out.push(start < 0 ? "" : text.slice(start, g[k + 1]));
  }
  return out;
}

/**
 * Masterminds' `constraintRangeRegex` (`\s*(version)\s+-\s+(version)\s*`) as
 * Go's `FindAllStringSubmatchIndex`: per match 42 indexes (the match, the
 * first version at 2 and its groups, the second version at 22 and its
 * groups), or null when nothing matches.
 */
export function findHyphenRanges(input: string): number[][] | null {
  const sc = new Scan(input, true);
  const n = sc.n;
  const out: number[][] = [];
  let g = new Array<number>(2 + 4 * versionPairs);
  for (let p = 0; p < n; p++) {
    scanWork.steps++;
    const from = sc.spaceEnd(p);
    const fromEnd = scanVersion(sc, from, g, 4);
    if (fromEnd < 0) continue;
    const dash = sc.spaceEnd(fromEnd);
    if (dash === fromEnd || input.charCodeAt(dash) !== 0x2d) continue;
    const to = sc.spaceEnd(dash + 1);
    if (to === dash + 1) continue;
    const toEnd = scanVersion(sc, to, g, 24);
    if (toEnd < 0) continue;
    const end = sc.spaceEnd(toEnd);
    g[0] = p;
    g[1] = end;
    g[2] = from;
    g[3] = fromEnd;
    g[22] = to;
    g[23] = toEnd;
    finishVersion(input, g, 4);
    finishVersion(input, g, 24);
    out.push(g);
    g = new Array<number>(g.length);
    p = end - 1;
  }
  return out.length === 0 ? null : out;
}

/**
 * Masterminds' `findConstraintRegex` (`(op)\s*(version)`) as Go's
 * `FindAllStringSubmatchIndex`: per match 24 indexes (the match, the
 * operator, the version, its nine groups), or null when nothing matches.
 */
export function findConstraintsInGroup(group: string): number[][] | null {
  const sc = new Scan(group, true);
  const out: number[][] = [];
  let g = new Array<number>(2 + 2 * (1 + versionPairs));
  for (let p = 0; p < sc.n; p++) {
    const end = scanOperatorVersion(sc, p, g, 2);
    if (end < 0) continue;
    g[0] = p;
    g[1] = end;
    finishVersion(group, g, 6);
    out.push(g);
    g = new Array<number>(g.length);
    p = end - 1;
  }
  return out.length === 0 ? null : out;
}

/**
 * Masterminds' `validConstraintRegex` as Go's `MatchString`: whether `group`
 * is one AND group, constraints separated by whitespace or a comma.
 */
export function isAndGroup(group: string): boolean {
  const sc = new Scan(group, true);
  const g = new Array<number>(2 + 2 * (1 + versionPairs));
  let i = sc.spaceEnd(0);
  for (;;) {
    const end = scanOperatorVersion(sc, i, g, 0);
    if (end < 0) return false;
    const next = sc.spaceEnd(end);
    if (next === sc.n) return true;
    if (group.charCodeAt(next) === 0x2c) i = sc.spaceEnd(next + 1);
    else if (next > end) i = next;
    else return false;
  }
}
