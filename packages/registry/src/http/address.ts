/**
 * Which hosts the client may talk to. Image references are user input (any
 * pod author picks the registry host), so IP literals in loopback, private,
 * link-local (cloud metadata), shared, unique-local, multicast or
 * unspecified ranges and `localhost` names are refused unless configured.
 *
 * The decision is made on the host as the WHATWG URL parser normalises it,
 * which is the host `fetch` connects to: `2130706433`, `127.1`, `0x7f.1`,
 * `0177.0.0.1` and `0` are all IPv4 addresses to it (`127.0.0.1`,
 * `0.0.0.0`), and `[0:0::1]` is `[::1]`. Checking the text as written lets
 * every such spelling through. IPv6 addresses that carry an IPv4 address
 * (mapped `::ffff:0:0/96`, compatible `::/96`, translated `::ffff:0:0:0/96`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`) are judged by
 * the IPv4 address they lead to.
 *
 * What this cannot see: a DNS name that resolves to a private address (a
 * name the attacker controls, or DNS rebinding between a check and the
 * connection). The client's `resolveHost` option runs a resolving check on
 * every host it contacts; only a `fetch` whose connections are pinned to
 * the checked addresses closes the rebinding window entirely.
 */

import { checkArgument } from "../errors/registry-error.js";

/** One IPv4 range in CIDR form, as a 32-bit base and a prefix length. */
type Ipv4Range = readonly [base: number, prefix: number];

const v4 = (a: number, b: number, c: number, d: number) =>
  ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** IPv4 ranges that are not the public internet (RFC 6890 and friends). */
const restrictedIpv4: readonly Ipv4Range[] = [
  [v4(0, 0, 0, 0), 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  [v4(10, 0, 0, 0), 8], // private
  [v4(100, 64, 0, 0), 10], // shared address space (CGNAT)
  [v4(127, 0, 0, 0), 8], // loopback
  [v4(169, 254, 0, 0), 16], // link-local, cloud metadata (169.254.169.254)
  [v4(172, 16, 0, 0), 12], // private
  [v4(192, 0, 0, 0), 16], // IETF protocol assignments, TEST-NET-1 and neighbours
  [v4(192, 168, 0, 0), 16], // private
  [v4(198, 18, 0, 0), 15], // benchmarking
  [v4(224, 0, 0, 0), 3], // multicast (224/4), reserved (240/4) and broadcast
];

function inRange(address: number, [base, prefix]: Ipv4Range): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (address & mask) >>> 0 === base;
}

function isRestrictedIpv4(address: number): boolean {
  return restrictedIpv4.some((range) => inRange(address, range));
}

/** The 32-bit value of a dotted-decimal IPv4 address as WHATWG serialises it, or undefined. */
function parseSerializedIpv4(host: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  const [a = 0, b = 0, c = 0, d = 0] = octets;
  return v4(a, b, c, d);
}

/** The eight 16-bit groups of an IPv6 address as WHATWG serialises it (compressed hex, no brackets). */
function parseSerializedIpv6(host: string): number[] | undefined {
  const halves = host.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string | undefined) =>
    part === undefined || part === "" ? [] : part.split(":");
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0) return undefined;
  const all = [...head, ...Array<string>(fill).fill("0"), ...tail];
  if (all.length !== 8 || all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => Number.parseInt(g, 16));
}

const join32 = (high: number, low: number) => ((high << 16) | low) >>> 0;

function isRestrictedIpv6(g: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = join32(g6, g7);
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, which includes :: and ::1).
    if (g5 === 0xffff || g5 === 0) return isRestrictedIpv4(embedded);
    return true; // the rest of ::/80 is reserved
  }
  // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765).
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) {
    return isRestrictedIpv4(embedded);
  }
  // 64:ff9b::/96 (NAT64 well-known prefix) leads to the embedded address; 64:ff9b:1::/48 is local use.
  if (g0 === 0x64 && g1 === 0xff9b) {
    return !(g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) || isRestrictedIpv4(embedded);
  }
  if (g0 === 0x2002) return isRestrictedIpv4(join32(g1, g2)); // 6to4
  if (g0 === 0x2001 && g1 === 0) return isRestrictedIpv4(~embedded >>> 0); // Teredo client
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // discard-only
  return (
    (g0 & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (g0 & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (g0 & 0xffc0) === 0xfec0 || // site-local fec0::/10 (deprecated, still routed by some)
    (g0 & 0xff00) === 0xff00 // multicast
  );
}

/**
 * Returns the host as the WHATWG URL parser (and so `fetch`) reads it:
 * lower case, IPv4 in dotted decimal, IPv6 compressed in brackets; or
 * `undefined` when no URL can have this host.
 */
export function canonicalHost(hostname: string): string | undefined {
  checkArgument(
    typeof hostname === "string",
    "canonicalHost",
    hostname,
    "the host must be a string",
  );
  if (hostname === "" || /[/?#@\\\s]/.test(hostname)) return undefined;
  const bracketed =
    hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  try {
    const url = new URL(`http://${bracketed}/`);
    // A port or anything else the parser took out of the text means this was not one host.
    return url.port === "" && url.pathname === "/" ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** Returns the host name of a `host[:port]` authority, without IPv6 brackets. */
export function hostnameOf(authority: string): string {
  if (authority.startsWith("[")) return authority.slice(1, authority.indexOf("]"));
  const colon = authority.lastIndexOf(":");
  return colon >= 0 ? authority.slice(0, colon) : authority;
}

/** Returns true when two host names are the same host once normalised (`127.1` and `127.0.0.1`). */
export function sameHost(a: string, b: string): boolean {
  const ca = canonicalHost(a);
  return ca !== undefined && ca.replace(/\.$/, "") === canonicalHost(b)?.replace(/\.$/, "");
}

/** Returns true when `hostname` is an IP literal (v4 in any spelling, or v6). */
export function isIpLiteral(hostname: string): boolean {
  const host = canonicalHost(hostname);
  return host !== undefined && (host.startsWith("[") || parseSerializedIpv4(host) !== undefined);
}

/**
 * Returns true when `hostname` must not be contacted without explicit
 * configuration: a non-public IP address in any spelling the URL parser
 * accepts, `localhost` or `*.localhost`, or a host no URL can carry.
 */
export function isRestrictedHost(hostname: string): boolean {
  checkArgument(
    typeof hostname === "string",
    "isRestrictedHost",
    hostname,
    "the host must be a string",
  );
  const host = canonicalHost(hostname);
  if (host === undefined) return true;
  if (host.startsWith("[")) {
    const groups = parseSerializedIpv6(host.slice(1, -1));
    return groups === undefined || isRestrictedIpv6(groups);
  }
  const address = parseSerializedIpv4(host);
  if (address !== undefined) return isRestrictedIpv4(address);
  const name = host.replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}
