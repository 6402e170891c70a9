/**
 * Async striped mutexes (the kubelet's `StripedLockSet`): a key maps to one of
 * N locks by the FNV-1 32-bit hash of its UTF-8 bytes modulo N. Holders run
 * one at a time per stripe, waiters in arrival order. An uncontended acquire
 * completes without a promise, which keeps warm-cache decisions fast.
 */

/** The most stripes kept (the kubelet keeps at most 31 mutexes; we clamp the modulus too). */
export const maxLockStripes = 31;

interface Stripe {
  busy: boolean;
  readonly waiters: Array<() => void>;
}

/** FNV-1 (multiply, then xor) over the UTF-8 bytes of `key`. */
export function fnv1Hash32(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x80) return fnv1Bytes(hash, new TextEncoder().encode(key.slice(i)));
    hash = Math.imul(hash, 0x01000193) ^ c;
  }
  return hash >>> 0;
}

function fnv1Bytes(start: number, bytes: Uint8Array): number {
  let hash = start;
  for (const b of bytes) hash = Math.imul(hash, 0x01000193) ^ b;
  return hash >>> 0;
}

/**
 * A set of async mutexes addressed by string keys.
 */
export class StripedLocks {
  readonly #stripes: Stripe[];
  /** Stripe index per recently seen key (V8 caches a string's hash, FNV must walk it). */
  readonly #index = new Map<string, number>();

  constructor(stripes: number) {
    const n = Math.min(Math.max(Math.trunc(stripes) || 1, 1), maxLockStripes);
    this.#stripes = Array.from({ length: n }, () => ({ busy: false, waiters: [] }));
  }

  /** The number of stripes in use (1–31). */
  get size(): number {
    return this.#stripes.length;
  }

  #stripe(key: string): Stripe {
    let i = this.#index.get(key);
    if (i === undefined) {
      i = fnv1Hash32(key) % this.#stripes.length;
      if (this.#index.size >= 4096) this.#index.clear();
      this.#index.set(key, i);
    }
    return this.#stripes[i] as Stripe;
  }

  /**
   * True when nobody holds the stripe of `key`. JavaScript runs one piece of
   * code at a time, so a caller that finds its stripes free and does not
   * yield before it is done needs no lock at all.
   */
  isFree(key: string): boolean {
    return !this.#stripe(key).busy;
  }

  /** Takes the stripe; returns a promise only when it must wait. */
  #acquire(stripe: Stripe): Promise<void> | undefined {
    if (!stripe.busy) {
      stripe.busy = true;
      return undefined;
    }
    return new Promise<void>((resolve) => stripe.waiters.push(resolve));
  }

  #release(stripe: Stripe): void {
    const next = stripe.waiters.shift();
    if (next) next();
    else stripe.busy = false;
  }

  /** Runs `fn` holding the stripe of `key`. */
  async run<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    const stripe = this.#stripe(key);
    const wait = this.#acquire(stripe);
    if (wait) await wait;
    try {
      return await fn();
    } finally {
      this.#release(stripe);
    }
  }

  /** Runs `fn` holding every stripe (taken in index order). */
  async runAll<T>(fn: () => T | Promise<T>): Promise<T> {
    for (const stripe of this.#stripes) {
      const wait = this.#acquire(stripe);
      if (wait) await wait;
    }
    try {
      return await fn();
    } finally {
      for (const stripe of this.#stripes) this.#release(stripe);
    }
  }
}
