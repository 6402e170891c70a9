/**
 * The size and nesting limits of Go's parser, checked as the tree grows.
 * Go counts the nodes it allocates (reusing freed ones first) and only
 * measures sizes and heights once that count could exceed a limit, so the
 * same patterns are rejected, with the same reason, as in Go.
 */
import { Flag, type Node, newNode, SOp } from "./syntax-tree.js";

const maxHeight = 1000;
const maxSize = Math.floor((128 << 20) / 40);
const maxRunes = (128 << 20) / 4;

/**
 * Go 1.19 reports a pattern over the size limits as `regexp/syntax: internal
 * error`; Go 1.20 and later (and Flux, and the vectors) name it `expression
 * too large`. The limits are the same.
 */
const errInternal = "expression too large";
const errNesting = "expression nests too deeply";

/** Thrown inside the parser for the two limits Go reports against the whole pattern. */
export class Limit {
  constructor(readonly code: string) {}
}

/** The parser's node allocation and limit checks; the parser builds on it. */
export class ParseState {
  flags = Flag.Perl as number;
  stack: Node[] = [];
  numCap = 0;
  wholeRegexp: string;
  /** Go counts allocated nodes, reusing freed ones first; the limits start from that count. */
  numRegexp = 0;
  free = 0;
  numRunes = 0;
  repeats = 0;
  height: Map<Node, number> | undefined;
  size: Map<Node, number> | undefined;

  constructor(s: string) {
    this.wholeRegexp = s;
  }

  newRegexp(op: SOp): Node {
    if (this.free > 0) this.free--;
    else this.numRegexp++;
    return newNode(op);
  }

  reuse(re: Node): void {
    this.height?.delete(re);
    this.free++;
  }

  checkLimits(re: Node): void {
    if (this.numRunes > maxRunes) throw new Limit(errInternal);
    this.checkSize(re);
    this.checkHeight(re);
  }

  checkSize(re: Node): void {
    if (this.size === undefined) {
      if (this.repeats === 0) this.repeats = 1;
      if (re.op === SOp.Repeat) {
        let n = re.max;
        if (n === -1) n = re.min;
        if (n <= 0) n = 1;
        if (n > Math.trunc(maxSize / this.repeats)) this.repeats = maxSize;
        else this.repeats *= n;
      }
      if (this.numRegexp < Math.trunc(maxSize / this.repeats)) return;
      this.size = new Map();
      for (const r of this.stack) this.checkSize(r);
    }
    if (this.calcSize(re, true) > maxSize) throw new Limit(errInternal);
  }

  calcSize(re: Node, force: boolean): number {
    const sizes = this.size as Map<Node, number>;
    if (!force) {
      const known = sizes.get(re);
      if (known !== undefined) return known;
    }
    let size = 0;
    switch (re.op) {
      case SOp.Literal:
        size = re.runes.length;
        break;
      case SOp.Capture:
      case SOp.Star:
        size = 2 + this.calcSize(re.sub[0] as Node, false);
        break;
      case SOp.Plus:
      case SOp.Quest:
        size = 1 + this.calcSize(re.sub[0] as Node, false);
        break;
      case SOp.Concat:
        for (const sub of re.sub) size += this.calcSize(sub, false);
        break;
      case SOp.Alternate:
        for (const sub of re.sub) size += this.calcSize(sub, false);
        if (re.sub.length > 1) size += re.sub.length - 1;
        break;
      case SOp.Repeat: {
        const sub = this.calcSize(re.sub[0] as Node, false);
        if (re.max === -1) {
          size = re.min === 0 ? 2 + sub : 1 + re.min * sub;
          break;
        }
        size = re.max * sub + (re.max - re.min);
        break;
      }
    }
    if (size < 1) size = 1;
    sizes.set(re, size);
    return size;
  }

  checkHeight(re: Node): void {
    if (this.numRegexp < maxHeight) return;
    if (this.height === undefined) {
      this.height = new Map();
      for (const r of this.stack) this.checkHeight(r);
    }
    if (this.calcHeight(re, true) > maxHeight) throw new Limit(errNesting);
  }

  calcHeight(re: Node, force: boolean): number {
    const heights = this.height as Map<Node, number>;
    if (!force) {
      const known = heights.get(re);
      if (known !== undefined) return known;
    }
    let h = 1;
    for (const sub of re.sub) {
      const hs = this.calcHeight(sub, false);
      if (h < 1 + hs) h = 1 + hs;
    }
    heights.set(re, h);
    return h;
  }
}
