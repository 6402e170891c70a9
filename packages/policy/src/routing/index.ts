export type { UnknownFieldPolicy } from "../objects/unknown-fields.js";
export {
  type CompiledRouting,
  type CompileRoutingOptions,
  compileRouting,
  createRoutingCompileCache,
  type RoutingCompileCache,
} from "./compile.js";
export type { RoutingResourceRef } from "./compile-resource.js";
export {
  activeCheckTimeoutMs,
  type KuikConfig,
  type KuikConfigOptions,
  parseKuikConfig,
} from "./config-schema.js";
export { RoutingError } from "./errors.js";
export {
  type ParseRoutingResourceOptions,
  parseRoutingResource,
  type RoutingWarning,
} from "./load.js";
export {
  type PlanPodRoutingAsyncOptions,
  type PlanPodRoutingOptions,
  type PodRoutingPlan,
  planPodRouting,
  planPodRoutingAsync,
} from "./plan-pod.js";
export {
  type BuildPodPatchOptions,
  buildPodPatch,
  type PodPatch,
  type PullSecretToEnsure,
} from "./pod-patch.js";
export { parseRoutingPod, type RoutingPod } from "./pod-schema.js";
export {
  type PodResolution,
  type ResolvePodRoutingOptions,
  resolvePodRouting,
} from "./resolve-pod.js";
export type {
  ClusterImageSetMirror,
  ClusterReplicatedImageSet,
  ImageSetMirror,
  ReplicatedImageSet,
  RoutingResource,
} from "./resource-schema.js";
export { routeContainer } from "./route-container.js";
export { finalContainerImage } from "./route-outcome.js";
export type {
  AlternativeReason,
  ContainerRoute,
  RouteContainerInput,
  RoutedAlternative,
} from "./route-types.js";
