/**
 * The platform an image is built for, and the platform of the machine that
 * answers questions the library cannot answer from the input alone.
 *
 * The shape is the OCI image-spec `Platform` (`os`, `architecture`,
 * `variant`, `os.version`, `os.features`) with camelCase keys. Inputs may
 * leave the optional parts out (absent means `""`, or no features); results
 * always carry all five keys, so two results compare with a plain deep
 * equality.
 *
 * @module
 */
import { chooseRelease } from "../errors/upstream-release.js";

/**
 * A platform as a caller writes it: `os` and `architecture` are required,
 * the rest may be left out. Values are used exactly as written (not trimmed,
 * not lower-cased): normalizing is a separate, explicit step.
 *
 * @example
 * ```ts
 * import { formatPlatform, type PlatformInput } from "@kubeimg/core/platform";
 *
 * const node: PlatformInput = { os: "linux", architecture: "arm64", variant: "v8" };
 * formatPlatform(node); // → "linux/arm64/v8"
 * ```
 */
export interface PlatformInput {
  /** Operating system, e.g. `linux`, `windows`. */
  readonly os: string;
  /** CPU architecture, e.g. `amd64`, `arm64`. */
  readonly architecture: string;
  /** CPU variant, e.g. `v7` for 32-bit arm; absent means `""`. */
  readonly variant?: string | undefined;
  /** OS version, e.g. `10.0.17763.1040` for Windows; absent means `""`. */
  readonly osVersion?: string | undefined;
  /** Required OS features, e.g. `win32k`; absent means none. */
  readonly osFeatures?: readonly string[] | undefined;
}

/**
 * A platform as the library returns it: all five parts present.
 *
 * @example
 * ```ts
 * import { type Platform, parsePlatform } from "@kubeimg/core/platform";
 *
 * const p: Platform = parsePlatform("linux/arm64/v8");
 * p.osFeatures; // → []
 * ```
 */
export interface Platform extends PlatformInput {
  readonly variant: string;
  readonly osVersion: string;
  readonly osFeatures: readonly string[];
}

/**
 * The machine the answer is for: containerd reads it from the running
 * process (`runtime.GOOS`, `runtime.GOARCH`, the CPU variant); kubeimg takes
 * it as a parameter, because the machine that evaluates a policy is rarely
 * the node that pulls the image. It is consulted in two places only: a
 * one-part specifier (`parse("linux")`, `parse("arm64")`) and an empty `os`
 * when normalizing (which every matcher does to each candidate).
 *
 * @example
 * ```ts
 * import { type HostPlatform, normalizePlatform } from "@kubeimg/core/platform";
 *
 * const host: HostPlatform = { os: "linux", architecture: "arm64", variant: "v8" };
 * normalizePlatform({ os: "", architecture: "aarch64" }, { host }).os; // → "linux"
 * ```
 */
export interface HostPlatform {
  readonly os: string;
  readonly architecture: string;
  /** The CPU variant, as containerd's `cpuVariant()` reports it (`""` on amd64). */
  readonly variant?: string | undefined;
}

/**
 * Options shared by the operations that may need the host platform.
 *
 * @example
 * ```ts
 * import { parsePlatform } from "@kubeimg/core/platform";
 *
 * parsePlatform("arm64", { host: { os: "linux", architecture: "amd64" } }).os; // "linux"
 * ```
 */
export interface PlatformOptions {
  /**
   * The machine the answer is for. Without it, a one-part specifier that
   * needs it fails with `HOST_REQUIRED`, and normalizing leaves an empty
   * `os` empty (an unknown OS) instead of filling in a guess.
   */
  readonly host?: HostPlatform | undefined;
  /**
   * The containerd/platforms release whose behaviour to reproduce; the newest,
   * `"rc.5"`, unless asked otherwise. See {@link PlatformsRelease}.
   */
  readonly platforms?: PlatformsRelease | undefined;
}

/**
 * The containerd/platforms releases kubeimg reproduces. They differ in one
 * place only: which older Windows builds a Windows host past the newest
 * long-term-servicing release accepts (`"rc.5"` keeps Windows Server 2022
 * images compatible there, containerd/platforms#34; `"rc.4"` does not).
 *
 * @example
 * ```ts
 * import { only, type PlatformsRelease } from "@kubeimg/core/platform";
 *
 * const host = { os: "windows", architecture: "amd64", osVersion: "10.0.26200.1" };
 * const windows2022 = { os: "windows", architecture: "amd64", osVersion: "10.0.20348.1" };
 * const runs = (platforms: PlatformsRelease) => only(host, { platforms }).match(windows2022);
 * runs("rc.4"); // → false
 * runs("rc.5"); // → true
 * ```
 */
export type PlatformsRelease = "rc.4" | "rc.5";

/** Every {@link PlatformsRelease}, oldest first; the last is the default (frozen: shared). */
export const platformsReleases: readonly PlatformsRelease[] = Object.freeze(["rc.4", "rc.5"]);

/** The release `options` asks for, the newest when none; throws `UNKNOWN_RELEASE` for another. */
export function platformsRelease(options: PlatformOptions): PlatformsRelease {
  return chooseRelease("platforms", options.platforms, platformsReleases, "rc.5");
}

const NO_FEATURES: readonly string[] = [];

/**
 * Returns `p` with every part present (`""` and `[]` for the missing ones),
 * without normalizing anything.
 */
export function completePlatform(p: PlatformInput): Platform {
  return {
    os: p.os,
    architecture: p.architecture,
    variant: p.variant ?? "",
    osVersion: p.osVersion ?? "",
    osFeatures: p.osFeatures ?? NO_FEATURES,
  };
}
