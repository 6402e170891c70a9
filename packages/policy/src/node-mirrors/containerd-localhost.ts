/**
 * How containerd reads a host name with Go's `net` and `net/url` (all of
 * them from `@kubeimg/core/internal`): what counts as local
 * (`docker.IsLocalhost`), a host's port, and the scheme/host/path split
 * `url.Parse` gives a hosts.toml server name, opaque URLs included (`http:x`
 * has no host).
 */
import { net as goNet, url, utf8 } from "@kubeimg/core/internal";

/** The port `net.SplitHostPort` finds, or `""` when it fails (as containerd ignores the error). */
export function portOf(hostport: string): string {
  return goNet.SplitHostPortLoose(hostport).port;
}

/** containerd's `docker.IsLocalhost`: `localhost` or a loopback IP, with or without a port. */
export function isLocalhost(hostport: string): boolean {
  const host = goNet.SplitHostPortLoose(hostport).host;
  if (host === "localhost") return true;
  const ip = goNet.ParseIP(host);
  return ip !== undefined && goNet.IsLoopback(ip);
}

/** The parts of a parsed URL containerd uses. */
export interface GoUrlParts {
  readonly scheme: string;
  readonly host: string;
  readonly path: string;
}

/**
 * Go's `url.Parse` (one home: `@kubeimg/core/internal`'s `url.Parse`, over
 * UTF-8 byte strings) reduced to scheme, host and path; `undefined` where Go
 * returns an error. An opaque URL (`http:x`) has an empty host and path.
 */
export function parseGoUrl(raw: string): GoUrlParts | undefined {
  const plain = url.ParsePlain(raw);
  if (plain !== undefined) return plain;
  const u = url.Parse(utf8.toByteString(raw));
  if (u === undefined) return undefined;
  return { scheme: u.scheme, host: text(u.host), path: text(u.path) };
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

function text(bytes: string): string {
  return isAscii(bytes) ? bytes : utf8.fromByteString(bytes);
}
