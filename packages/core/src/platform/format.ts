/**
 * Printing a platform back as a specifier. `formatPlatform` is what
 * containerd logs and compares (`linux/arm64/v8`); `formatAllPlatform`
 * also carries the OS version and features (`windows(10.0.17763+win32k)/amd64`),
 * percent-encoding the characters that would break the grammar.
 *
 * Mirrors Format and FormatAll of containerd/platforms v1.0.0-rc.4. Neither
 * normalizes, and the parts are joined with Go's `path.Join`, so `..` or
 * empty parts are cleaned away exactly as containerd prints them.
 *
 * @module
 */
import { Join as goPathJoin } from "../internal/path.js";
import { Compare } from "../internal/strings.js";
import type { PlatformInput } from "./platform.js";

/**
 * Returns `os/architecture/variant` (empty parts skipped, the path cleaned
 * as Go's `path.Join` does), or `"unknown"` when `os` is empty. The OS
 * version and features are not printed.
 *
 * @example
 * ```ts
 * import { formatPlatform } from "@kubeimg/core/platform";
 *
 * formatPlatform({ os: "linux", architecture: "arm64", variant: "v8" }); // "linux/arm64/v8"
 * formatPlatform({ os: "", architecture: "amd64" }); // "unknown"
 * ```
 */
export function formatPlatform(platform: PlatformInput): string {
  if (platform.os === "") return "unknown";
  return goPathJoin(platform.os, platform.architecture, platform.variant ?? "");
}

/** `%`, `+`, `(`, `)` and `/` would end or split an OS option, so they are percent-encoded; nothing else is. */
function encodeOSOption(v: string): string {
  if (!/[%+()/]/.test(v)) return v;
  return v.replace(/[%+()/]/g, (c) => {
    switch (c) {
      case "%":
        return "%25";
      case "+":
        return "%2B";
      case "(":
        return "%28";
      case ")":
        return "%29";
      default:
        return "%2F";
    }
  });
}

/** The features sorted by bytes, empty and repeated ones dropped, each encoded, joined by `+`. */
function formatOSFeatures(features: readonly string[]): string {
  if (features.length === 0) return "";
  const sorted = [...features].sort(Compare);
  const out: string[] = [];
  let prev = "";
  for (const f of sorted) {
    if (f === "" || f === prev) continue;
    prev = f;
    out.push(encodeOSOption(f));
  }
  return out.join("+");
}

/**
 * Returns the full specifier: like {@link formatPlatform}, with the OS
 * written `os(version+feature…)` when there is a version or a feature. The
 * version and features are percent-encoded (`%`, `+`, `(`, `)`, `/`), the
 * features sorted by bytes with empty and repeated ones dropped. Nothing is
 * lower-cased or normalized, and the output does not always parse back
 * (a version holding a space, for example).
 *
 * @example
 * ```ts
 * import { formatAllPlatform } from "@kubeimg/core/platform";
 *
 * formatAllPlatform({ os: "windows", architecture: "amd64", osVersion: "10.0.17763", osFeatures: ["win32k"] });
 * // "windows(10.0.17763+win32k)/amd64"
 * formatAllPlatform({ os: "linux", architecture: "amd64", osFeatures: ["gpu"] }); // "linux(+gpu)/amd64"
 * ```
 */
export function formatAllPlatform(platform: PlatformInput): string {
  if (platform.os === "") return "unknown";
  const osVersion = platform.osVersion ?? "";
  const features = platform.osFeatures ?? [];
  if (osVersion === "" && features.length === 0) {
    return goPathJoin(platform.os, platform.architecture, platform.variant ?? "");
  }
  const version = encodeOSOption(osVersion);
  const formatted = formatOSFeatures(features);
  let os = platform.os;
  if (version !== "" || formatted !== "") {
    os += `(${version}${formatted === "" ? "" : `+${formatted}`})`;
  }
  return goPathJoin(os, platform.architecture, platform.variant ?? "");
}
