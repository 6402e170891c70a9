/**
 * The pieces of Go's `net` and `net/url` that decide containerd's endpoint
 * list beyond the shared `@kubeimg/core/internal` ones:
 * `ParseIP(...).IsLoopback()` (what counts as local) and the
 * scheme/host/path split `url.Parse` gives a hosts.toml server name, opaque
 * URLs included (`http:x` has no host). Pinned to Go 1.19, which the
 * runtime's behaviour is measured with: a bracketed host is not checked to
 * be an IPv6 address.
 */
import { net as goNet } from "@kubeimg/core/internal";

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

const hostOk = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]$/;

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c);
}

function goUnescape(s: string, mode: "host" | "path" | "user"): string | undefined {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    const c = s[i] as string;
    if (c === "%") {
      if (!isHex(s[i + 1]) || !isHex(s[i + 2])) return undefined;
      const v = Number.parseInt(s.slice(i + 1, i + 3), 16);
      if (mode === "host" && v < 0x80 && s.slice(i, i + 3) !== "%25") return undefined;
      bytes.push(v);
      i += 3;
      continue;
    }
    if (mode === "host" && c.charCodeAt(0) < 0x80 && !hostOk.test(c)) return undefined;
    const cp = s.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    bytes.push(...encoder.encode(ch));
    i += ch.length;
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function validOptionalPort(port: string): boolean {
  if (port === "") return true;
  return /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string | undefined {
  if (host.startsWith("[")) {
    const i = host.lastIndexOf("]");
    if (i < 0) return undefined;
    if (!validOptionalPort(host.slice(i + 1))) return undefined;
    const zone = host.slice(0, i).indexOf("%25");
    if (zone >= 0) {
      const a = goUnescape(host.slice(0, zone), "host");
      const b = goUnescape(host.slice(zone, i), "user");
      const c = goUnescape(host.slice(i), "host");
      return a === undefined || b === undefined || c === undefined ? undefined : a + b + c;
    }
  } else {
    const i = host.lastIndexOf(":");
    if (i >= 0 && !validOptionalPort(host.slice(i))) return undefined;
  }
  return goUnescape(host, "host");
}

/**
 * Go's `url.Parse` reduced to scheme, host and path; `undefined` where Go
 * returns an error. An opaque URL (`http:x`) has an empty host and path.
 */
export function parseGoUrl(raw: string): GoUrlParts | undefined {
  const hash = raw.indexOf("#");
  const u = hash >= 0 ? raw.slice(0, hash) : raw;
  if (hash >= 0 && goUnescape(raw.slice(hash + 1), "user") === undefined) return undefined;
  for (let i = 0; i < u.length; i++) {
    const code = u.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return undefined;
  }
  let scheme = "";
  let rest = u;
  for (let i = 0; i < u.length; i++) {
    const c = u[i] as string;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ":") {
      if (i === 0) return undefined;
      scheme = u.slice(0, i).toLowerCase();
      rest = u.slice(i + 1);
    }
    break;
  }
  const question = rest.indexOf("?");
  if (question >= 0) rest = rest.slice(0, question);
  if (!rest.startsWith("/")) {
    if (scheme !== "") return { scheme, host: "", path: "" };
    const colon = rest.indexOf(":");
    const slash = rest.indexOf("/");
    if (colon >= 0 && (slash < 0 || colon < slash)) return undefined;
  }
  let host = "";
  if ((scheme !== "" || !rest.startsWith("///")) && rest.startsWith("//")) {
    const authorityEnd = rest.indexOf("/", 2);
    const authority = authorityEnd >= 0 ? rest.slice(2, authorityEnd) : rest.slice(2);
    rest = authorityEnd >= 0 ? rest.slice(authorityEnd) : "";
    const at = authority.lastIndexOf("@");
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) return undefined;
      if (goUnescape(userinfo, "user") === undefined) return undefined;
    }
    const parsed = parseHost(at >= 0 ? authority.slice(at + 1) : authority);
    if (parsed === undefined) return undefined;
    host = parsed;
  }
  const path = goUnescape(rest, "path");
  if (path === undefined) return undefined;
  return { scheme, host, path };
}
