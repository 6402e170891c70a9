/**
 * Reading a platform specifier, the text users write after `--platform`:
 *
 * ```
 * specifier  := os-part [ "/" component [ "/" component ] ]
 * os-part    := os-name [ "(" [ os-version ] { "+" os-feature } ")" ]
 * os-name    := [A-Za-z0-9_-]+
 * os-version := [A-Za-z0-9_.%-]*          (percent-decoded when it holds "%")
 * os-feature := [A-Za-z0-9_.%-]+          (percent-decoded when it holds "%")
 * component  := [A-Za-z0-9_.-]+
 * ```
 *
 * One part names an OS (`linux`: the host's architecture) or an
 * architecture (`arm64`: the host's OS); two give OS and architecture;
 * three add the variant. `*` anywhere is refused. Mirrors Parse and
 * ParseAll of containerd/platforms v1.0.0-rc.4, error messages included,
 * with the host passed in rather than read from the process.
 *
 * @module
 */

import { Quote as goQuote } from "../internal/strconv.js";
import { SplitN } from "../internal/strings.js";
import { PathUnescape } from "../internal/url.js";
import { isKnownArch, isKnownOS, normalizeArch, normalizeOS } from "./database.js";
import { PlatformError, type PlatformSpecifierPart } from "./errors.js";
import type { Platform, PlatformOptions } from "./platform.js";

/** An OS name, then optional parentheses holding a version and `+feature`s: `windows(10.0.17763+win32k)`. */
const OS_PATTERN = "^([A-Za-z0-9_-]+)(?:\\(([A-Za-z0-9_.%-]*)((?:\\+[A-Za-z0-9_.%-]+)*)\\))?$";
/** Architecture and variant pieces: letters, digits, `_`, `.`, `-` (so `v8.2` is one piece). */
const COMPONENT_PATTERN = "^[A-Za-z0-9_.-]+$";

let osRegExp: RegExp | undefined;
let componentRegExp: RegExp | undefined;

const invalidArgument = ": invalid argument";
const NO_FEATURES: readonly string[] = [];

function fail(
  code: PlatformError["code"],
  message: string,
  input: string,
  part: PlatformSpecifierPart,
  value: string,
): never {
  throw new PlatformError(code, message, { input, part, value });
}

/** Decodes an OS version or feature the way containerd does: only when it holds a `%`. */
function decodeOSOption(raw: string): { ok: true; value: string } | { ok: false; escape: string } {
  return raw.includes("%") ? PathUnescape(raw) : { ok: true, value: raw };
}

function componentPart(index: number): PlatformSpecifierPart {
  return index === 1 ? "architecture" : index === 2 ? "variant" : "extra";
}

/**
 * Returns the platform a specifier names. The OS is lower-cased (`macos` is
 * read as `darwin`); the architecture and variant are normalized, except that
 * `arm64` written with a variant keeps `v8` (`linux/arm64/v8.0` gives `v8`)
 * and a two-part `linux/arm` shows no variant. Pieces are checked left to
 * right and the first bad one is reported.
 *
 * @throws {@link PlatformError} with `part` naming the wrong piece:
 * `WILDCARD_NOT_SUPPORTED`, `INVALID_OS_COMPONENT`, `INVALID_COMPONENT`,
 * `INVALID_OS_VERSION_ESCAPE`, `INVALID_OS_FEATURE_ESCAPE`,
 * `UNKNOWN_OS_OR_ARCH`, `TOO_MANY_COMPONENTS`, or `HOST_REQUIRED` for a
 * one-part specifier when no host was given.
 *
 * @example
 * ```ts
 * import { parsePlatform } from "@kubeimg/core/platform";
 *
 * parsePlatform("linux/aarch64");
 * // { os: "linux", architecture: "arm64", variant: "", osVersion: "", osFeatures: [] }
 * parsePlatform("windows(10.0.17763+win32k)/amd64").osFeatures; // ["win32k"]
 * parsePlatform("arm64", { host: { os: "linux", architecture: "amd64" } }).variant; // ""
 * ```
 */
