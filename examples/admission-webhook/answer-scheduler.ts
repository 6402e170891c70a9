/**
 * When each admission must be answered, so that a burst of reviews is
 * answered before its deadlines rather than all at once after them.
 *
 * A timer per review, firing at its deadline, is not enough on one busy
 * thread: a burst of TLS handshakes, a garbage collection or a starved CPU
 * can delay it by hundreds of milliseconds, and of a few hundred answers due
 * together and written in a row, the last is late even when the first is
 * on time.
 *
 * So the admissions waiting for their answer are kept here in deadline
 * order, and one timer ticks while any wait. Each tick answers at once (by
 * the callback it was given) every admission whose deadline is nearer than
 *
 *     base reserve + the event loop's recent lateness
 *       + one tick + the cost of writing its answer and every answer due before it
 *
 * and every admission due before it. The lateness is the ticks' own,
 * remembered with a half-life: the reserve grows while the process is
 * stalled or starved of CPU, and shrinks again when it is not.
 */
import type { RoutingTimers } from "@kubeimg/policy/availability";

/** Options of {@link AnswerScheduler}. */
export interface AnswerSchedulerOptions<Handle> {
  readonly timers: RoutingTimers<Handle>;
  /** Milliseconds between ticks while any admission waits (default 10). */
  readonly tickMs?: number;
  /**
   * Milliseconds kept before every deadline whatever the load (default 100):
   * room for a stall the recent lateness has not announced (on a busy
   * two-core machine one event-loop turn in a hundred came 140 ms late).
   */
  readonly baseReserveMs?: number;
  /**
   * The cost of writing one answer, in ms (default 0.5), until the scheduler
   * has timed the batches it answers itself; then the larger of the two.
   */
  readonly answerCostMs?: () => number;
  /** How fast a lateness seen once is forgotten: its half-life in ms (default 500). */
  readonly lagHalfLifeMs?: number;
}

/** One admission's place in the line; `cancel` when its decision answered it. */
export interface ScheduledAnswer {
  cancel(): void;
}

interface Entry extends ScheduledAnswer {
  readonly deadlineAt: number;
  readonly answerNow: () => void;
  live: boolean;
}

/** Batches at least this large are timed to learn what an answer costs. */
const MEASURED_BATCH = 16;

const positive = (name: string, value: number): number => {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`AnswerScheduler: ${name} must be a positive number of ms, not ${value}`);
  }
  return value;
};

/** See the module comment. */
export class AnswerScheduler<Handle> {
  readonly #timers: RoutingTimers<Handle>;
  readonly #tickMs: number;
  readonly #baseReserveMs: number;
  readonly #answerCostMs: () => number;
  readonly #halfLifeMs: number;
  /** Live entries in deadline order, and cancelled ones not yet swept. */
  #entries: Entry[] = [];
  #live = 0;
  #timer: Handle | undefined;
  #plannedAt = 0;
  #lagMs = 0;
  #lagAt = 0;
  /** Measured cost of one answer the scheduler gave (its whole way to the socket), in ms. */
  #measuredCostMs = 0;

  constructor(options: AnswerSchedulerOptions<Handle>) {
    this.#timers = options.timers;
    this.#tickMs = positive("tickMs", options.tickMs ?? 10);
    this.#baseReserveMs = positive("baseReserveMs", options.baseReserveMs ?? 100);
    this.#answerCostMs = options.answerCostMs ?? (() => 0.5);
    this.#halfLifeMs = positive("lagHalfLifeMs", options.lagHalfLifeMs ?? 500);
  }

  /** Admissions waiting for their answer. */
  get pending(): number {
    return this.#live;
  }

  /** The event loop's recent lateness in ms, as the ticks saw it (decayed to now). */
  get lagMs(): number {
    return this.#decayedLag(this.#timers.now());
  }

  /**
   * Puts an admission due at `deadlineAt` (on the timers' clock) in line;
   * `answerNow` is called at most once, when it can wait no longer. It must
   * not throw (the mutator's only settles a promise).
   */
  add(deadlineAt: number, answerNow: () => void): ScheduledAnswer {
    const entry: Entry = {
      deadlineAt,
      answerNow,
      live: true,
      cancel: () => {
        if (!entry.live) return;
        entry.live = false;
        this.#live--;
      },
    };
    // Reviews arrive in deadline order, almost always: insert from the end.
    const entries = this.#entries;
    let i = entries.length;
    while (i > 0 && (entries[i - 1] as Entry).deadlineAt > deadlineAt) i--;
    if (i === entries.length) entries.push(entry);
    else entries.splice(i, 0, entry);
    this.#live++;
    if (this.#timer === undefined) this.#arm();
    return entry;
  }

  /**
   * An answer's cost is mostly paid after `answerNow` returns: the promise
   * reactions that carry it to the server, and the socket writes Node defers
   * to the next tick. All of them run before the next timer, so the time to
   * it, per answer of the batch, bounds what one answer costs; the larger of
   * that (a moving average) and the caller's figure is the one reserved.
   */
  #measure(from: number, answers: number): void {
    this.#timers.setTimeout(() => {
      const per = (this.#timers.now() - from) / answers;
      this.#measuredCostMs =
        this.#measuredCostMs === 0 ? per : this.#measuredCostMs + (per - this.#measuredCostMs) / 4;
    }, 0);
  }

  #decayedLag(now: number): number {
    return this.#lagMs * 2 ** (-(now - this.#lagAt) / this.#halfLifeMs);
  }

  #arm(): void {
    this.#plannedAt = this.#timers.now() + this.#tickMs;
    this.#timer = this.#timers.setTimeout(() => this.#tick(), this.#tickMs);
  }

  #tick(): void {
    this.#timer = undefined;
    const now = this.#timers.now();
    const lag = Math.max(now - this.#plannedAt, this.#decayedLag(now));
    this.#lagMs = lag;
    this.#lagAt = now;
    const live = this.#entries.filter((e) => e.live);
    const reserve = this.#baseReserveMs + lag + this.#tickMs;
    const cost = Math.max(this.#answerCostMs(), this.#measuredCostMs);
    // The last entry that cannot wait; every one before it is answered too.
    let due = -1;
    for (let k = 0; k < live.length; k++) {
      if ((live[k] as Entry).deadlineAt - now <= reserve + cost * (k + 1)) due = k;
    }
    for (let k = 0; k <= due; k++) {
      const entry = live[k] as Entry;
      entry.cancel();
      entry.answerNow();
    }
    if (due >= MEASURED_BATCH - 1) this.#measure(now, due + 1);
    this.#entries = due < 0 ? live : live.slice(due + 1);
    if (this.#live > 0) this.#arm();
  }
}
