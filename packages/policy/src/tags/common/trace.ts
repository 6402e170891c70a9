/**
 * The per-tag explain trace, built only when asked for: a selection without
 * it allocates nothing per tag beyond what the pick itself needs, and the
 * reason sentences (the expensive part) are written only for a trace.
 */
import type { DialectTagExplanation, DialectVerdict } from "./types.js";

/** Collects verdicts by tag index when on; does nothing when off. */
export class Trace {
  readonly on: boolean;
  readonly #names: readonly string[];
  readonly #out: (DialectTagExplanation | undefined)[];

  constructor(on: boolean, names: readonly string[]) {
    this.on = on;
    this.#names = names;
    this.#out = on ? new Array(names.length) : [];
  }

  /** Records tag `i`'s verdict; `reason` is called only when the trace is on. */
  mark(i: number, verdict: DialectVerdict, reason: () => string): void {
    if (this.on) this.#out[i] = { tag: this.#names[i] as string, verdict, reason: reason() };
  }

  /** True when tag `i` has a verdict already. */
  has(i: number): boolean {
    return this.#out[i] !== undefined;
  }

  /** Every tag's verdict, `fallback` for those without one; empty when off. */
  finish(
    fallback: (tag: string) => { verdict: DialectVerdict; reason: string },
  ): DialectTagExplanation[] {
    if (!this.on) return [];
    return this.#names.map((tag, i) => this.#out[i] ?? { tag, ...fallback(tag) });
  }
}
