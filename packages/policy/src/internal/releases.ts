/**
 * `@kubeimg/policy/internal/releases`: the upstream releases policy
 * reproduces, which the `kubeimg` command lists in its `--upstream` help and
 * checks the flag against. A subpath of its own, loading no reader, so that
 * every command can check the flag without loading every product.
 *
 * Internal: it follows the package's versions but makes no stability promise
 * of its own. Applications use the public subpaths.
 *
 * @internal
 * @packageDocumentation
 */
export {
  type ContainersImageRelease,
  containerdReleases,
  containersImageReleases,
} from "../node-mirrors/releases.js";
export { type KubeletRelease, kubeletReleases } from "../pull-credentials/releases.js";
export { type SemverRelease, semverReleases } from "../semver/release.js";
