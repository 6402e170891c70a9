/**
 * Go's `net`: `SplitHostPort`, with which the kubelet keyring compares a
 * registry's host and port with a pattern's, and `ParseIP` /
 * `IP.IsLoopback`, with which containerd decides which hosts are local.
 */

/** Go's `net.SplitHostPort`; `undefined` where Go returns an error. */
export function SplitHostPort(hostport: string): { host: string; port: string } | undefined {
  const i = hostport.lastIndexOf(":");
  if (i < 0) return undefined;
  let host: string;
  let j = 0;
  let k = 0;
  if (hostport[0] === "[") {
    const end = hostport.indexOf("]");
    if (end < 0 || end + 1 !== i) return undefined;
    host = hostport.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = hostport.slice(0, i);
    if (host.includes(":")) return undefined;
  }
  if (hostport.slice(j).includes("[") || hostport.slice(k).includes("]")) return undefined;
  return { host, port: hostport.slice(i + 1) };
}

/**
 * `SplitHostPort` falling back as the kubelet keyring does: when the host
 * has no valid port, the whole host and an empty port.
 */
export function SplitHostPortLoose(hostport: string): { host: string; port: string } {
  return SplitHostPort(hostport) ?? { host: hostport, port: "" };
}

/** An IP address as Go's `net.IP` holds it after `ParseIP`: 16 bytes, IPv4 in its IPv4-mapped form. */
export type IP = readonly number[];

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const part of parts) {
    // Go 1.17 and later refuse leading zeros (`010` could mean octal).
    if (!/^[0-9]{1,3}$/.test(part) || (part.length > 1 && part[0] === "0")) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

/**
 * Go's `net.ParseIP`: a dotted IPv4 address (`192.0.2.1`), an IPv6 address
 * (`2001:db8::68`, `::ffff:192.0.2.1`) as 16 bytes, or `undefined` where Go
 * returns nil (no zone, no brackets, no port).
 *
 * @example
 * ```ts
 * import { net } from "@kubeimg/core/internal";
 *
 * net.IsLoopback(net.ParseIP("127.0.0.2") ?? []); // → true
 * net.ParseIP("010.0.0.1"); // → undefined
 * ```
 */
export function ParseIP(s: string): IP | undefined {
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
      // An embedded IPv4 address ends the IPv6 one.
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
    bytes.splice(ellipsis, 0, ...new Array(16 - bytes.length).fill(0));
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return bytes;
}

/** Go's `IP.IsLoopback`: `127.0.0.0/8`, or `::1`. */
export function IsLoopback(ip: IP): boolean {
  const v4 =
    ip.length === 4 ||
    (ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff);
  if (v4) return ip[ip.length - 4] === 127;
  return ip.length === 16 && ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;
}
