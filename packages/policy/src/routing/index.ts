export type { UnknownField, UnknownFieldPolicy } from "../objects/unknown-fields.js";
export {
  type CompiledRouting,
  type CompileRoutingOptions,
  compileRouting,
  createRoutingCompileCache,
  type RoutingCompileCache,
} from "./compile.js";
export {
  type CompiledMirrorSet,
  type CompiledReplicatedSet,
  type CompiledResource,
  type CompiledUpstream,
  compileRoutingResource,
  type RoutingPodMeta,
  type RoutingResourceRef,
} from "./compile-resource.js";
export {
  activeCheckTimeoutMs,
  type KuikConfig,
  type KuikConfigInput,
  type KuikConfigOptions,
  kuikConfigSchema,
  parseKuikConfig,
} from "./config-schema.js";
export { type CrdViolation, crdViolations } from "./crd-validation.js";
export { isRoutingError, RoutingError, type RoutingErrorCode } from "./errors.js";
export {
  compileIncludeExcludeFilter,
  type IncludeExcludeFilter,
} from "./include-exclude.js";
export {
  type LabelRequirement,
  type LabelSelector,
  type LabelSelectorOperator,
  parseLabelSelector,
} from "./label-selector.js";
export {
  type ParseRoutingResourceOptions,
  parseRoutingResource,
  type RoutingWarning,
  safeParseRoutingResource,
} from "./load.js";
export {
  MIRROR_POD_ANNOTATION,
  ORIGINAL_IMAGES_ANNOTATION,
  originalImagesKey,
  readOriginalImages,
} from "./original-images.js";
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
  type JsonPatchOperation,
  kuikSecretCopyName,
  type PodPatch,
  type PullSecretToEnsure,
} from "./pod-patch.js";
export { parseRoutingPod, type RoutingPod } from "./pod-schema.js";
export {
  type PodResolution,
  type ResolvePodRoutingOptions,
  resolvePodRouting,
} from "./resolve-pod.js";
export {
  type ClusterImageSetMirror,
  type ClusterReplicatedImageSet,
  type ImageFilterDefinition,
  type ImageSetMirror,
  KUIK_API_VERSION,
  type KuikClusterFilter,
  type KuikCredentialSecret,
  type KuikFilter,
  type KuikMirror,
  type ReplicatedImageSet,
  type ReplicatedUpstream,
  ROUTING_KINDS,
  type RoutingKind,
  type RoutingResource,
  routingResourceSchema,
} from "./resource-schema.js";
export { routeContainer } from "./route-container.js";
export { finalContainerImage, safeRouteContainer } from "./route-outcome.js";
export type {
  AlternativeReason,
  ContainerRoute,
  RouteContainerInput,
  RoutedAlternative,
  RoutedContainerRoute,
  RoutingContainer,
  RoutingContainerInput,
  RoutingPodMetaInput,
  RoutingSkipReason,
  SkippedContainerRoute,
} from "./route-types.js";
export type { AlternativeSortKey } from "./sort-key.js";
