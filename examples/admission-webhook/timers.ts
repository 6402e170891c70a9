/** The real clock and timers, for `@kubeimg/policy/routing`'s `RoutingTimers`. */
import type { RoutingTimers } from "@kubeimg/policy/availability";

/** What Node's `setTimeout` returns. */
export type NodeTimerHandle = ReturnType<typeof setTimeout>;

/** `performance.now()` and Node's timers. */
export const nodeTimers: RoutingTimers<NodeTimerHandle> = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle),
};
