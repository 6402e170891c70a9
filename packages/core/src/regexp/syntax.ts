/**
 * The parser of Go's `regexp/syntax` (Perl flags, RE2 syntax): pattern text
 * to a syntax tree, with Go's exact error reasons and fragments.
 *
 * It follows Go's parser step for step (a stack of partial expressions,
 * literal runs merged as they come, alternations factored by common
 * prefixes, the same size and nesting limits), because every one of those
 * steps can be seen from outside: in which patterns are errors, in the text
 * an error quotes, and in which programs the one-pass engine can take. Two
 * differences on purpose: `(?<name>…)` is a named group, as in Go 1.22 and
 * later, which is what Flux and the conformance vectors expect; and a
 * pattern over the size limits gets Go 1.20's reason (see `errInternal`).
 *
 * Positions are JavaScript string indexes; a code point outside the BMP
 * takes two of them. Lone surrogates are rejected before parsing.
 */
import { cleanAlt, isCharClass, mergeCharClass, minFoldRune } from "./char-class.js";
import { Factoring } from "./factor.js";
import { Limit } from "./parse-limits.js";
import {
  isalnum,
  parseEscape,
  parsePerlClassEscape,
  parseRepeat,
  parseUnicodeClass,
  readClass,
  runeAt,
  width,
} from "./syntax-lex.js";
import { Flag, type Node, SOp, SyntaxError_ } from "./syntax-tree.js";
import { simpleFold } from "./unicode.js";

