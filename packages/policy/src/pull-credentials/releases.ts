/**
 * The kubelet releases kubeimg reproduces, in a module of their own: the
 * `kubeimg` command lists them in its option help and checks `--upstream`
 * against them before it loads the pull-credential code.
 *
 * @module
 */

/**
 * The kubelet releases whose pull-credential verification kubeimg
 * reproduces (KEP-2535, beta and on by default since 1.35). They differ in
 * allowlist matching only: 1.35 compares the raw pod image; 1.36 and 1.37
 * normalize it first (kubernetes/kubernetes#137629, released in
 * v1.36.0-beta.0 and v1.36.0; not backported to 1.35).
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   type KubeletRelease,
 *   kubeletReleases,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const allowlist = ["docker.io/library/nginx"];
 * const needsVerification = (kubelet: KubeletRelease) =>
 *   createVerificationPolicy({ policy: "NeverVerifyAllowlistedImages", allowlist, kubelet })
 *     .requiresVerification("nginx:1.25", false);
 * console.log(kubeletReleases.map(needsVerification)); // [ true, false, false ]: 1.35, 1.36, 1.37
 * ```
 */
export type KubeletRelease = "1.35" | "1.36" | "1.37";

/** Every {@link KubeletRelease}, oldest first; the last is the default (frozen: shared). */
export const kubeletReleases: readonly KubeletRelease[] = Object.freeze(["1.35", "1.36", "1.37"]);
