/**
 * A random grammar of Go regexp patterns and inputs, for differential tests
 * against Go's own `regexp`: every syntax feature (flags, named groups,
 * POSIX, Perl and Unicode classes, `\Q…\E`, counted repeats, assertions),
 * case folding over non-ASCII letters, and invalid syntax of every kind Go
 * rejects. `go-oracle.test.ts` replays answers recorded from Go 1.19 for
 * cases drawn from it.
 *
 * Each case carries two spellings of the pattern: `pattern` as this package
 * takes it, and `goPattern` with `(?<name>` spelled `(?P<name>` (what Go 1.19
 * needs for the same meaning; Go 1.22 accepts both).
 */

export interface GrammarCase {
  readonly pattern: string;
  readonly goPattern: string;
  readonly inputs: readonly string[];
}

/** Characters the patterns and inputs share: ASCII, folding specials, other scripts, astral. */
const letters = [
  ..."abcxyzABCXYZ019_-.:/ \n\t",
  "é",
  "É",
  "k",
  "K",
  "\u212A", // Kelvin sign, folds with k
  "s",
  "S",
  "\u017F", // long s, folds with s
  "ß",
  "Σ",
  "σ",
  "ς",
  "Ω",
  "\u2126", // Ohm sign, folds with Ω
  "д",
  "Д",
  "漢",
  "٣",
  "\u00B5", // micro sign, folds with μ
  "μ",
  "😀",
  "𝔸",
  "\u2028",
  "\r",
  "ǅ",
  "ǆ",
];

const escapes = [
  "\\d",
  "\\D",
  "\\s",
  "\\S",
  "\\w",
  "\\W",
  "\\b",
  "\\B",
  "\\A",
  "\\z",
  "\\pL",
  "\\pN",
  "\\PL",
  "\\p{Greek}",
  "\\p{Lu}",
  "\\p{Ll}",
  "\\p{^Lu}",
  "\\P{Greek}",
  "\\p{Han}",
  "\\p{Cyrillic}",
  "\\p{Latin}",
  "\\p{Any}",
  "\\p{Nd}",
  "\\p{Zs}",
  "\\p{Lt}",
  "\\p{Common}",
  "\\p{Inherited}",
  "\\pM",
  "\\p{Mn}",
  "\\pP",
  "\\pS",
  "\\pZ",
  "\\pC",
  "\\x41",
  "\\x{1F600}",
  "\\x{212A}",
  "\\101",
  "\\0",
  "\\n",
  "\\t",
  "\\.",
  "\\*",
  "\\\\",
  "\\-",
  "\\_",
  "\\$",
  "\\^",
  "\\[",
  "\\]",
  "\\(",
  "\\)",
  "\\{",
  "\\}",
  "\\|",
  "\\+",
  "\\?",
  "\\a",
  "\\f",
  "\\v",
  "\\r",
  "\\Qa.b\\E",
  "\\Q(?i)\\E",
  "\\Qk\\E",
];

const classes = [
  "[abc]",
  "[^a-z]",
  "[[:alpha:]]",
  "[[:^digit:]]",
  "[[:word:]]",
  "[[:space:]]",
  "[[:upper:]]",
  "[[:lower:]]",
  "[[:punct:]]",
  "[\\d\\s]",
  "[a-]",
  "[]a]",
  "[^\\n]",
  "[\\p{Greek}k]",
  "[K-k]",
  "[é-ê]",
  "[^\\x00-\\x{10FFFF}]",
  "[\\x{0}-\\x{10FFFF}]",
  "[a-zA-Z0-9]",
  "[^abc]",
  "[-a]",
  "[.]",
  "[\\pL\\pN]",
  "[^\\PL]",
  "[σς]",
  "[sS]",
  "[kK]",
  "[😀-😂]",
  "[^😀]",
  "[[:]]",
  "[[:]a]",
  "[\\]]",
  "[\\[]",
  "[a\\-z]",
  "[\\w-]",
  "[\\^a]",
  "[0-9_.-]",
];

