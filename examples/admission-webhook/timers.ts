/** The real clock and timers, for `@kubeimg/policy/routing`'s `RoutingTimers`. */
import type { RoutingTimers } from "@kubeimg/policy/routing";

/** `performance.now()` and Node's timers. */
export const nodeTimers: RoutingTimers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
