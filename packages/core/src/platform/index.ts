/**
 * Container platforms exactly as containerd reads them: specifiers such as
 * `linux/arm64/v8` or `windows(10.0.17763+win32k)/amd64`, their canonical
 * form (`aarch64` is `arm64`, `x86_64` is `amd64`), and the matchers and
 * orderings a runtime uses to pick the manifest of an image index for a node.
 *
 * This is a port of `github.com/containerd/platforms` **v1.0.0-rc.5**
 * (the default) and **v1.0.0-rc.4** (commit 09756f5, which the shared
 * conformance vectors were produced by), chosen with the `platforms`
 * option. The two differ only in which Windows builds a host past the newest
 * long-term-servicing build accepts (see {@link PlatformsRelease}). Earlier
 * releases answer differently. v1.0.0-rc.3 printed
 * empty and repeated features and did not ignore `win32k`; rc.2 and rc.1
 * know no OS features at all and order Windows builds differently; v0.2.1,
 * which Kargo still pins next to containerd 1.7, refuses `.` in a specifier
 * piece (`linux/arm64/v8.2`), does not fold `v8.0` or `v9.0`, gives arm64
 * no older-variant fallbacks, and ignores Windows OS versions unless the
 * program runs on Windows (185 of the 788 vectors differ). A tool that must
 * agree with an older binary should expect those differences.
 *
 * The one deliberate departure: containerd reads the host platform from the
 * running process; here it is the `host` option, because the machine that
 * evaluates a policy is rarely the node that pulls the image.
 *
 * @module
 */
export {
  allPlatforms,
  anyOf,
  defaultMatcher,
  only,
  onlyOS,
  onlyStrict,
  ordered,
  type PlatformMatchComparer,
  windowsHost,
} from "./compare.js";
export { PlatformError } from "./errors.js";
export { formatAllPlatform, formatPlatform } from "./format.js";
export { newMatcher, type PlatformMatcher } from "./matcher.js";
export { normalizePlatform } from "./normalize.js";
export {
  orderIndexEntries,
  selectPlatform,
  sortPlatforms,
} from "./order.js";
export { parseAllPlatforms, parsePlatform, safeParsePlatform } from "./parse.js";
export {
  type HostPlatform,
  type Platform,
  type PlatformInput,
  type PlatformOptions,
  type PlatformsRelease,
  platformsReleases,
} from "./platform.js";