function repeatIsValid(re: Node, n: number): boolean {
  if (re.op === SOp.Repeat) {
    let m = re.max;
    if (m === 0) return true;
    if (m < 0) m = re.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  for (const sub of re.sub) if (!repeatIsValid(sub, n)) return false;
  return true;
}

/** Go's parser: the stack of partial expressions and the steps that fold it. */
class Parser extends Factoring {
  push(re: Node): Node | null {
    this.numRunes += re.runes.length;
    const r = re.runes;
    if (re.op === SOp.CharClass && r.length === 2 && r[0] === r[1]) {
      if (this.maybeConcat(r[0] as number, this.flags & ~Flag.FoldCase)) return null;
      re.op = SOp.Literal;
      re.runes = [r[0] as number];
      re.flags = this.flags & ~Flag.FoldCase;
    } else if (
      (re.op === SOp.CharClass &&
        r.length === 4 &&
        r[0] === r[1] &&
        r[2] === r[3] &&
        simpleFold(r[0] as number) === r[2] &&
        simpleFold(r[2] as number) === r[0]) ||
      (re.op === SOp.CharClass &&
        r.length === 2 &&
        (r[0] as number) + 1 === r[1] &&
        simpleFold(r[0] as number) === r[1] &&
        simpleFold(r[1] as number) === r[0])
    ) {
      if (this.maybeConcat(r[0] as number, this.flags | Flag.FoldCase)) return null;
      re.op = SOp.Literal;
      re.runes = [r[0] as number];
      re.flags = this.flags | Flag.FoldCase;
    } else {
      this.maybeConcat(-1, 0);
    }
    this.stack.push(re);
    this.checkLimits(re);
    return re;
  }

  maybeConcat(r: number, flags: number): boolean {
    const n = this.stack.length;
    if (n < 2) return false;
    const re1 = this.stack[n - 1] as Node;
    const re2 = this.stack[n - 2] as Node;
    if (
      re1.op !== SOp.Literal ||
      re2.op !== SOp.Literal ||
      (re1.flags & Flag.FoldCase) !== (re2.flags & Flag.FoldCase)
    ) {
      return false;
    }
    re2.runes.push(...re1.runes);
    if (r >= 0) {
      re1.runes = [r];
      re1.flags = flags;
      return true;
    }
    this.stack.pop();
    this.reuse(re1);
    return false;
  }

  literal(r: number): void {
    const re = this.newRegexp(SOp.Literal);
    re.flags = this.flags;
    if (this.flags & Flag.FoldCase) r = minFoldRune(r);
    re.runes = [r];
    this.push(re);
  }

  op(op: SOp): Node | null {
    const re = this.newRegexp(op);
    re.flags = this.flags;
    return this.push(re);
  }

  /** Returns the position after the operator (past a `?` that makes it non-greedy). */
  repeat(
    op: SOp,
    min: number,
    max: number,
    before: number,
    after: number,
    lastRepeat: number,
  ): number {
    let flags = this.flags;
    const s = this.wholeRegexp;
    if (this.flags & Flag.PerlX) {
      if (after < s.length && s[after] === "?") {
        after++;
        flags ^= Flag.NonGreedy;
      }
      if (lastRepeat >= 0) {
        throw new SyntaxError_("invalid nested repetition operator", s.slice(lastRepeat, after));
      }
    }
    const n = this.stack.length;
    if (n === 0)
      throw new SyntaxError_("missing argument to repetition operator", s.slice(before, after));
    const sub = this.stack[n - 1] as Node;
    if (sub.op >= SOp.LeftParen) {
      throw new SyntaxError_("missing argument to repetition operator", s.slice(before, after));
    }
    const re = this.newRegexp(op);
    re.min = min;
    re.max = max;
    re.flags = flags;
    re.sub = [sub];
    this.stack[n - 1] = re;
    this.checkLimits(re);
    if (op === SOp.Repeat && (min >= 2 || max >= 2) && !repeatIsValid(re, 1000)) {
      throw new SyntaxError_("invalid repeat count", s.slice(before, after));
    }
    return after;
  }

  concat(): Node | null {
    this.maybeConcat(-1, 0);
    let i = this.stack.length;
    while (i > 0 && (this.stack[i - 1] as Node).op < SOp.LeftParen) i--;
    const subs = this.stack.splice(i);
    if (subs.length === 0) return this.push(this.newRegexp(SOp.EmptyMatch));
    return this.push(this.collapse(subs, SOp.Concat));
  }

  alternate(): Node | null {
    let i = this.stack.length;
    while (i > 0 && (this.stack[i - 1] as Node).op < SOp.LeftParen) i--;
    const subs = this.stack.splice(i);
    if (subs.length > 0) cleanAlt(subs[subs.length - 1] as Node);
    if (subs.length === 0) return this.push(this.newRegexp(SOp.NoMatch));
    return this.push(this.collapse(subs, SOp.Alternate));
  }

  swapVerticalBar(): boolean {
    const st = this.stack;
    const n = st.length;
    if (
      n >= 3 &&
      (st[n - 2] as Node).op === SOp.VerticalBar &&
      isCharClass(st[n - 1] as Node) &&
      isCharClass(st[n - 3] as Node)
    ) {
      let re1 = st[n - 1] as Node;
      let re3 = st[n - 3] as Node;
      if (re1.op > re3.op) {
        [re1, re3] = [re3, re1];
        st[n - 3] = re3;
      }
      mergeCharClass(re3, re1);
      this.reuse(re1);
      st.pop();
      return true;
    }
    if (n >= 2) {
      const re1 = st[n - 1] as Node;
      const re2 = st[n - 2] as Node;
      if (re2.op === SOp.VerticalBar) {
        if (n >= 3) cleanAlt(st[n - 3] as Node);
        st[n - 2] = re1;
        st[n - 1] = re2;
        return true;
      }
    }
    return false;
  }

  parseVerticalBar(): void {
    this.concat();
    if (!this.swapVerticalBar()) this.op(SOp.VerticalBar);
  }

  parseRightParen(): void {
    this.concat();
    if (this.swapVerticalBar()) this.stack.pop();
    this.alternate();
    const n = this.stack.length;
    if (n < 2) throw new SyntaxError_("unexpected )", this.wholeRegexp);
    const re1 = this.stack[n - 1] as Node;
    const re2 = this.stack[n - 2] as Node;
    this.stack.length = n - 2;
    if (re2.op !== SOp.LeftParen) throw new SyntaxError_("unexpected )", this.wholeRegexp);
    this.flags = re2.flags;
    if (re2.cap === 0) {
      this.push(re1);
    } else {
      re2.op = SOp.Capture;
      re2.sub = [re1];
      this.push(re2);
    }
  }

  /** Parses `(?flags)`, `(?flags:`, `(?P<name>` or `(?<name>` at `i`; returns the position after it. */
  parsePerlFlags(i: number): number {
    const s = this.wholeRegexp;
    const t = s.slice(i);
    if ((t.length > 4 && t[2] === "P" && t[3] === "<") || (t.length > 3 && t[2] === "<")) {
      const begin = t[2] === "<" ? 3 : 4;
      const end = t.indexOf(">");
      if (end < 0) throw new SyntaxError_("invalid named capture", t);
      const capture = t.slice(0, end + 1);
      const name = t.slice(begin, end);
      if (!isValidCaptureName(name)) throw new SyntaxError_("invalid named capture", capture);
      this.numCap++;
      const re = this.op(SOp.LeftParen) as Node;
      re.cap = this.numCap;
      re.name = name;
      return i + end + 1;
    }
    let pos = i + 2;
    let flags = this.flags;
    let sign = 1;
    let sawFlag = false;
    loop: while (pos < s.length) {
      const c = runeAt(s, pos);
      pos += width(c);
      switch (c) {
        case 0x69: // i
          flags |= Flag.FoldCase;
          sawFlag = true;
          break;
        case 0x6d: // m
          flags &= ~Flag.OneLine;
          sawFlag = true;
          break;
        case 0x73: // s
          flags |= Flag.DotNL;
          sawFlag = true;
          break;
        case 0x55: // U
          flags |= Flag.NonGreedy;
          sawFlag = true;
          break;
        case 0x2d: // -
          if (sign < 0) break loop;
          sign = -1;
          flags = ~flags;
          sawFlag = false;
          break;
        case 0x3a: // :
        case 0x29: // )
          if (sign < 0) {
            if (!sawFlag) break loop;
            flags = ~flags;
          }
          if (c === 0x3a) this.op(SOp.LeftParen);
          this.flags = flags;
          return pos;
        default:
          break loop;
      }
    }
    throw new SyntaxError_("invalid or unsupported Perl syntax", s.slice(i, pos));
  }

  parseClass(i: number): number {
    const re = this.newRegexp(SOp.CharClass);
    re.flags = this.flags;
    const [cls, t] = readClass(this.wholeRegexp, this.flags, i);
    re.runes = cls;
    this.push(re);
    return t;
  }
}

function isValidCaptureName(name: string): boolean {
  if (name === "") return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c !== 0x5f && !isalnum(c)) return false;
  }
  return true;
}

