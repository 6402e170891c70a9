export type {
  Availability,
  AvailabilityChecker,
  AvailabilityCheckOptions,
  PeekingAvailabilityChecker,
  RoutingTimers,
  SecretRef,
} from "./checker.js";
export {
  type FirstAvailableResult,
  type ProbeOutcome,
  type ResolveFirstAvailableOptions,
  resolveFirstAvailable,
} from "./first-available.js";
export {
  type AvailabilityGate,
  type AvailabilityGateOptions,
  type CircuitState,
  createAvailabilityGate,
} from "./gate.js";
export {
  type AvailabilityState,
  type BreakerPolicy,
  createMemoryAvailabilityState,
  type MemoryAvailabilityState,
  type MemoryAvailabilityStateOptions,
  type ProbePeek,
  type VerdictKey,
} from "./state.js";
