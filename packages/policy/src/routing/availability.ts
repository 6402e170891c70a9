/**
 * The small interfaces routing needs from the outside world, declared once in
 * `@kubeimg/core/ports` and re-exported here. `@kubeimg/policy` never does
 * I/O: the registry package implements `AvailabilityChecker` (a HEAD on the
 * manifest), and callers pass {@link RoutingTimers} (real timers in
 * production, a fake clock in tests).
 */

export type {
  Availability,
  AvailabilityChecker,
  AvailabilityCheckOptions,
  Clock,
  SecretRef,
  SecretRef as CredentialSecretRef,
  Timers,
} from "@kubeimg/core/ports";

import type { Clock, Timers } from "@kubeimg/core/ports";

/**
 * Time as routing needs it: a millisecond clock (only differences are read,
 * so `performance.now` serves as well as `Date.now`) and one-shot timers
 * whose handles are of type `Handle`.
 */
export interface RoutingTimers<Handle> extends Clock, Timers<Handle> {}