/**
 * Parses `s` with Go's Perl flags (what `regexp.Compile` uses). Throws a
 * {@link SyntaxError_} with Go's reason and fragment when Go would reject it.
 */
export function parse(s: string): Node {
  const p = new Parser(s);
  try {
    return parseInto(p, s);
  } catch (e) {
    if (e instanceof Limit) throw new SyntaxError_(e.code, s);
    throw e;
  }
}

function parseInto(p: Parser, s: string): Node {
  let t = 0;
  let lastRepeat = -1;
  while (t < s.length) {
    let repeat = -1;
    const ch = s[t];
    switch (ch) {
      case "(":
        if (t + 1 < s.length && s[t + 1] === "?") {
          t = p.parsePerlFlags(t);
          break;
        }
        p.numCap++;
        (p.op(SOp.LeftParen) as Node).cap = p.numCap;
        t++;
        break;
      case "|":
        p.parseVerticalBar();
        t++;
        break;
      case ")":
        p.parseRightParen();
        t++;
        break;
      case "^":
        p.op(p.flags & Flag.OneLine ? SOp.BeginText : SOp.BeginLine);
        t++;
        break;
      case "$":
        if (p.flags & Flag.OneLine) {
          const re = p.op(SOp.EndText);
          if (re !== null) re.flags |= Flag.WasDollar;
        } else {
          p.op(SOp.EndLine);
        }
        t++;
        break;
      case ".":
        p.op(p.flags & Flag.DotNL ? SOp.AnyChar : SOp.AnyCharNotNL);
        t++;
        break;
      case "[":
        t = p.parseClass(t);
        break;
      case "*":
      case "+":
      case "?": {
        const before = t;
        const op = ch === "*" ? SOp.Star : ch === "+" ? SOp.Plus : SOp.Quest;
        t = p.repeat(op, 0, 0, before, t + 1, lastRepeat);
        repeat = before;
        break;
      }
      case "{": {
        const before = t;
        const parsed = parseRepeat(s, t);
        if (parsed === undefined) {
          p.literal(0x7b);
          t++;
          break;
        }
        const [min, max, after] = parsed;
        if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) {
          throw new SyntaxError_("invalid repeat count", s.slice(before, after));
        }
        t = p.repeat(SOp.Repeat, min, max, before, after, lastRepeat);
        repeat = before;
        break;
      }
      case "\\": {
        if (t + 1 < s.length) {
          const next = s[t + 1];
          if (next === "A") {
            p.op(SOp.BeginText);
            t += 2;
            break;
          }
          if (next === "b") {
            p.op(SOp.WordBoundary);
            t += 2;
            break;
          }
          if (next === "B") {
            p.op(SOp.NoWordBoundary);
            t += 2;
            break;
          }
          if (next === "C") throw new SyntaxError_("invalid escape sequence", s.slice(t, t + 2));
          if (next === "Q") {
            let end = s.indexOf("\\E", t + 2);
            const lit = end < 0 ? s.slice(t + 2) : s.slice(t + 2, end);
            end = end < 0 ? s.length : end + 2;
            for (let k = 0; k < lit.length; ) {
              const c = runeAt(lit, k);
              p.literal(c);
              k += width(c);
            }
            t = end;
            break;
          }
          if (next === "z") {
            p.op(SOp.EndText);
            t += 2;
            break;
          }
        }
        const re = p.newRegexp(SOp.CharClass);
        re.flags = p.flags;
        if (t + 1 < s.length && (s[t + 1] === "p" || s[t + 1] === "P")) {
          const r: number[] = [];
          const nt = parseUnicodeClass(s, p.flags, t, r);
          if (nt !== undefined) {
            re.runes = r;
            t = nt;
            p.push(re);
            break;
          }
        }
        const r: number[] = [];
        const np = parsePerlClassEscape(s, p.flags, t, r);
        if (np !== undefined) {
          re.runes = r;
          t = np;
          p.push(re);
          break;
        }
        p.reuse(re);
        const [c, nt] = parseEscape(s, t);
        t = nt;
        p.literal(c);
        break;
      }
      default: {
        const c = runeAt(s, t);
        t += width(c);
        p.literal(c);
      }
    }
    lastRepeat = repeat;
  }
  p.concat();
  if (p.swapVerticalBar()) p.stack.pop();
  p.alternate();
  if (p.stack.length !== 1) throw new SyntaxError_("missing closing )", s);
  return p.stack[0] as Node;
}
