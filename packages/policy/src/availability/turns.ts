/**
 * Sharing the event loop: how long routing work may run before it hands the
 * loop back. A webhook's deadlines are timers, and a timer fires only
 * between two tasks of the loop; answers from a cache settle in microtasks,
 * which never end a task. When a thousand admissions wake at once (a dead
 * mirror's probes time out, its circuit opens), each continuing on its own
 * for a few containers would hold the loop for hundreds of milliseconds
 * together. So routing work asks one budget per event loop — per
 * `RoutingTimers` object, the loop's clock and timers — whether the current
 * turn is spent, and when it is, waits in one line that a zero-delay timer
 * serves a few at a time, every other task of the loop (deadline timers,
 * arriving requests) getting its turn in between.
 *
 * A turn is the work since the line was last served, or since routing work
 * last asked more than {@link TURN_GAP_MS} ago (something else ran in
 * between). On a fake clock that does not move during synchronous work no
 * turn is ever spent, and no timer is set unless work waits in the line.
 */
import type { RoutingTimers } from "./checker.js";

/** Milliseconds of routing work per turn of the event loop. */
export const TURN_SLICE_MS = 5;
/** A pause between two questions longer than this starts a new turn. */
export const TURN_GAP_MS = 1;
/** Waiters served per turn at most (each then works until the turn is spent). */
export const TURN_SERVED = 32;

/** The budget of one event loop. */
export interface TurnBudget {
  /** True when this turn has run routing work for longer than its slice. */
  spent(): boolean;
  /** Resolves in a later turn, after the waiters already in line. */
  pause(): Promise<void>;
  /**
   * Runs `work` now when nobody waits and the turn is not spent, else in
   * line, in a later turn.
   */
  defer(work: () => void): void;
}

const budgets = new WeakMap<object, TurnBudget>();

/** Returns the turn budget shared by every caller with these `timers`. */
export function turnBudget<Handle>(timers: RoutingTimers<Handle>): TurnBudget {
  let budget = budgets.get(timers);
  if (!budget) {
    budget = createTurnBudget(timers);
    budgets.set(timers, budget);
  }
  return budget;
}

function createTurnBudget<Handle>(timers: RoutingTimers<Handle>): TurnBudget {
  let turnStart = Number.NEGATIVE_INFINITY;
  let lastAsked = Number.NEGATIVE_INFINITY;
  const line: (() => void)[] = [];
  let head = 0;
  let scheduled = false;

  const spent = (): boolean => {
    const now = timers.now();
    if (now - lastAsked > TURN_GAP_MS) turnStart = now;
    lastAsked = now;
    return now - turnStart > TURN_SLICE_MS;
  };

  const serve = (): void => {
    scheduled = false;
    const now = timers.now();
    turnStart = now;
    lastAsked = now;
    for (let served = 0; head < line.length && served < TURN_SERVED; served++) {
      const work = line[head] as () => void;
      line[head++] = noop;
      work();
      // Served work belongs to this turn however long it ran.
      lastAsked = timers.now();
      if (lastAsked - turnStart > TURN_SLICE_MS) break;
    }
    if (head === line.length) {
      line.length = 0;
      head = 0;
    } else schedule();
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    timers.setTimeout(serve, 0);
  };
  const enqueue = (work: () => void): void => {
    line.push(work);
    schedule();
  };

  return {
    spent,
    pause: () => new Promise<void>(enqueue),
    defer(work) {
      if (head === line.length && !spent()) work();
      else enqueue(work);
    },
  };
}

function noop(): void {}
