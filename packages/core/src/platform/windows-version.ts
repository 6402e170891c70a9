/**
 * Which Windows container images a Windows host can run. Windows process
 * isolation needs the container's OS build to fit the host's: before
 * Windows Server 2022 the builds must be equal; from 2022 on, a host runs
 * images from a floor long-term-servicing release up to its own build.
 * Which floor is where the releases differ: rc.4 takes the newest LTSC
 * strictly below the host's build (so a host past 26100 stops running 2022
 * images); rc.5 takes the LTSC before the newest one at or below the host's
 * build, so every host of the 2025 generation keeps running 2022 images
 * (containerd/platforms#34, "Fix WS2022 compat on hosts past the latest LTSC").
 *
 * Mirrors platform_windows_compat.go of containerd/platforms v1.0.0-rc.4 and
 * v1.0.0-rc.5.
 *
 * @module
 */
import type { PlatformsRelease } from "./platform.js";

/** A Windows version read as `major.minor.build`; all zero when unreadable. */
interface WindowsOSVersion {
  readonly major: number;
  readonly minor: number;
  readonly build: number;
}

const ZERO: WindowsOSVersion = { major: 0, minor: 0, build: 0 };

/** Windows Server 2022 (21H2): the first build from which newer hosts accept older images. */
const LTSC_2022 = 20348;
/** The long-term-servicing builds, oldest first: Windows Server 2022 and 2025 (24H2). */
const COMPAT_LTSC_RELEASES: readonly number[] = [LTSC_2022, 26100];

/** Go's `strconv.ParseUint(s, 10, bits)` limited to what Windows versions need; `undefined` on error. */
function parseUintBits(s: string, max: number): number | undefined {
  if (!/^[0-9]+$/.test(s)) return undefined;
  const digits = s.replace(/^0+(?=.)/, "");
  if (digits.length > 6) return undefined;
  const n = Number(digits);
  return n <= max ? n : undefined;
}

/**
 * Reads `major.minor.build[.anything]`: at least two dots, major and minor
 * 0–255, build 0–65535; anything else reads as `0.0.0`. Mirrors
 * getWindowsOSVersion.
 */
export function getWindowsOSVersion(osVersion: string): WindowsOSVersion {
  const parts = osVersion.split(".");
  if (parts.length < 3) return ZERO;
  const major = parseUintBits(parts[0] as string, 255);
  const minor = parseUintBits(parts[1] as string, 255);
  const build = parseUintBits(parts[2] as string, 65535);
  if (major === undefined || minor === undefined || build === undefined) return ZERO;
  return { major, minor, build };
}

/** The oldest container build a host of build `build` (at least 2022's) accepts. */
function compatFloor(build: number, release: PlatformsRelease): number {
  for (let i = COMPAT_LTSC_RELEASES.length - 1; i >= 0; i--) {
    const ltsc = COMPAT_LTSC_RELEASES[i] as number;
    if (release === "rc.4") {
      if (build > ltsc) return ltsc;
    } else if (build >= ltsc) {
      // rc.5 (containerd/platforms#34): one LTSC back from the host's generation.
      return COMPAT_LTSC_RELEASES[i === 0 ? 0 : i - 1] as number;
    }
  }
  return LTSC_2022;
}

/** Mirrors checkWindowsHostAndContainerCompat. */
function compatible(
  host: WindowsOSVersion,
  ctr: WindowsOSVersion,
  release: PlatformsRelease,
): boolean {
  if (host.major !== ctr.major || host.minor !== ctr.minor) return false;
  if (host.build < LTSC_2022) return host.build === ctr.build;
  return compatFloor(host.build, release) <= ctr.build && ctr.build <= host.build;
}

/**
 * Returns a check of candidate OS versions against a Windows matcher's own
 * version: an unreadable (zero) matcher version or an empty candidate
 * version always passes. Mirrors windowsVersionMatcher.
 */
export function windowsVersionMatcher(
  matcherVersion: string,
  release: PlatformsRelease,
): (candidateVersion: string) => boolean {
  const host = getWindowsOSVersion(matcherVersion);
  if (host.major === 0 && host.minor === 0 && host.build === 0) return () => true;
  return (v) => v === "" || compatible(host, getWindowsOSVersion(v), release);
}
