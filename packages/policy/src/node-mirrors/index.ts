export {
  CONTAINERD_CERTS_DIR,
  type ContainerdEndpoint,
  type ContainerdHostsOptions,
  type ContainerdHostsResult,
  CRI_DEFAULT_CONFIG_PATH,
  type HostCapability,
  hostDirectoryName,
  hostPaths,
  resolveContainerdHosts,
} from "./containerd-hosts.js";
export {
  isNodeMirrorsError,
  type NodeFileLocation,
  NodeMirrorsError,
  type NodeMirrorsErrorCode,
  type NodeMirrorsWarning,
} from "./errors.js";
export { type DirEntry, type NodeFileMap, NodeFiles, type StatResult } from "./node-files.js";
