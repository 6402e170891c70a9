export {
  type ContainerdEndpoint,
  type ContainerdHostsOptions,
  type ContainerdHostsResolver,
  type ContainerdHostsResult,
  createContainerdHostsResolver,
  type HostCapability,
  resolveContainerdHosts,
} from "./containerd-hosts.js";
export { type EmitLimitation, type EmittedNodeMirrors, emitNodeMirrors } from "./emit.js";
export {
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
  type PullSource,
  type PullSourcesResult,
  pullSources,
  type RegistriesConf,
  type RegistriesConfInput,
  type RegistryEndpoint,
  type RegistryEntry,
  type ShortNameAlias,
  type ShortNameMode,
} from "./registries-conf.js";
export {
  type ConfSource,
  resolveShortName,
  resolveShortNameLocally,
  type ShortNameOptions,
  type ShortNameResolution,
} from "./short-names.js";