export function parsePlatform(specifier: string, options: PlatformOptions = {}): Platform {
  if (specifier.includes("*")) {
    fail(
      "WILDCARD_NOT_SUPPORTED",
      `${goQuote(specifier)}: wildcards not yet supported${invalidArgument}`,
      specifier,
      "specifier",
      specifier,
    );
  }
  const parts = SplitN(specifier, "/", 4);

  const osPiece = parts[0] as string;
  osRegExp ??= new RegExp(OS_PATTERN);
  const m = osRegExp.exec(osPiece);
  if (m === null) {
    fail(
      "INVALID_OS_COMPONENT",
      `${goQuote(osPiece)} is an invalid OS component of ${goQuote(specifier)}: OSAndVersion specifier component must match ${goQuote(OS_PATTERN)}${invalidArgument}`,
      specifier,
      "os",
      osPiece,
    );
  }
  const rawVersion = m[2] ?? "";
  const version = decodeOSOption(rawVersion);
  if (!version.ok) {
    fail(
      "INVALID_OS_VERSION_ESCAPE",
      `${goQuote(specifier)} has an invalid OS version ${goQuote(rawVersion)}: invalid URL escape ${goQuote(version.escape)}`,
      specifier,
      "osVersion",
      rawVersion,
    );
  }
  let osFeatures: readonly string[] = NO_FEATURES;
  const rawFeatures = m[3] ?? "";
  if (rawFeatures !== "") {
    const features: string[] = [];
    for (const raw of rawFeatures.slice(1).split("+")) {
      // The grammar makes every feature non-empty; upstream still checks.
      if (raw === "") {
        fail(
          "EMPTY_OS_FEATURE",
          `${goQuote(specifier)} has invalid OS features: empty os feature${invalidArgument}`,
          specifier,
          "osFeature",
          raw,
        );
      }
      const feature = decodeOSOption(raw);
      if (!feature.ok) {
        fail(
          "INVALID_OS_FEATURE_ESCAPE",
          `${goQuote(specifier)} has invalid OS features: invalid os feature ${goQuote(raw)}: invalid URL escape ${goQuote(feature.escape)}`,
          specifier,
          "osFeature",
          raw,
        );
      }
      if (feature.value !== "") features.push(feature.value);
    }
    osFeatures = features;
  }

  for (let i = 1; i < parts.length; i++) {
    const piece = parts[i] as string;
    componentRegExp ??= new RegExp(COMPONENT_PATTERN);
    if (!componentRegExp.test(piece)) {
      fail(
        "INVALID_COMPONENT",
        `${goQuote(piece)} is an invalid component of ${goQuote(specifier)}: platform specifier component must match ${goQuote(COMPONENT_PATTERN)}${invalidArgument}`,
        specifier,
        componentPart(i),
        piece,
      );
    }
  }

  const os = normalizeOS(m[1] as string, undefined);
  const osVersion = version.value;
  switch (parts.length) {
    case 1: {
      const host = options.host;
      if (isKnownOS(os)) {
        if (host === undefined) return hostRequired(specifier, "architecture");
        const hostVariant = host.variant ?? "";
        const variant = host.architecture === "arm" && hostVariant !== "v7" ? hostVariant : "";
        return { os, architecture: host.architecture, variant, osVersion, osFeatures };
      }
      const [architecture, normalizedVariant] = normalizeArch(osPiece, "");
      const variant = architecture === "arm" && normalizedVariant === "v7" ? "" : normalizedVariant;
      if (isKnownArch(architecture)) {
        if (host === undefined) return hostRequired(specifier, "os");
        return { os: host.os, architecture, variant, osVersion, osFeatures };
      }
      return fail(
        "UNKNOWN_OS_OR_ARCH",
        `${goQuote(specifier)}: unknown operating system or architecture${invalidArgument}`,
        specifier,
        "os",
        osPiece,
      );
    }
    case 2: {
      const [architecture, normalizedVariant] = normalizeArch(parts[1] as string, "");
      const variant = architecture === "arm" && normalizedVariant === "v7" ? "" : normalizedVariant;
      return { os, architecture, variant, osVersion, osFeatures };
    }
    case 3: {
      const [architecture, normalizedVariant] = normalizeArch(
        parts[1] as string,
        parts[2] as string,
      );
      const variant =
        architecture === "arm64" && normalizedVariant === "" ? "v8" : normalizedVariant;
      return { os, architecture, variant, osVersion, osFeatures };
    }
    default:
      return fail(
        "TOO_MANY_COMPONENTS",
        `${goQuote(specifier)}: cannot parse platform specifier${invalidArgument}`,
        specifier,
        "extra",
        parts[3] as string,
      );
  }
}

function hostRequired(specifier: string, missing: "os" | "architecture"): never {
  return fail(
    "HOST_REQUIRED",
    `${goQuote(specifier)}: a one-part platform specifier takes its ${missing === "os" ? "operating system" : "architecture"} from the host platform, and none was given`,
    specifier,
    missing,
    specifier,
  );
}

/**
 * Returns the platforms of a list of specifiers, in order, or throws for the
 * first that does not parse: its code, with the message containerd's
 * ParseAll gives (`invalid platform <specifier>: <parse message>`) and
 * `index` set to its position.
 *
 * @example
 * ```ts
 * import { parseAllPlatforms } from "@kubeimg/core/platform";
 *
 * parseAllPlatforms(["linux/amd64", "linux/arm64/v8"]).map((p) => p.architecture); // ["amd64", "arm64"]
 * ```
 */
export function parseAllPlatforms(
  specifiers: readonly string[],
  options: PlatformOptions = {},
): Platform[] {
  const out: Platform[] = [];
  for (let i = 0; i < specifiers.length; i++) {
    const s = specifiers[i] as string;
    try {
      out.push(parsePlatform(s, options));
    } catch (e) {
      if (e instanceof PlatformError) {
        throw new PlatformError(e.code, `invalid platform ${s}: ${e.message}`, {
          input: e.input,
          part: e.part,
          value: e.value,
          index: i,
        });
      }
      throw e;
    }
  }
  return out;
}

/** The outcome of {@link safeParsePlatform}. */
export type SafeParsePlatformResult =
  | { readonly success: true; readonly data: Platform }
  | { readonly success: false; readonly error: PlatformError };

/**
 * Returns `{ success: true, data }` or `{ success: false, error }`
 * instead of throwing: for validating many specifiers (a webhook reading
 * every node's labels) without try/catch.
 *
 * @example
 * ```ts
 * import { safeParsePlatform } from "@kubeimg/core/platform";
 *
 * const r = safeParsePlatform("linux/arm64/v8/extra");
 * if (!r.success) r.error.code; // "TOO_MANY_COMPONENTS"
 * ```
 */
export function safeParsePlatform(
  specifier: string,
  options: PlatformOptions = {},
): SafeParsePlatformResult {
  try {
    return { success: true, data: parsePlatform(specifier, options) };
  } catch (e) {
    if (e instanceof PlatformError) return { success: false, error: e };
    throw e;
  }
}