/** Syntax Go rejects (or that looks like it might be rejected). */
const invalid = [
  "(",
  ")",
  "[",
  "\\",
  "**",
  "a**",
  "a++",
  "a{1001}",
  "\\1",
  "(?=a)",
  "(?!a)",
  "(?<=a)",
  "(?<!a)",
  "\\8",
  "[z-a]",
  "\\p{Foo}",
  "\\p{}",
  "\\p",
  "(?P<>a)",
  "(?P<n",
  "(?P<n!>a)",
  "x{2}{3}",
  "(?z)",
  "(?i",
  "(?-)",
  "(?--i)",
  "\\C",
  "\\Z",
  "\\cA",
  "\\u0041",
  "\\e",
  "[[:foo:]]",
  "[\\b]",
  "[^]",
  "\\x{110000}",
  "\\x{}",
  "\\xZ",
  "(?P=n)",
  "\\k<n>",
  "(?>a)",
  "{",
  "a{,3}",
  "a{2,1}",
  "a{1,1001}",
  "((a{100}){100}){100}",
  "a{01}",
  "x*?+",
  "(?P<a>x)(?P<a>y)",
  "(?<",
  "(?P<",
  "[a",
  "[a-",
  "[\\",
  "\\Qab",
  "(?i)(?-m:x)",
  "(?U)x+?",
  "(|)",
  "()",
  "(?:)",
  "|a",
  "a|",
  "^*",
  "$+",
];

/** Characters that an escape or class may stand for (inputs lean on them). */
const samples = [..."aZ09_ \n.-k\u212AséΣσ漢д٣😀"];

/** Returns one random case: a pattern from the grammar and inputs likely to exercise it. */
export function grammarCase(random: () => number): GrammarCase {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  let names = 0;
  /** [pattern, Go spelling, a string the pattern may well match]. */
  type Gen = [string, string, string];
  const expr = (depth: number): Gen => {
    const n = 1 + Math.floor(random() * (depth === 0 ? 4 : 2));
    let ts = "";
    let go = "";
    let sample = "";
    for (let i = 0; i < n; i++) {
      const [a, b, c] = piece(depth);
      ts += a;
      go += b;
      sample += c;
    }
    if (depth < 3 && random() < 0.2) {
      const [a, b, c] = expr(depth + 1);
      ts += `|${a}`;
      go += `|${b}`;
      if (random() < 0.5) sample = c;
    }
    return [ts, go, sample];
  };
  const atom = (depth: number): Gen => {
    const k = random();
    if (k < 0.35) {
      const c = pick(letters);
      const text = ".[](){}*+?|^$\\".includes(c) ? `\\${c}` : c;
      const folded = random() < 0.3 ? (random() < 0.5 ? c.toUpperCase() : c.toLowerCase()) : c;
      return [text, text, folded];
    }
    if (k < 0.47) {
      const e = pick(escapes);
      return [e, e, pick(samples)];
    }
    if (k < 0.57) {
      const c = pick(classes);
      return [c, c, pick(samples)];
    }
    if (k < 0.62) {
      const a = pick([".", "^", "$"]);
      return [a, a, a === "." ? pick(samples) : random() < 0.3 ? "\n" : ""];
    }
    if (k < 0.64) {
      const bad = pick(invalid);
      return [bad, bad, ""];
    }
    if (depth >= 4) return ["a", "a", "a"];
    const [a, b, c] = expr(depth + 1);
    const g = random();
    if (g < 0.35) return [`(${a})`, `(${b})`, c];
    if (g < 0.5) return [`(?:${a})`, `(?:${b})`, c];
    if (g < 0.65) {
      const name =
        pick(["n", "v", "x1", "_", "name", "A"]) + (random() < 0.3 ? String(names++) : "");
      return random() < 0.5
        ? [`(?P<${name}>${a})`, `(?P<${name}>${b})`, c]
        : [`(?<${name}>${a})`, `(?P<${name}>${b})`, c];
    }
    const flags = pick(["i", "m", "s", "U", "is", "-i", "i-s", "ms-U", "im"]);
    if (g < 0.85) return [`(?${flags}:${a})`, `(?${flags}:${b})`, c];
    return [`(?${flags})${a}`, `(?${flags})${b}`, c];
  };
  const piece = (depth: number): Gen => {
    const [a, b, c] = atom(depth);
    const k = random();
    if (k < 0.65) return [a, b, c];
    const op = pick(["*", "+", "?", "{2}", "{0}", "{1,3}", "{2,}", "{0,1}", "{3,5}", "{1}"]);
    const lazy = random() < 0.3 ? "?" : "";
    return [a + op + lazy, b + op + lazy, c.repeat(Math.floor(random() * 4))];
  };
  const [pattern, goPattern, sample] = random() < 0.05 ? [".*", ".*", "ab"] : expr(0);
  const own = [...pattern.replace(/[\\[\](){}*+?|^$]/g, "")];
  const noise = (): string => {
    let s = "";
    const len = Math.floor(random() * 4);
    for (let j = 0; j < len; j++) s += random() < 0.5 && own.length > 0 ? pick(own) : pick(letters);
    return s;
  };
  const inputs: string[] = [sample, noise() + sample + noise()];
  if (random() < 0.5) inputs.push(noise() + noise() + noise());
  return { pattern, goPattern, inputs };
}
