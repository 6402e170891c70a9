/**
 * Go's `Regexp.Expand` template language, parsed once and applied to many
 * matches.
 *
 * Mirrors `expand` and `extract` in Go's `regexp/regexp.go`:
 *
 * - text is copied literally up to each `$`; `$$` is one `$`;
 * - `$name` takes the longest run of Unicode letters, Unicode decimal digits
 *   (`Nd`) and `_`; `${name}` takes such a run that must be closed by `}`;
 * - when no name follows (or `${` is unclosed), the `$` is copied literally and
 *   copying resumes right after it;
 * - a name of ASCII digits without a leading zero is a group number. Go stops
 *   counting once the value reaches 10^8 before the next digit, so every number
 *   of up to nine digits is a number and longer ones are names;
 * - any other name selects the first group of that name that took part in the
 *   match; an unknown name, an out-of-range number or a group that did not
 *   participate expands to nothing.
 */

/** One piece of a parsed template. */
export type TemplatePiece =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "number"; readonly group: number }
  | { readonly kind: "name"; readonly name: string };

/** Matches the run of name characters Go's `extract` accepts (sticky, from `lastIndex`). */
function nameRunPattern(): RegExp {
  return /[\p{L}\p{Nd}_]+/uy;
}

/** Go's `extract` result for the text right after a `$`. */
interface Extracted {
  readonly name: string;
  readonly num: number;
  /** Where the template continues after the reference. */
  readonly next: number;
}

/** Mirrors `extract` in Go's regexp.go: reads `name` or `{name}` at `start`. */
function extract(template: string, start: number, nameRun: RegExp): Extracted | undefined {
  if (start >= template.length) return undefined;
  let i = start;
  const brace = template.charCodeAt(i) === 0x7b; // "{"
  if (brace) i++;
  nameRun.lastIndex = i;
  const run = nameRun.exec(template);
  if (run === null) return undefined;
  const name = run[0];
  i += name.length;
  if (brace) {
    if (i >= template.length || template.charCodeAt(i) !== 0x7d) return undefined; // "}"
    i++;
  }
  let num = 0;
  for (let k = 0; k < name.length; k++) {
    const c = name.charCodeAt(k);
    if (c < 0x30 || c > 0x39 || num >= 1e8) {
      num = -1;
      break;
    }
    num = num * 10 + (c - 0x30);
  }
  if (name.charCodeAt(0) === 0x30 && name.length > 1) num = -1;
  return { name, num, next: i };
}

/**
 * Returns the pieces of a Go `Expand` template, in order.
 *
 * Adjacent literal text is merged; `$$` and malformed `$` become literal `$`.
 *
 * @example
 * ```ts
 * import { parseTemplate } from "@kubeimg/core/regexp";
 *
 * parseTemplate("v$1-${name}$$");
 * // [{kind:"literal",text:"v"},{kind:"number",group:1},{kind:"literal",text:"-"},
 * //  {kind:"name",name:"name"},{kind:"literal",text:"$"}]
 * ```
 */
export function parseTemplate(template: string): TemplatePiece[] {
  const pieces: TemplatePiece[] = [];
  const nameRun = nameRunPattern();
  let literal = "";
  let rest = 0;
  while (rest < template.length) {
    const dollar = template.indexOf("$", rest);
    if (dollar < 0) break;
    literal += template.slice(rest, dollar);
    rest = dollar + 1;
    if (template.charCodeAt(rest) === 0x24) {
      literal += "$";
      rest++;
      continue;
    }
    const ref = extract(template, rest, nameRun);
    if (ref === undefined) {
      literal += "$";
      continue;
    }
    rest = ref.next;
    if (literal !== "") pieces.push({ kind: "literal", text: literal });
    literal = "";
    pieces.push(
      ref.num >= 0 ? { kind: "number", group: ref.num } : { kind: "name", name: ref.name },
    );
  }
  literal += template.slice(rest);
  if (literal !== "") pieces.push({ kind: "literal", text: literal });
  return pieces;
}

/**
 * A template bound to one regexp's groups: expands matches of that regexp.
 *
 * @example
 * ```ts
 * import { compileRegexp } from "@kubeimg/core/regexp";
 *
 * const re = compileRegexp("^v(?P<major>\\d+)\\.(\\d+)");
 * const t = re.compileTemplate("$major-${2}");
 * const m = re.findStringSubmatchIndex("v1.22");
 * m && t.expand("v1.22", m); // "1-22"
 * ```
 */
export interface ExpandTemplate {
  /** The template text as given. */
  readonly template: string;
  /**
   * The highest group index the template can read, or -1 when it reads none
   * (a purely literal template). Callers may ask the matcher for only this
   * many groups.
   */
  readonly maxGroup: number;
  /**
   * Returns the template expanded against `match`, a submatch index array
   * (as from `findStringSubmatchIndex`) into `src`.
   */
  expand(src: string, match: ArrayLike<number>): string;
}

/** A template piece resolved to the group indexes it may read. */
type BoundPiece = string | readonly number[];

/**
 * Binds a template to the group names of a regexp (`subexpNames`, index 0
 * being the whole match) and returns its expander.
 */
export function bindTemplate(template: string, subexpNames: readonly string[]): ExpandTemplate {
  const bound: BoundPiece[] = [];
  let maxGroup = -1;
  for (const piece of parseTemplate(template)) {
    if (piece.kind === "literal") {
      bound.push(piece.text);
    } else if (piece.kind === "number") {
      // An out-of-range number always expands to nothing.
      if (piece.group < subexpNames.length) {
        bound.push([piece.group]);
        maxGroup = Math.max(maxGroup, piece.group);
      }
    } else {
      const groups: number[] = [];
      for (let i = 1; i < subexpNames.length; i++) {
        if (subexpNames[i] === piece.name) groups.push(i);
      }
      if (groups.length > 0) {
        bound.push(groups);
        maxGroup = Math.max(maxGroup, ...groups);
      }
    }
  }
  const only = bound.length === 1 ? bound[0] : undefined;
  // Fast paths for the common shapes: all literal, or exactly one reference.
  if (bound.length === 0) return { template, maxGroup, expand: () => "" };
  if (typeof only === "string") return { template, maxGroup, expand: () => only };
  if (only !== undefined && only.length === 1) {
    // A lone reference such as `$ts`: the group's text, or "" when it did not take part.
    const group = only[0] as number;
    return {
      template,
      maxGroup,
      expand(src: string, match: ArrayLike<number>): string {
        const start = match[2 * group];
        const end = match[2 * group + 1];
        return start !== undefined && end !== undefined && start >= 0 ? src.slice(start, end) : "";
      },
    };
  }
  return {
    template,
    maxGroup,
    expand(src: string, match: ArrayLike<number>): string {
      let out = "";
      for (const piece of bound) {
        if (typeof piece === "string") {
          out += piece;
          continue;
        }
        for (const group of piece) {
          const start = match[2 * group];
          const end = match[2 * group + 1];
          if (start !== undefined && end !== undefined && start >= 0) {
            out += src.slice(start, end);
            break;
          }
        }
      }
      return out;
    },
  };
}
