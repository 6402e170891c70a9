/** containers/image's and containerd's steps, for the conformance runner and the benchmarks. */
export { CONTAINERD_CERTS_DIR } from "../node-mirrors/containerd-hosts.js";
export { refMatchingPrefix, rewriteReference } from "../node-mirrors/registries-lookup.js";
