/**
 * A deterministic clock and timers for the resolution tests: time moves only
 * when a test calls `advance`, and due callbacks run in time order.
 */
import type { RoutingTimers } from "@kubeimg/policy/availability";

interface Scheduled {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

/** Fake {@link RoutingTimers}: `advance(ms)` runs what falls due, letting promises settle in between. */
export class FakeTimers implements RoutingTimers<number> {
  private current = 0;
  private nextId = 1;
  private queue: Scheduled[] = [];

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): number {
    const id = this.nextId++;
    this.queue.push({ id, at: this.current + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: number): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }

  /** Number of timers still pending. */
  get pending(): number {
    return this.queue.length;
  }

  /** Moves time forward by `ms`, running every callback that falls due, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await flushMicrotasks();
      this.queue.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.queue[0];
      if (!next || next.at > target) break;
      this.queue.shift();
      this.current = next.at;
      next.callback();
    }
    this.current = target;
    await flushMicrotasks();
  }
}

/** Lets every queued promise reaction run. */
export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** A promise with its resolver, for probes a test finishes by hand. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
