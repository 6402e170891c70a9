/**
 * Normalizing a platform: the canonical spelling containerd compares
 * platforms in. Every matcher normalizes both its own platform and each
 * candidate before comparing, which is why `linux/aarch64` and
 * `Linux/ARM64/v8` select the same manifest.
 *
 * @module
 */

import { Compare } from "../internal/strings.js";
import { normalizeArch, normalizeOS } from "./database.js";
import type { Platform, PlatformInput, PlatformOptions } from "./platform.js";

const NO_FEATURES: readonly string[] = [];

/**
 * Returns the OS features sorted in Go's byte order with adjacent
 * duplicates removed (an empty feature is kept once). Mirrors the feature
 * step of Normalize.
 */
export function normalizeOSFeatures(features: readonly string[] | undefined): readonly string[] {
  if (features === undefined || features.length === 0) return NO_FEATURES;
  if (features.length === 1) return [features[0] as string];
  const sorted = [...features].sort(Compare);
  const out: string[] = [sorted[0] as string];
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] !== out[out.length - 1]) out.push(sorted[i] as string);
  }
  return out;
}

/**
 * Returns the platform in containerd's canonical form. Mirrors Normalize in
 * containerd/platforms v1.0.0-rc.4:
 *
 * - `os`: lower-cased (Go's `strings.ToLower`), `macos` → `darwin`; empty
 *   becomes the host's OS (and stays empty when no host is given).
 * - `architecture` and `variant`: both lower-cased, then
 *   `i386` → `386` (no variant); `x86_64`, `x86-64` → `amd64` (`v1` → `""`);
 *   `aarch64` → `arm64` (`8`, `v8`, `v8.0` → `""`; `9`, `9.0`, `v9.0` → `v9`);
 *   `armhf` → `arm`/`v7`; `armel` → `arm`/`v6`; `arm` with `""` or `7` → `v7`,
 *   `5`, `6`, `8` → `v5`, `v6`, `v8`. Anything else is kept.
 * - `osVersion`: untouched. `osFeatures`: sorted by bytes, duplicates dropped.
 *
 * @example
 * ```ts
 * import { normalizePlatform } from "@kubeimg/core/platform";
 *
 * normalizePlatform({ os: "Linux", architecture: "aarch64", variant: "v8" });
 * // { os: "linux", architecture: "arm64", variant: "", osVersion: "", osFeatures: [] }
 * ```
 */
export function normalizePlatform(
  platform: PlatformInput,
  options: PlatformOptions = {},
): Platform {
  const [architecture, variant] = normalizeArch(platform.architecture, platform.variant ?? "");
  return {
    os: normalizeOS(platform.os, options.host?.os),
    architecture,
    variant,
    osVersion: platform.osVersion ?? "",
    osFeatures: normalizeOSFeatures(platform.osFeatures),
  };
}
