/** Flux's Ready message, which the `kubeimg tags` command prints. */
export { composeReadyMessage } from "../tags/flux/status.js";
