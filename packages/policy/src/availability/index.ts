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
  type ProbeTarget,
  type ResolveFirstAvailableOptions,
  resolveFirstAvailable,
} from "./first-available.js";
export {
  type AvailabilityGate,
  type AvailabilityGateOptions,
  type AvailabilityGateStats,
  type CircuitState,
  createAvailabilityGate,
} from "./gate.js";
export {
  type AvailabilityState,
  type BreakerPolicy,
  createMemoryAvailabilityState,
  type MemoryAvailabilityState,
  type MemoryAvailabilityStateOptions,
  type MemoryAvailabilityStateSizes,
  type ProbePeek,
  type VerdictKey,
} from "./state.js";
