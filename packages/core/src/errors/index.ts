export { isKubeimgError, KubeimgError } from "./kubeimg-error.js";
