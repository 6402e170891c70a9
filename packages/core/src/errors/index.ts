export {
  errorGuard,
  isKubeimgError,
  KubeimgError,
} from "./kubeimg-error.js";
export { chooseRelease, UpstreamReleaseError } from "./upstream-release.js";
