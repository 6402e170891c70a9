/**
 * The availability gate's probe slots: at most so many probes in flight over
 * all registries, at most so many to any one registry (a registry that hangs
 * holds only its own share), and a bounded line of probes waiting for a
 * slot. Waiters leave the line when their signal aborts.
 */

/** How a wait for a slot ended. */
export type SlotOutcome = "granted" | "full" | "aborted";

/** A counting semaphore with a FIFO of waiters that leave when their signal aborts. */
class Limiter {
  active = 0;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly max: number) {}

  get free(): boolean {
    return this.active < this.max;
  }

  get idle(): boolean {
    return this.active === 0 && this.waiters.size === 0;
  }

  tryTake(): boolean {
    if (this.active >= this.max) return false;
    this.active++;
    return true;
  }

  wait(signal: AbortSignal): Promise<"granted" | "aborted"> {
    if (signal.aborted) return Promise.resolve("aborted");
    return new Promise((resolve) => {
      const grant = (): void => {
        signal.removeEventListener("abort", onAbort);
        resolve("granted");
      };
      const onAbort = (): void => {
        this.waiters.delete(grant);
        resolve("aborted");
      };
      this.waiters.add(grant);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Hands the slot to the oldest waiter, or frees it. */
  release(): void {
    const next = this.waiters.values().next();
    if (next.done) {
      this.active--;
      return;
    }
    this.waiters.delete(next.value);
    next.value();
  }
}

/** Limits of {@link createProbeSlots}. */
export interface ProbeSlotLimits {
  readonly maxConcurrentProbes: number;
  readonly maxProbesPerRegistry: number;
  readonly maxQueuedProbes: number;
}

/** The slots of one gate. */
export interface ProbeSlots {
  /**
   * Takes a registry slot, then a global one: "granted" at once, "waited"
   * when either made the caller wait, "full" when the line was full, or
   * "aborted" by `signal` (then nothing is held).
   */
  acquire(registry: string, signal: AbortSignal): Promise<SlotOutcome | "waited">;
  /** Frees the slots a granted {@link ProbeSlots.acquire} took. */
  release(registry: string): void;
  /** Probes holding a slot now. */
  readonly active: number;
  /** Probes waiting for a slot now. */
  readonly queued: number;
}

/** Returns empty slots with these limits. Per-registry limiters exist only while used. */
export function createProbeSlots(limits: ProbeSlotLimits): ProbeSlots {
  const global = new Limiter(limits.maxConcurrentProbes);
  const perRegistry = new Map<string, Limiter>();
  let queued = 0;

  const waitFor = async (limiter: Limiter, signal: AbortSignal): Promise<SlotOutcome> => {
    if (limiter.tryTake()) return "granted";
    if (queued >= limits.maxQueuedProbes) return "full";
    queued++;
    try {
      return await limiter.wait(signal);
    } finally {
      queued--;
    }
  };

  const releaseRegistry = (registry: string, limiter: Limiter): void => {
    limiter.release();
    if (limiter.idle) perRegistry.delete(registry);
  };

  return {
    async acquire(registry, signal) {
      if (signal.aborted) return "aborted";
      let limiter = perRegistry.get(registry);
      if (!limiter) {
        limiter = new Limiter(limits.maxProbesPerRegistry);
        perRegistry.set(registry, limiter);
      }
      const immediate = limiter.free && global.free;
      const first = await waitFor(limiter, signal);
      if (first !== "granted") {
        if (limiter.idle) perRegistry.delete(registry);
        return first;
      }
      const second = await waitFor(global, signal);
      if (second !== "granted") {
        releaseRegistry(registry, limiter);
        return second;
      }
      return immediate ? "granted" : "waited";
    },
    release(registry) {
      global.release();
      const limiter = perRegistry.get(registry);
      if (limiter) releaseRegistry(registry, limiter);
    },
    get active() {
      return global.active;
    },
    get queued() {
      return queued;
    },
  };
}
