export {
  CONTAINERD_CERTS_DIR,
  type ContainerdEndpoint,
  type ContainerdHostsOptions,
  type ContainerdHostsResolver,
  type ContainerdHostsResult,
  CRI_DEFAULT_CONFIG_PATH,
  createContainerdHostsResolver,
  type HostCapability,
  hostDirectoryName,
  hostPaths,
  resolveContainerdHosts,
} from "./containerd-hosts.js";
export type { ContainersImageReference } from "./containers-image-reference.js";
export { type EmitLimitation, type EmittedNodeMirrors, emitNodeMirrors } from "./emit.js";
export {
  isNodeMirrorsError,
  type NodeFileLocation,
  NodeMirrorsError,
  type NodeMirrorsErrorCode,
  type NodeMirrorsWarning,
} from "./errors.js";
export {
  type DirEntry,
  type NodeFileMap,
  NodeFiles,
  type NodePathProblem,
  type StatResult,
} from "./node-files.js";
export {
  type EndpointCredentials,
  type NodeRuntimeConfig,
  type PlannedAlternative,
  type PlannedEndpoint,
  type PlanPullInput,
  type PullPlan,
  planPull,
} from "./plan-pull.js";
export {
  type ContainersImageRelease,
  containersImageReleases,
  findRegistry,
  loadRegistriesConf,
  normalizeImage,
  type PullFromMirror,
  type PullSource,
  type PullSourcesResult,
  pullSources,
  REGISTRIES_CONF_DIR,
  REGISTRIES_CONF_PATH,
  type RegistriesConf,
  type RegistriesConfInput,
  type RegistryEndpoint,
  type RegistryEntry,
  refMatchingPrefix,
  rewriteReference,
  type ShortNameAlias,
  type ShortNameMode,
} from "./registries-conf.js";
export {
  loadNodeRegistriesConf,
  type NodeRegistriesConfOptions,
  type RegistriesConfSearchOptions,
} from "./registries-discovery.js";
export {
  type ConfSource,
  resolveShortName,
  resolveShortNameLocally,
  type ShortNameOptions,
  type ShortNameResolution,
} from "./short-names.js";
