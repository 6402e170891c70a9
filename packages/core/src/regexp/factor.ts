/**
 * How Go's parser collapses an alternation: it factors the branches by
 * common literal prefixes, then by a common leading class, merges runs of
 * single-character branches into one class and drops repeated empty
 * branches. The shape it leaves decides which programs Go compiles (and
 * whether the one-pass engine applies), so it is followed round by round.
 */
import { cleanAlt, isCharClass, mergeCharClass } from "./char-class.js";
import { ParseState } from "./parse-limits.js";
import { equalNodes, Flag, type Node, SOp } from "./syntax-tree.js";

/** The parser's alternation collapsing and factoring; the parser builds on it. */
export class Factoring extends ParseState {
  collapse(subs: Node[], op: SOp): Node {
    if (subs.length === 1) return subs[0] as Node;
    let re = this.newRegexp(op);
    for (const sub of subs) {
      if (sub.op === op) {
        re.sub.push(...sub.sub);
        this.reuse(sub);
      } else {
        re.sub.push(sub);
      }
    }
    if (op === SOp.Alternate) {
      re.sub = this.factor(re.sub);
      if (re.sub.length === 1) {
        const old = re;
        re = re.sub[0] as Node;
        this.reuse(old);
      }
    }
    return re;
  }

  factor(sub: Node[]): Node[] {
    if (sub.length < 2) return sub;
    // Round 1: common literal prefixes.
    let str: number[] = [];
    let strflags = 0;
    let start = 0;
    let out: Node[] = [];
    for (let i = 0; i <= sub.length; i++) {
      let istr: number[] = [];
      let iflags = 0;
      if (i < sub.length) {
        [istr, iflags] = this.leadingString(sub[i] as Node);
        if (iflags === strflags) {
          let same = 0;
          while (same < str.length && same < istr.length && str[same] === istr[same]) same++;
          if (same > 0) {
            str = str.slice(0, same);
            continue;
          }
        }
      }
      if (i === start) {
        // nothing
      } else if (i === start + 1) {
        out.push(sub[start] as Node);
      } else {
        const prefix = this.newRegexp(SOp.Literal);
        prefix.flags = strflags;
        prefix.runes = str.slice();
        for (let j = start; j < i; j++) {
          sub[j] = this.removeLeadingString(sub[j] as Node, str.length);
          this.checkLimits(sub[j] as Node);
        }
        const suffix = this.collapse(sub.slice(start, i), SOp.Alternate);
        const re = this.newRegexp(SOp.Concat);
        re.sub = [prefix, suffix];
        out.push(re);
      }
      start = i;
      str = istr;
      strflags = iflags;
    }
    sub = out;

    // Round 2: a common leading character class (or fixed repeat of one).
    start = 0;
    out = [];
    let first: Node | null = null;
    for (let i = 0; i <= sub.length; i++) {
      let ifirst: Node | null = null;
      if (i < sub.length) {
        ifirst = this.leadingRegexp(sub[i] as Node);
        if (
          first !== null &&
          ifirst !== null &&
          equalNodes(first, ifirst) &&
          (isCharClass(first) ||
            (first.op === SOp.Repeat &&
              first.min === first.max &&
              isCharClass(first.sub[0] as Node)))
        ) {
          continue;
        }
      }
      if (i === start) {
        // nothing
      } else if (i === start + 1) {
        out.push(sub[start] as Node);
      } else {
        const prefix = first as Node;
        for (let j = start; j < i; j++) {
          sub[j] = this.removeLeadingRegexp(sub[j] as Node, j !== start);
          this.checkLimits(sub[j] as Node);
        }
        const suffix = this.collapse(sub.slice(start, i), SOp.Alternate);
        const re = this.newRegexp(SOp.Concat);
        re.sub = [prefix, suffix];
        out.push(re);
      }
      start = i;
      first = ifirst;
    }
    sub = out;

    // Round 3: runs of single characters or classes become one class.
    start = 0;
    out = [];
    for (let i = 0; i <= sub.length; i++) {
      if (i < sub.length && isCharClass(sub[i] as Node)) continue;
      if (i === start) {
        // nothing
      } else if (i === start + 1) {
        out.push(sub[start] as Node);
      } else {
        let max = start;
        for (let j = start + 1; j < i; j++) {
          const a = sub[max] as Node;
          const b = sub[j] as Node;
          if (a.op < b.op || (a.op === b.op && a.runes.length < b.runes.length)) max = j;
        }
        const tmp = sub[start] as Node;
        sub[start] = sub[max] as Node;
        sub[max] = tmp;
        for (let j = start + 1; j < i; j++) {
          mergeCharClass(sub[start] as Node, sub[j] as Node);
          this.reuse(sub[j] as Node);
        }
        cleanAlt(sub[start] as Node);
        out.push(sub[start] as Node);
      }
      if (i < sub.length) out.push(sub[i] as Node);
      start = i + 1;
    }
    sub = out;

    // Round 4: runs of empty matches become one.
    out = [];
    for (let i = 0; i < sub.length; i++) {
      if (
        i + 1 < sub.length &&
        (sub[i] as Node).op === SOp.EmptyMatch &&
        (sub[i + 1] as Node).op === SOp.EmptyMatch
      ) {
        continue;
      }
      out.push(sub[i] as Node);
    }
    return out;
  }

  leadingString(re: Node): [number[], number] {
    if (re.op === SOp.Concat && re.sub.length > 0) re = re.sub[0] as Node;
    if (re.op !== SOp.Literal) return [[], 0];
    return [re.runes, re.flags & Flag.FoldCase];
  }

  removeLeadingString(re: Node, n: number): Node {
    if (re.op === SOp.Concat && re.sub.length > 0) {
      const sub = this.removeLeadingString(re.sub[0] as Node, n);
      re.sub[0] = sub;
      if (sub.op === SOp.EmptyMatch) {
        this.reuse(sub);
        switch (re.sub.length) {
          case 0:
          case 1:
            re.op = SOp.EmptyMatch;
            re.sub = [];
            break;
          case 2: {
            const old = re;
            re = re.sub[1] as Node;
            this.reuse(old);
            break;
          }
          default:
            re.sub.shift();
        }
      }
      return re;
    }
    if (re.op === SOp.Literal) {
      re.runes = re.runes.slice(n);
      if (re.runes.length === 0) re.op = SOp.EmptyMatch;
    }
    return re;
  }

  leadingRegexp(re: Node): Node | null {
    if (re.op === SOp.EmptyMatch) return null;
    if (re.op === SOp.Concat && re.sub.length > 0) {
      const sub = re.sub[0] as Node;
      if (sub.op === SOp.EmptyMatch) return null;
      return sub;
    }
    return re;
  }

  removeLeadingRegexp(re: Node, reuse: boolean): Node {
    if (re.op === SOp.Concat && re.sub.length > 0) {
      if (reuse) this.reuse(re.sub[0] as Node);
      re.sub.shift();
      switch (re.sub.length) {
        case 0:
          re.op = SOp.EmptyMatch;
          re.sub = [];
          break;
        case 1: {
          const old = re;
          re = re.sub[0] as Node;
          this.reuse(old);
          break;
        }
      }
      return re;
    }
    if (reuse) this.reuse(re);
    return this.newRegexp(SOp.EmptyMatch);
  }
}
