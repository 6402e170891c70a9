export { errorGuard, isKubeimgError, KubeimgError } from "./kubeimg-error.js";
export {
  chooseRelease,
  isUpstreamReleaseError,
  UpstreamReleaseError,
} from "./upstream-release.js";
