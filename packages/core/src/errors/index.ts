export { errorGuard, isKubeimgError, KubeimgError } from "./kubeimg-error.js";
