export {
  type ContainerdHostsOptions,
  type ContainerdHostsResolver,
  type ContainerdHostsResult,
  containerdReleases,
  createContainerdHostsResolver,
  resolveContainerdHosts,
} from "./containerd-hosts.js";
export { type EmittedNodeMirrors, emitNodeMirrors } from "./emit.js";
export { NodeMirrorsError, type NodeMirrorsWarning } from "./errors.js";
export { type NodeFileMap, NodeFiles } from "./node-files.js";
export {
  type PlanPullInput,
  type PullPlan,
  planPull,
} from "./plan-pull.js";
export {
  type ContainersImageRelease,
  containersImageReleases,
  findRegistry,
  loadRegistriesConf,
  type PullSourcesResult,
  pullSources,
  type RegistriesConf,
  type RegistriesConfInput,
  type RegistryEntry,
} from "./registries-conf.js";
export {
  loadNodeRegistriesConf,
  type NodeRegistriesConfOptions,
} from "./registries-discovery.js";
export {
  resolveShortName,
  resolveShortNameLocally,
  type ShortNameOptions,
  type ShortNameResolution,
} from "./short-names.js";
