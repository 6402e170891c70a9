/**
 * Generated matcher questions about Windows OS versions, the one place the
 * containerd/platforms releases differ (rc.5's compatibility floor). Builds
 * cluster around the long-term-servicing boundaries; versions also come
 * malformed (too few parts, out of range, not numbers) and candidates
 * sometimes carry `win32k`, another OS or another architecture.
 */
import type { PlatformInput } from "./platform.js";

export interface MatcherSpec {
  readonly kind: "newMatcher" | "only" | "onlyStrict" | "onlyOS" | "ordered" | "any";
  readonly platforms: readonly PlatformInput[];
}

export interface WindowsCompatCase {
  readonly op: "match" | "less";
  readonly matcher: MatcherSpec;
  readonly candidate?: PlatformInput;
  readonly a?: PlatformInput;
  readonly b?: PlatformInput;
}

const builds = [
  0, 1, 14393, 17763, 19041, 20347, 20348, 20349, 22000, 22621, 25398, 26099, 26100, 26101, 26200,
  26300, 30000, 65535,
];
const prefixes = ["10.0", "10.0", "10.0", "6.3", "10.1", "256.0", "010.0"];
const kinds: MatcherSpec["kind"][] = [
  "newMatcher",
  "only",
  "onlyStrict",
  "onlyOS",
  "ordered",
  "any",
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function osVersion(random: () => number): string {
  const r = random();
  if (r < 0.06) return "";
  if (r < 0.1) return pick(random, ["10.0", "10", "a.b.c", "10.0.x", "10.0.65536", "10.0.-1"]);
  const base = `${pick(random, prefixes)}.${pick(random, builds)}`;
  return random() < 0.5 ? base : `${base}.${Math.floor(random() * 5000)}`;
}

function windows(random: () => number): PlatformInput {
  const r = random();
  const os = r < 0.9 ? "windows" : pick(random, ["linux", "Windows"]);
  const architecture = random() < 0.85 ? "amd64" : pick(random, ["arm64", "386"]);
  const features = random() < 0.15 ? pick(random, [["win32k"], ["win32k", "x"], ["x"]]) : [];
  return {
    os,
    architecture,
    osVersion: osVersion(random),
    ...(features.length > 0 ? { osFeatures: features } : {}),
  };
}

/** One generated case; call repeatedly with the same `random` for a reproducible list. */
export function windowsCompatCase(random: () => number): WindowsCompatCase {
  const kind = pick(random, kinds);
  const many = kind === "ordered" || kind === "any";
  const n = many ? 1 + Math.floor(random() * 3) : 1;
  const platforms = Array.from({ length: n }, () => {
    const p = windows(random);
    return { ...p, os: "windows", osFeatures: [] as string[] };
  }).map(({ osFeatures: _, ...p }) => p);
  const matcher: MatcherSpec = { kind, platforms };
  if (kind === "newMatcher" || random() < 0.6) {
    return { op: "match", matcher, candidate: windows(random) };
  }
  return { op: "less", matcher, a: windows(random), b: windows(random) };
}
