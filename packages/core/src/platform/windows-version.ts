/**
 * Which Windows container images a Windows host can run. Windows process
 * isolation needs the container's OS build to fit the host's: before
 * Windows Server 2022 the builds must be equal; from 2022 on, a host runs
 * images from the latest long-term-servicing release at or below its own
 * build up to its own build (a 2025 host, build 26100 and later, no longer
 * runs 2022 images once it is past 26100).
 *
 * Mirrors platform_windows_compat.go of containerd/platforms v1.0.0-rc.4.
 *
 * @module
 */

/** A Windows version read as `major.minor.build`; all zero when unreadable. */
interface WindowsOSVersion {
  readonly major: number;
  readonly minor: number;
  readonly build: number;
}

const ZERO: WindowsOSVersion = { major: 0, minor: 0, build: 0 };

/** Windows Server 2022 (21H2): the first build from which newer hosts accept older images. */
const LTSC_2022 = 20348;
/** Windows Server 2025 (24H2). */
const LTSC_2025 = 26100;

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

/** Mirrors checkWindowsHostAndContainerCompat. */
function compatible(host: WindowsOSVersion, ctr: WindowsOSVersion): boolean {
  if (host.major !== ctr.major || host.minor !== ctr.minor) return false;
  if (host.build < LTSC_2022) return host.build === ctr.build;
  const floor = host.build > LTSC_2025 ? LTSC_2025 : LTSC_2022;
  return floor <= ctr.build && ctr.build <= host.build;
}

/**
 * Returns a check of candidate OS versions against a Windows matcher's own
 * version: an unreadable (zero) matcher version or an empty candidate
 * version always passes. Mirrors windowsVersionMatcher.
 */
export function windowsVersionMatcher(
  matcherVersion: string,
): (candidateVersion: string) => boolean {
  const host = getWindowsOSVersion(matcherVersion);
  if (host.major === 0 && host.minor === 0 && host.build === 0) return () => true;
  return (v) => v === "" || compatible(host, getWindowsOSVersion(v));
}
