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

import { messageIsQuoted, withCallerStack, withoutStackFrames } from "../errors/kubeimg-error.js";
import { Quote as goQuote } from "../internal/strconv.js";
import { PathUnescape } from "../internal/url.js";
import {
  isKnownArch,
  isKnownOS,
  normalizeArch,
  normalizeLowerArch,
  normalizeOS,
} from "./database.js";
import { PlatformError, type PlatformSpecifierPart } from "./errors.js";
import type { Platform, PlatformOptions } from "./platform.js";
import {
  ALL_CLASSES,
  COMPONENT,
  classesOf,
  lowered,
  NAME,
  quotedPattern,
  scanOSPiece,
} from "./specifier-grammar.js";

const invalidArgument = ": invalid argument";
const NO_FEATURES: readonly string[] = [];

function refuse(
  code: PlatformError["code"],
  message: string,
  input: string,
  part: PlatformSpecifierPart,
  value: string,
): PlatformError {
  // Every message here quotes its foreign pieces with Go's %q: no control
  // character can be in it, so the base class need not scan it.
  const detail = { input, part, value, [messageIsQuoted]: true };
  // Built without frames: safeParsePlatform hands it back as a value, and
  // parsePlatform gives it the caller's frames as it throws.
  return withoutStackFrames(() => new PlatformError(code, message, detail));
}

/**
 * Go refuses a specifier holding `*` before looking at anything else. No
 * character class holds `*`, so a specifier that passes every check has
 * none: only a refusal needs to look, and it does before anything else.
 */
function wildcard(specifier: string): PlatformError | undefined {
  if (!specifier.includes("*")) return undefined;
  return refuse(
    "WILDCARD_NOT_SUPPORTED",
    `${goQuote(specifier)}: wildcards not yet supported${invalidArgument}`,
    specifier,
    "specifier",
    specifier,
  );
}

/** Decodes an OS version or feature the way containerd does: only when it holds a `%`. */
function decodeOSOption(raw: string): { ok: true; value: string } | { ok: false; escape: string } {
  return raw.includes("%") ? PathUnescape(raw) : { ok: true, value: raw };
}

/** What {@link decodeOSOption} gives for a piece with no version: shared, as most have none. */
const NO_VERSION: { ok: true; value: string } = { ok: true, value: "" };

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
  const parsed = parseOrRefuse(specifier, options);
  if (parsed instanceof PlatformError) throw withCallerStack(parsed, parsePlatform);
  return parsed;
}

/**
 * The one parser behind {@link parsePlatform} and {@link safeParsePlatform}:
 * the platform, or the refusal as a value (thrown by the one, returned by
 * the other).
 */
