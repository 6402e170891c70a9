/**
 * The upstream releases whose node configuration kubeimg reproduces, in a
 * module of their own: the `kubeimg` command lists them in its option help
 * and checks `--upstream` against them before it loads any reader.
 *
 * @module
 */

/**
 * The containerd releases whose hosts.toml reading kubeimg reproduces, oldest
 * first: the values of the `containerd` option.
 */
export const containerdReleases = Object.freeze(["2.3", "2.4"] as const);

/** The containers/image releases whose registries.conf reading kubeimg reproduces, oldest first. */
export const containersImageReleases = Object.freeze(["5.36", "5.40"] as const);

/** A containers/image release `loadRegistriesConf` reproduces. */
export type ContainersImageRelease = (typeof containersImageReleases)[number];
