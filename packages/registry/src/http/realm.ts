/**
 * The token-realm policy. A `WWW-Authenticate` realm tells the client where
 * to send credentials; a registry (or a man in the middle, or a foreign
 * layer URL) naming a host it does not own is the credential-exfiltration
 * channel of containerd CVE-2020-15157 and go-containerregistry#2193. The
 * realm must be https (http only when the registry itself is configured
 * http) and on the registry's host name (any port), a sub- or parent
 * domain of it, the same registrable domain, or a configured host.
 */
import { canonicalHost, hostnameOf, isIpLiteral, isRestrictedHost, sameHost } from "./address.js";

/**
 * Second-level labels under which registrations happen one level deeper
 * (`example.co.uk`): without a public-suffix list, "registrable domain"
 * takes three labels when the middle one is one of these and the top-level
 * label has two letters. A heuristic; anything else goes in the allowlist.
 */
const secondLevelRegistries = /*#__PURE__*/ new Set([
  "co",
  "com",
  "net",
  "org",
  "gov",
  "edu",
  "ac",
  "or",
  "ne",
  "go",
]);

/** Returns the registrable domain of a DNS name (heuristic, see above). */
export function registrableDomain(hostname: string): string {
  const labels = hostname.toLowerCase().replace(/\.$/, "").split(".");
  if (labels.length <= 2) return labels.join(".");
  const top = labels[labels.length - 1] ?? "";
  const second = labels[labels.length - 2] ?? "";
  const take = top.length === 2 && secondLevelRegistries.has(second) ? 3 : 2;
  return labels.slice(-take).join(".");
}

/** What a realm is checked against. */
export interface RealmPolicy {
  /** The registry as in references (`host[:port]`). */
  readonly registry: string;
  readonly registryScheme: "https" | "http";
  /** Extra realm hosts (`host` or `host:port`). */
  readonly allowlist: readonly string[];
  /** Whether a realm may be a restricted address. */
  readonly allowPrivate: boolean;
}

/**
 * Why a realm (or a redirect of a token request) was refused, or
 * `undefined` when it is acceptable. Hosts are compared as the URL parser
 * normalises them, so `127.1` and `127.0.0.1` are one host.
 */
export function checkRealm(realm: string, options: RealmPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(realm);
  } catch {
    return "the realm is not an absolute URL";
  }
  if (
    url.protocol !== "https:" &&
    !(url.protocol === "http:" && options.registryScheme === "http")
  ) {
    return `the realm scheme ${url.protocol} is not allowed (https only, http only for a registry configured as http)`;
  }
  if (url.username || url.password) return "the realm carries userinfo";
  const realmHost = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  const registryName = hostnameOf(options.registry);
  if (sameHost(url.hostname, registryName)) return undefined;
  const registryHost = (canonicalHost(registryName) ?? registryName)
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  const allowed = options.allowlist.some((entry) => {
    const e = entry.toLowerCase();
    return e === realmHost || e === url.host || sameHost(entry, url.hostname);
  });
  if (allowed) return undefined;
  if (isIpLiteral(realmHost) || isIpLiteral(registryHost)) {
    return `the realm host ${realmHost} is not the registry host ${registryHost}`;
  }
  if (isRestrictedHost(realmHost) && !options.allowPrivate) {
    return `the realm host ${realmHost} is a restricted address`;
  }
  const related =
    realmHost.endsWith(`.${registryHost}`) ||
    registryHost.endsWith(`.${realmHost}`) ||
    registrableDomain(realmHost) === registrableDomain(registryHost);
  return related
    ? undefined
    : `the realm host ${realmHost} is not related to the registry host ${registryHost}`;
}
