import { errorGuard, KubeimgError } from "./kubeimg-error.js";

/**
 * Thrown when an option names an upstream release kubeimg does not
 * reproduce (`{ platforms: "rc.6" }`, `--upstream kubelet=1.34`). `upstream`
 * is the option's name, `value` what was given, `accepted` every release
 * that would do.
 *
 * @example
 * ```ts
 * import { UpstreamReleaseError } from "@kubeimg/core";
 * import { only } from "@kubeimg/core/platform";
 *
 * try {
 *   only({ os: "linux", architecture: "amd64" }, { platforms: "rc.6" as never });
 * } catch (e) {
 *   if (e instanceof UpstreamReleaseError) e.accepted; // → ["rc.4", "rc.5"]
 * }
 * ```
 */
export class UpstreamReleaseError extends KubeimgError {
  override readonly name = "UpstreamReleaseError";
  readonly code = "UNKNOWN_RELEASE";
  /** The option naming the upstream (`platforms`, `kubelet`, …). */
  readonly upstream: string;
  /** The release asked for. */
  readonly value: unknown;
  /** The releases kubeimg reproduces for that upstream, oldest first. */
  readonly accepted: readonly string[];

  constructor(upstream: string, value: unknown, accepted: readonly string[]) {
    super(
      `${upstream}: release ${JSON.stringify(value) ?? String(value)} is not one kubeimg reproduces; use one of ${accepted.map((a) => JSON.stringify(a)).join(", ")}`,
    );
    this.upstream = upstream;
    this.value = value;
    this.accepted = accepted;
  }
}

/**
 * Returns true when `value` is an {@link UpstreamReleaseError} from any copy of the package.
 */
export const isUpstreamReleaseError = errorGuard<UpstreamReleaseError>("UpstreamReleaseError");

/**
 * Returns `value` when it is one of `accepted`, `fallback` when it is
 * `undefined`; throws {@link UpstreamReleaseError} otherwise.
 *
 * @example
 * ```ts
 * import { chooseRelease } from "@kubeimg/core";
 *
 * chooseRelease("platforms", undefined, ["rc.4", "rc.5"], "rc.5"); // → "rc.5"
 * chooseRelease("platforms", "rc.4", ["rc.4", "rc.5"], "rc.5"); // → "rc.4"
 * ```
 */
export function chooseRelease<R extends string>(
  upstream: string,
  value: unknown,
  accepted: readonly R[],
  fallback: R,
): R {
  if (value === undefined) return fallback;
  if ((accepted as readonly unknown[]).includes(value)) return value as R;
  throw new UpstreamReleaseError(upstream, value, accepted);
}
