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
  Timers,
} from "@kubeimg/core/ports";

import type { PlatformInput } from "@kubeimg/core/platform";
import type {
  Availability,
  AvailabilityChecker,
  Clock,
  SecretRef,
  Timers,
} from "@kubeimg/core/ports";
import type { NamedReference } from "@kubeimg/core/reference";

/**
 * Time as routing needs it: a millisecond clock (only differences are read,
 * so `performance.now` serves as well as `Date.now`) and one-shot timers
 * whose handles are of type `Handle`.
 */
export interface RoutingTimers<Handle> extends Clock, Timers<Handle> {}

/**
 * A checker that can also tell, at once and without a probe, what it already
 * knows (the availability gate: a cached verdict, an open circuit).
 * `resolveFirstAvailable` asks it first and starts checks (and creates their
 * abort signals) only for the alternatives it cannot decide from memory.
 */
export interface PeekingAvailabilityChecker extends AvailabilityChecker {
  /** The answer known now, or undefined when only a check can tell. */
  peek(
    image: NamedReference,
    credentialSecret: SecretRef | undefined,
    options?: { readonly platforms?: readonly PlatformInput[] | undefined },
  ): Availability | undefined;
}
