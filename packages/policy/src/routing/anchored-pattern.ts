/**
 * kuik's anchored patterns (`^(P)$`), compiled once per process and only
 * when a string reaches them.
 *
 * A cluster's routing CRs repeat the same few filters, and a controller
 * recompiles its routing whenever any CR changes; most patterns are never
 * run at all, because their literal prefix already refuses the image. So a
 * pattern is kept by its text in one bounded table shared by every CR and
 * every generation, and its program is built on first use. What cannot wait
 * is knowing whether Go would refuse it (kuik skips the whole CR, or drops
 * the upstream, when it does): {@link knownValid} recognises a plain subset
 * of the syntax that Go always accepts, and anything outside it is compiled
 * at once to find out.
 */
import {
  compileRegexp,
  type GoRegexp,
  type RegexpError,
  requiredLiteralPrefix,
} from "@kubeimg/core/regexp";

/** One pattern `P` as kuik compiles it, `^(P)$`. */
export interface AnchoredPattern {
  /** `P` as written. */
  readonly source: string;
  /** Literal text every matching string starts with ("" when none is certain). */
  readonly prefix: string;
  /** Go's refusal of `^(P)$`, when it refuses it. */
  readonly error: RegexpError | undefined;
  /** True when all of `s` matches `^(P)$`. Only for patterns without `error`. */
  match(s: string): boolean;
}

const isAlphanumeric = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const printable = (c: number): boolean => c >= 0x20 && c <= 0x7e;
/** Perl classes Go accepts after a backslash. */
const perlClasses = new Set("dDsSwW");
/** A character that stands for itself in a class of the plain subset. */
const classLiteral = (c: number): boolean =>
  printable(c) && c !== 0x5c && c !== 0x5b && c !== 0x5d && c !== 0x2d;

/**
 * Returns true when `pattern` lies in a plain subset of RE2 syntax for which
 * Go's `regexp.Compile("^(" + pattern + ")$")` always succeeds: printable
 * ASCII; literals; a backslash before punctuation or one of `dDsSwW`; `.`,
 * `^`, `$`; classes of literals and ascending ranges (no backslash, `[`, `-`
 * or `]` inside); groups `( … )` with `|`; one `*`, `+` or `?` after an atom.
 * False means "not known", not "invalid": such patterns are compiled at once.
 *
 * For example `docker\.io/library/(nginx|redis):.+` is known valid; `a{2}` is not
 * (it is compiled to find out).
 */
export function knownValid(pattern: string): boolean {
  if (pattern.length > 1024) return false;
  let depth = 0;
  /** Whether the previous item can take a quantifier. */
  let quantifiable = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (!printable(c)) return false;
    switch (c) {
      case 0x2a /* * */:
      case 0x2b /* + */:
      case 0x3f /* ? */:
        if (!quantifiable) return false;
        quantifiable = false;
        break;
      case 0x28 /* ( */:
        if (pattern.charCodeAt(i + 1) === 0x3f /* (? */ || ++depth > 100) return false;
        quantifiable = false;
        break;
      case 0x29 /* ) */:
        if (--depth < 0) return false;
        quantifiable = true;
        break;
      case 0x7c /* | */:
        quantifiable = false;
        break;
      case 0x5e /* ^ */:
      case 0x24 /* $ */:
        quantifiable = false;
        break;
      case 0x7b /* { */:
      case 0x7d /* } */:
      case 0x5d /* ] */:
        return false;
      case 0x5c /* \ */:
        {
          const next = pattern.charCodeAt(++i);
          if (!printable(next)) return false;
          if (isAlphanumeric(next) && !perlClasses.has(pattern[i] as string)) return false;
          quantifiable = true;
          break;
        }
      case 0x5b /* [ */:
        {
          i++;
          if (pattern.charCodeAt(i) === 0x5e /* ^ */) i++;
          let items = 0;
          while (i < pattern.length && pattern.charCodeAt(i) !== 0x5d /* ] */) {
            const lo = pattern.charCodeAt(i);
            if (!classLiteral(lo)) return false;
            if (pattern.charCodeAt(i + 1) === 0x2d /* - */) {
              const hi = pattern.charCodeAt(i + 2);
              if (!classLiteral(hi) || hi < lo) return false;
              i += 3;
            } else i++;
            items++;
          }
          if (i >= pattern.length || items === 0) return false;
          quantifiable = true;
          break;
        }
      default:
        quantifiable = true;
    }
  }
  return depth === 0;
}

class Pattern implements AnchoredPattern {
  readonly source: string;
  readonly prefix: string;
  readonly error: RegexpError | undefined;
  /** Set for `.*` and `.+`, which Go reads as "any run of non-newline characters". */
  readonly #anyLine: "any" | "nonEmpty" | undefined;
  #regexp: GoRegexp | undefined;

  constructor(source: string) {
    this.source = source;
    this.prefix = requiredLiteralPrefix(source);
    this.#anyLine = source === ".*" ? "any" : source === ".+" ? "nonEmpty" : undefined;
    if (this.#anyLine === undefined && !knownValid(source)) {
      try {
        this.#regexp = compileRegexp(`^(${source})$`);
      } catch (e) {
        this.error = e as RegexpError;
      }
    }
  }

  match(s: string): boolean {
    if (this.#anyLine !== undefined) {
      return !s.includes("\n") && (this.#anyLine === "any" || s !== "");
    }
    if (!s.startsWith(this.prefix)) return false;
    this.#regexp ??= compileRegexp(`^(${this.source})$`);
    return this.#regexp.matchString(s);
  }
}

/** How many distinct patterns are kept before the table starts over. */
const PATTERN_CAPACITY = 8192;
const patterns = new Map<string, Pattern>();

/**
 * Returns the shared anchored pattern for `source`: its literal prefix now,
 * its validity now, its program on first use.
 *
 * For example the pattern `quay\.io/.+` matches `quay.io/team/app:1`.
 */
export function anchoredPattern(source: string): AnchoredPattern {
  let pattern = patterns.get(source);
  if (pattern === undefined) {
    pattern = new Pattern(source);
    if (patterns.size >= PATTERN_CAPACITY) patterns.clear();
    patterns.set(source, pattern);
  }
  return pattern;
}
