/**
 * The pieces of Go's `net` and `net/url` that decide containerd's endpoint
 * list beyond the shared `@kubeimg/core/internal` ones:
 * `ParseIP(...).IsLoopback()` (what counts as local), and the
 * scheme/host/path split `url.Parse` gives a hosts.toml server name, opaque
 * URLs included (`http:x` has no host), read from core's one `url.Parse`.
 */
import { net as goNet, url, utf8 } from "@kubeimg/core/internal";

/** The port `net.SplitHostPort` finds, or `""` when it fails (as containerd ignores the error). */
export function portOf(hostport: string): string {
  return goNet.SplitHostPortLoose(hostport).port;
}

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const part of parts) {
    if (!/^[0-9]{1,3}$/.test(part)) return undefined;
    if (part.length > 1 && part[0] === "0") return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

/** Go's `net.ParseIP` as 16 bytes, or `undefined`. */
function parseIP(s: string): number[] | undefined {
  const v4 = parseIPv4(s);
  if (v4 !== undefined) return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4];
  if (!s.includes(":")) return undefined;
  const bytes: number[] = [];
  let ellipsis = -1;
  let rest = s;
  if (rest.startsWith("::")) {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest === "") return new Array(16).fill(0);
  }
  while (bytes.length < 16) {
    const m = /^[0-9A-Fa-f]{1,4}/.exec(rest);
    if (m === null) return undefined;
    if (m[0].length < rest.length && rest[m[0].length] === ".") {
      if (ellipsis < 0 && bytes.length !== 12) return undefined;
      if (bytes.length + 4 > 16) return undefined;
      const tail = parseIPv4(rest);
      if (tail === undefined) return undefined;
      bytes.push(...tail);
      rest = "";
      break;
    }
    const n = Number.parseInt(m[0], 16);
    bytes.push(n >> 8, n & 0xff);
    rest = rest.slice(m[0].length);
    if (rest === "") break;
    if (rest[0] !== ":" || rest.length === 1) return undefined;
    rest = rest.slice(1);
    if (rest[0] === ":") {
      if (ellipsis >= 0) return undefined;
      ellipsis = bytes.length;
      rest = rest.slice(1);
      if (rest === "") break;
    }
  }
  if (rest !== "") return undefined;
  if (bytes.length < 16) {
    if (ellipsis < 0) return undefined;
    const fill = new Array(16 - bytes.length).fill(0);
    bytes.splice(ellipsis, 0, ...fill);
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return bytes;
}

/** containerd's `docker.IsLocalhost`: `localhost` or a loopback IP, with or without a port. */
export function isLocalhost(hostport: string): boolean {
  const host = goNet.SplitHostPortLoose(hostport).host;
  if (host === "localhost") return true;
  const ip = parseIP(host);
  if (ip === undefined) return false;
  const isV4 = ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
  if (isV4) return ip[12] === 127;
  return ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;
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
  const u = url.Parse(utf8.toByteString(raw));
  if (u === undefined) return undefined;
  return { scheme: u.scheme, host: utf8.fromByteString(u.host), path: utf8.fromByteString(u.path) };
}
