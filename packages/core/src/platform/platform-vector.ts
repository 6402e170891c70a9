/**
 * The platforms a machine runs, best first, as containerd's platformVector
 * lists them (platforms v1.0.0-rc.4): older x86-64 levels and 386 under
 * amd64, arm variants down to v5, arm64's variants counted down and then
 * 32-bit arm. Kept apart from the comparers that rank by it, because the
 * variant tables are facts about CPUs, not about ordering.
 */
import { Atoi } from "../internal/strconv.js";
import { compileExact, type ExactMatcher } from "./matcher.js";
import type { Platform, PlatformOptions } from "./platform.js";

/** One preference of an ordered list: one exact platform, or a run of CPU variants counted down. */
export type Preference =
  | { readonly kind: "exact"; readonly matcher: ExactMatcher }
  | {
      readonly kind: "variants";
      /** The shared platform (variant ignored). */
      readonly matcher: ExactMatcher;
      /** The highest variant number of the run (decimal text), down to `lowest`. */
      readonly highest: string;
      readonly lowest: 1 | 5;
      /** amd64's `v1` normalizes to the empty variant. */
      readonly emptyIsOne: boolean;
    };

/** Known arm64 variants: for each, the major versions counted down and the minor to start each from. */
const ARM64_VARIANTS: Readonly<Record<string, readonly (readonly [number, number])[]>> = {
  v8: [[8, 0]],
  "v8.0": [[8, 0]],
  "v8.1": [[8, 1]],
  "v8.2": [[8, 2]],
  "v8.3": [[8, 3]],
  "v8.4": [[8, 4]],
  "v8.5": [[8, 5]],
  "v8.6": [[8, 6]],
  "v8.7": [[8, 7]],
  "v8.8": [[8, 8]],
  "v8.9": [[8, 9]],
  // An Armv9.x core implements Armv8.(x+5), at most v8.9.
  v9: [
    [9, 0],
    [8, 5],
  ],
  "v9.0": [
    [9, 0],
    [8, 5],
  ],
  "v9.1": [
    [9, 1],
    [8, 6],
  ],
  "v9.2": [
    [9, 2],
    [8, 7],
  ],
  "v9.3": [
    [9, 3],
    [8, 8],
  ],
  "v9.4": [
    [9, 4],
    [8, 9],
  ],
  "v9.5": [
    [9, 5],
    [8, 9],
  ],
  "v9.6": [
    [9, 6],
    [8, 9],
  ],
  "v9.7": [
    [9, 7],
    [8, 9],
  ],
};

/**
 * The platforms a machine of `platform` (normalized) runs, best first, as
 * preferences. Mirrors platformVector: amd64 vN runs vN-1 … v1 and 386;
 * arm vN runs down to v5; arm64 runs its older variants and then 32-bit arm
 * v8 … v5, and an arm64 variant containerd does not know runs nothing.
 */
export function platformPreferences(platform: Platform, options: PlatformOptions): Preference[] {
  const exact = (variant: string, architecture = platform.architecture): Preference => ({
    kind: "exact",
    matcher: compileExact({ ...platform, architecture, variant }, options),
  });
  const run = (architecture: string, number: string | undefined, lowest: 1 | 5): Preference[] => {
    if (
      number === undefined ||
      number.startsWith("-") ||
      compareDecimalText(number, String(lowest)) <= 0
    )
      return [];
    const highest = decrement(number);
    return [
      {
        kind: "variants",
        matcher: compileExact({ ...platform, architecture, variant: "" }, options),
        highest,
        lowest,
        emptyIsOne: architecture === "amd64",
      },
    ];
  };
  switch (platform.architecture) {
    case "amd64":
      return [
        exact(platform.variant),
        ...run("amd64", atoiText(trimV(platform.variant)), 1),
        exact("", "386"),
      ];
    case "arm":
      return [exact(platform.variant), ...run("arm", atoiText(trimV(platform.variant)), 5)];
    case "arm64": {
      const variant = platform.variant === "" ? "v8" : platform.variant;
      const versions = ARM64_VARIANTS[variant];
      if (versions === undefined || !Object.hasOwn(ARM64_VARIANTS, variant)) return [];
      const out: Preference[] = [];
      for (const [major, fromMinor] of versions) {
        for (let minor = fromMinor; minor >= 0; minor--) {
          out.push(exact(minor === 0 ? `v${major}` : `v${major}.${minor}`));
        }
      }
      out.push(exact("v8", "arm"), ...run("arm", "8", 5));
      return out;
    }
    default:
      return [exact(platform.variant)];
  }
}

/** Go's `strconv.Atoi` as canonical decimal text (variant numbers may exceed 2^53). */
function atoiText(s: string): string | undefined {
  return Atoi(s)?.toString();
}

/** Compares two canonical non-negative decimal texts by value. */
export function compareDecimalText(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

function trimV(variant: string): string {
  return variant.startsWith("v") ? variant.slice(1) : variant;
}

/** `n - 1` for a canonical decimal text `n` ≥ 1 (exported for its test). */
export function decrement(n: string): string {
  // The last digit that is not 0 goes down by one; the zeros after it become 9s.
  let i = n.length - 1;
  while (n.charCodeAt(i) === 0x30) i--;
  const digit = String.fromCharCode(n.charCodeAt(i) - 1);
  const nines = "9".repeat(n.length - 1 - i);
  // Only a leading 1 can turn into a leading 0 ("10" → "9"; "1" → "0").
  return i === 0 && digit === "0" && nines !== "" ? nines : n.slice(0, i) + digit + nines;
}
