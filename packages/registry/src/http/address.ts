/**
 * Which hosts the client may talk to. Image references are user input (any
 * pod author picks the registry host), so IP literals in loopback, private,
 * link-local (cloud metadata), shared, unique-local or unspecified ranges
 * and `localhost` names are refused unless configured.
 */

function ipv4Octets(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

function isPrivateIPv4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 || // "this network", 0.0.0.0
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // shared address space (CGNAT)
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224 // multicast and reserved
  );
}

function isPrivateIPv6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "::" || h === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped?.[1]) {
    const octets = ipv4Octets(mapped[1]);
    return octets ? isPrivateIPv4(octets) : true;
  }
  return /^(fc|fd)/.test(h) || /^fe[89ab]/.test(h) || /^ff/.test(h);
}

/** Returns the host name of a `host[:port]` authority, without IPv6 brackets. */
export function hostnameOf(authority: string): string {
  if (authority.startsWith("[")) return authority.slice(1, authority.indexOf("]"));
  const colon = authority.lastIndexOf(":");
  return colon >= 0 ? authority.slice(0, colon) : authority;
}

/** Returns true when `hostname` is an IP literal (v4 or v6). */
export function isIpLiteral(hostname: string): boolean {
  return ipv4Octets(hostname) !== undefined || hostname.includes(":");
}

/**
 * Returns true when `hostname` must not be contacted without explicit
 * configuration: a non-public IP literal, or `localhost` / `*.localhost`.
 *
 * @example
 * ```ts
 * isRestrictedHost("169.254.169.254"); // true (cloud metadata)
 * isRestrictedHost("quay.io");         // false
 * ```
 */
export function isRestrictedHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  const v4 = ipv4Octets(h);
  if (v4) return isPrivateIPv4(v4);
  if (h.includes(":")) return isPrivateIPv6(h);
  return false;
}
