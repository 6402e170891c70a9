/**
 * Resolves to whether `work` settles before a timer armed now for `ms` has
 * fired and the event loop has run one more round of timers and turned
 * once more (room for a deadline that, when it fires, hands over to one
 * more timer, as a budget that gives a late reply one turn does).
 *
 * This stands in for a wall-clock bound ("answered within 1.2 s") in tests
 * of deadlines. Node runs timers in the order they fall due, so when a busy
 * machine pauses the process past both, the deadline's own timer (due
 * earlier) still runs first and the work it cuts short settles before this
 * one is looked at: only work that truly outlives its deadline by about
 * `ms` minus the deadline answers false.
 *
 * A test asserts `expect(await settlesBefore(call, budgetMs + slackMs)).toBe(true)`.
 */
export function settlesBefore(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => setTimeout(() => setImmediate(() => resolve(false)), 0), ms);
    const settle = () => {
      clearTimeout(timer);
      resolve(true);
    };
    work.then(settle, settle);
  });
}