function parseOrRefuse(specifier: string, options: PlatformOptions): Platform | PlatformError {
  // One pass over the specifier: the slashes of Go's SplitN(specifier, "/", 4)
  // and, per piece, the character classes all its characters share and
  // whether it holds a capital. The checks then run in Go's order.
  const n = specifier.length;
  let count = 1;
  let slash1 = -1;
  let slash2 = -1;
  let slash3 = -1;
  let shared = ALL_CLASSES;
  let capital = false;
  let osShared = 0;
  let osCapital = false;
  let archShared = 0;
  let archCapital = false;
  let variantShared = 0;
  for (let i = 0; i < n; i++) {
    const c = specifier.charCodeAt(i);
    // Lower-case letters and digits, most of any specifier, are in every class.
    if (c >= 0x61 ? c <= 0x7a : c >= 0x30 && c <= 0x39) continue;
    if (c === 0x2f && count < 4) {
      if (count === 1) {
        slash1 = i;
        osShared = shared;
        osCapital = capital;
      } else if (count === 2) {
        slash2 = i;
        archShared = shared;
        archCapital = capital;
      } else {
        slash3 = i;
        variantShared = shared;
      }
      count++;
      shared = ALL_CLASSES;
      capital = false;
      continue;
    }
    shared &= classesOf(c);
    if (c >= 0x41 && c <= 0x5a) capital = true;
  }
  if (count === 1) {
    osShared = shared;
    osCapital = capital;
  } else if (count === 2) {
    archShared = shared;
    archCapital = capital;
  } else if (count === 3) variantShared = shared;
  const variantCapital = count === 3 && capital;
  const extraShared = count === 4 ? shared : 0;

  const osPiece = slash1 < 0 ? specifier : specifier.slice(0, slash1);
  // Most OS pieces are a bare name, which needs no groups.
  const plain = osPiece.length > 0 && (osShared & NAME) !== 0;
  const m = plain ? undefined : scanOSPiece(osPiece);
  if (!plain && m === undefined) {
    return (
      wildcard(specifier) ??
      refuse(
        "INVALID_OS_COMPONENT",
        `${goQuote(osPiece)} is an invalid OS component of ${goQuote(specifier)}: OSAndVersion specifier component must match ${quotedPattern("os")}${invalidArgument}`,
        specifier,
        "os",
        osPiece,
      )
    );
  }
  const rawVersion = m === undefined ? "" : m.version;
  const version = rawVersion === "" ? NO_VERSION : decodeOSOption(rawVersion);
  if (!version.ok) {
    return (
      wildcard(specifier) ??
      refuse(
        "INVALID_OS_VERSION_ESCAPE",
        `${goQuote(specifier)} has an invalid OS version ${goQuote(rawVersion)}: invalid URL escape ${goQuote(version.escape)}`,
        specifier,
        "osVersion",
        rawVersion,
      )
    );
  }
  let osFeatures: readonly string[] = NO_FEATURES;
  const rawFeatures = m === undefined ? "" : m.features;
  if (rawFeatures !== "") {
    const features: string[] = [];
    // rawFeatures is `+`-led: each feature runs from after one `+` to the next.
    for (let from = 1; from <= rawFeatures.length; ) {
      let to = rawFeatures.indexOf("+", from);
      if (to < 0) to = rawFeatures.length;
      const raw = rawFeatures.slice(from, to);
      from = to + 1;
      // The grammar makes every feature non-empty; upstream still checks.
      if (raw === "") {
        return (
          wildcard(specifier) ??
          refuse(
            "EMPTY_OS_FEATURE",
            `${goQuote(specifier)} has invalid OS features: empty os feature${invalidArgument}`,
            specifier,
            "osFeature",
            raw,
          )
        );
      }
      const feature = decodeOSOption(raw);
      if (!feature.ok) {
        return (
          wildcard(specifier) ??
          refuse(
            "INVALID_OS_FEATURE_ESCAPE",
            `${goQuote(specifier)} has invalid OS features: invalid os feature ${goQuote(raw)}: invalid URL escape ${goQuote(feature.escape)}`,
            specifier,
            "osFeature",
            raw,
          )
        );
      }
      if (feature.value !== "") features.push(feature.value);
    }
    osFeatures = features;
  }

  const architecture = count < 2 ? "" : specifier.slice(slash1 + 1, slash2 < 0 ? n : slash2);
  const variant = count < 3 ? "" : specifier.slice(slash2 + 1, slash3 < 0 ? n : slash3);
  const extra = count < 4 ? "" : specifier.slice(slash3 + 1);
  for (let i = 1; i < count; i++) {
    const piece = i === 1 ? architecture : i === 2 ? variant : extra;
    const classes = i === 1 ? archShared : i === 2 ? variantShared : extraShared;
    if (piece.length === 0 || (classes & COMPONENT) === 0) {
      return (
        wildcard(specifier) ??
        refuse(
          "INVALID_COMPONENT",
          `${goQuote(piece)} is an invalid component of ${goQuote(specifier)}: platform specifier component must match ${quotedPattern("component")}${invalidArgument}`,
          specifier,
          componentPart(i),
          piece,
        )
      );
    }
  }

  // Every piece is ASCII by now: Go's ToLower is toLowerCase, and only where a capital is.
  let os = m === undefined ? lowered(osPiece, osCapital) : normalizeOS(m.name, undefined);
  if (os === "macos") os = "darwin";
  const osVersion = version.value;
  switch (count) {
    case 1: {
      const host = options.host;
      if (isKnownOS(os)) {
        if (host === undefined) return hostRequired(specifier, "architecture");
        const hostVariant = host.variant ?? "";
        const variant = host.architecture === "arm" && hostVariant !== "v7" ? hostVariant : "";
        return { os, architecture: host.architecture, variant, osVersion, osFeatures };
      }
      const [arch, normalizedVariant] = normalizeArch(osPiece, "");
      const v = arch === "arm" && normalizedVariant === "v7" ? "" : normalizedVariant;
      if (isKnownArch(arch)) {
        if (host === undefined) return hostRequired(specifier, "os");
        return { os: host.os, architecture: arch, variant: v, osVersion, osFeatures };
      }
      return (
        wildcard(specifier) ??
        refuse(
          "UNKNOWN_OS_OR_ARCH",
          `${goQuote(specifier)}: unknown operating system or architecture${invalidArgument}`,
          specifier,
          "os",
          osPiece,
        )
      );
    }
    case 2: {
      const [arch, normalizedVariant] = normalizeLowerArch(lowered(architecture, archCapital), "");
      const v = arch === "arm" && normalizedVariant === "v7" ? "" : normalizedVariant;
      return { os, architecture: arch, variant: v, osVersion, osFeatures };
    }
    case 3: {
      const [arch, normalizedVariant] = normalizeLowerArch(
        lowered(architecture, archCapital),
        lowered(variant, variantCapital),
      );
      const v = arch === "arm64" && normalizedVariant === "" ? "v8" : normalizedVariant;
      return { os, architecture: arch, variant: v, osVersion, osFeatures };
    }
    default:
      return (
        wildcard(specifier) ??
        refuse(
          "TOO_MANY_COMPONENTS",
          `${goQuote(specifier)}: cannot parse platform specifier${invalidArgument}`,
          specifier,
          "extra",
          extra,
        )
      );
  }
}

function hostRequired(specifier: string, missing: "os" | "architecture"): PlatformError {
  const refused = wildcard(specifier);
  if (refused !== undefined) return refused;
  return refuse(
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
    const parsed = parseOrRefuse(s, options);
    if (parsed instanceof PlatformError) {
      throw new PlatformError(parsed.code, `invalid platform ${s}: ${parsed.message}`, {
        input: parsed.input,
        part: parsed.part,
        value: parsed.value,
        index: i,
      });
    }
    out.push(parsed);
  }
  return out;
}

/** The outcome of {@link safeParsePlatform}.
 *
 * @inline
 */
export type SafeParsePlatformResult =
  | { readonly success: true; readonly data: Platform }
  | { readonly success: false; readonly error: PlatformError };

/**
 * Returns `{ success: true, data }` or `{ success: false, error }`
 * instead of throwing: for validating many specifiers (a webhook reading
 * every node's labels) without try/catch. The error is a value describing
 * the input: its `stack` names it but lists no frames, which would cost
 * more than the parse (call {@link parsePlatform} for a thrown one).
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
  const parsed = parseOrRefuse(specifier, options);
  return parsed instanceof PlatformError
    ? { success: false, error: parsed }
    : { success: true, data: parsed };
}
