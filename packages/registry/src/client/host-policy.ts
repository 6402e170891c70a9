/**
 * Which hosts a client contacts, and how: the registry's URL (Docker Hub's
 * API host, http only when configured), the allow list, the refusal of
 * private and local addresses in every spelling (`../http/address.ts`),
 * the rule every redirect hop is held to, the token-realm policy with its
 * `foreignRealm` fallback, and the optional resolving check.
 *
 * The same rule applies wherever a host comes from: the reference, a
 * redirect `Location`, a `WWW-Authenticate` realm, a redirect of the token
 * request. A host the user did not configure never gets a private address.
 */
import { RegistryError } from "../errors/index.js";
import {
  canonicalHost,
  hostnameOf,
  isIpLiteral,
  isRestrictedHost,
  sameHost,
} from "../http/address.js";
import { checkRealm, type RealmPolicy } from "../http/realm.js";
import { redactUrl } from "../http/redact.js";
import { describeFailure } from "./error-mapping.js";
import type { RegistryClientOptions, RegistryHostOptions } from "./options.js";

const DOCKER_HUB = "docker.io";
const DOCKER_HUB_API = "registry-1.docker.io";

/** A realm the client may ask for a token, and whether credentials may go with the request. */
export interface AuthorizedRealm {
  readonly url: URL;
  /** True when the realm is foreign and `foreignRealm: "anonymous"` applies: no credentials. */
  readonly anonymous: boolean;
}

/** The host rules of one client. */
export class HostPolicy {
  readonly #options: RegistryClientOptions;

  constructor(options: RegistryClientOptions) {
    this.#options = options;
  }

  #host(registry: string): RegistryHostOptions {
    return this.#options.registries?.[registry] ?? {};
  }

  /** True when the registry may be a private or local address. */
  allowPrivate(registry: string): boolean {
    return (
      this.#options.allowPrivateAddresses === true ||
      this.#host(registry).allowPrivateAddress === true
    );
  }

  /** Never HEAD manifests on this registry. */
  disableHead(registry: string): boolean {
    return this.#host(registry).disableHead === true;
  }

  schemeOf(registry: string): "http" | "https" {
    return this.#host(registry).insecure ? "http" : "https";
  }

  /** The URL of `path` on a registry (Docker Hub's API lives on its own host). */
  urlOf(registry: string, path: string): string {
    const host = registry === DOCKER_HUB ? DOCKER_HUB_API : registry;
    return `${this.schemeOf(registry)}://${host}${path}`;
  }

  /** Throws `BLOCKED_HOST` when a call to `registry` is not allowed at all. */
  checkRegistry(registry: string, reference: string): void {
    const allowed = this.#options.allowedRegistries;
    if (allowed && !allowed.includes(registry)) {
      throw new RegistryError(
        "BLOCKED_HOST",
        `registry ${registry} is not in the allowed list: add ${JSON.stringify(registry)} to the client option allowedRegistries`,
        {
          reference,
        },
      );
    }
    if (isRestrictedHost(hostnameOf(registry)) && !this.allowPrivate(registry)) {
      throw new RegistryError(
        "BLOCKED_HOST",
        `registry ${registry} is a private or local address; allow it with the client option registries[${JSON.stringify(registry)}].allowPrivateAddress: true (or allowPrivateAddresses: true for every registry)`,
        { reference },
      );
    }
  }

  /**
   * The rule of resource-request redirects: no https→http downgrade, and no
   * restricted address unless every such address is allowed, or it is the
   * registry's own host.
   */
  redirectRule(registry: string): (target: URL, from: URL) => string | undefined {
    const own = hostnameOf(registry);
    const allowAll = this.#options.allowPrivateAddresses === true;
    return (target, from) => {
      if (from.protocol === "https:" && target.protocol === "http:") {
        return "https to http downgrade";
      }
      if (!allowAll && !sameHost(target.hostname, own) && isRestrictedHost(target.hostname)) {
        return `${target.hostname} is a restricted address`;
      }
      return undefined;
    };
  }

  /** The realm policy for tokens of `registry`. */
  realmPolicy(registry: string): RealmPolicy {
    return {
      registry,
      registryScheme: this.schemeOf(registry),
      allowlist: [
        ...(this.#options.realmAllowlist ?? []),
        ...(this.#host(registry).realmAllowlist ?? []),
      ],
      allowPrivate: this.allowPrivate(registry),
    };
  }

  /**
   * Returns the realm to ask for a token, or throws `REALM_REJECTED`. A realm
   * the policy refuses is still asked anonymously under
   * `foreignRealm: "anonymous"`, when it is an https URL on a host that is
   * not restricted.
   */
  authorizeRealm(realm: string, registry: string, reference: string): AuthorizedRealm {
    const refusal = checkRealm(realm, this.realmPolicy(registry));
    const url = URL.canParse(realm) ? new URL(realm) : undefined;
    if (refusal === undefined && url) return { url, anonymous: false };
    const anonymousOk =
      this.#options.foreignRealm === "anonymous" &&
      url !== undefined &&
      url.protocol === "https:" &&
      url.username === "" &&
      url.password === "" &&
      !isRestrictedHost(url.hostname);
    if (anonymousOk) return { url, anonymous: true };
    throw new RegistryError(
      "REALM_REJECTED",
      `${registry}: token realm refused: ${refusal ?? "the realm is not an absolute URL"}`,
      { url: redactUrl(realm), reference },
    );
  }

  /**
   * The resolving check of one host (the `resolveHost` option), run before
   * every request and redirect hop to a DNS name. IP literals were decided
   * by the rules above; a host allowed to be private is not resolved.
   */
  async checkResolved(
    url: URL,
    registry: string,
    reference: string,
    signal: AbortSignal,
  ): Promise<void> {
    const resolve = this.#options.resolveHost;
    if (!resolve || isIpLiteral(url.hostname)) return;
    if (
      this.#options.allowPrivateAddresses === true ||
      (this.allowPrivate(registry) && sameHost(url.hostname, hostnameOf(registry)))
    ) {
      return;
    }
    const hostname = canonicalHost(url.hostname) ?? url.hostname;
    let addresses: unknown;
    try {
      addresses = await resolve(hostname, { signal });
    } catch (error) {
      if (error instanceof RegistryError) throw error;
      throw new RegistryError(
        "NETWORK_ERROR",
        `cannot resolve ${hostname}: ${describeFailure(error)}`,
        { url: redactUrl(url.href), reference, retryable: true },
      );
    }
    if (!Array.isArray(addresses) || addresses.length === 0) {
      throw new RegistryError("NETWORK_ERROR", `${hostname} resolved to no address`, {
        url: redactUrl(url.href),
        reference,
        retryable: true,
      });
    }
    const restricted = addresses.find((a) => typeof a !== "string" || isRestrictedHost(a));
    if (restricted !== undefined) {
      throw new RegistryError(
        "BLOCKED_HOST",
        `${hostname} resolves to a private or local address (${typeof restricted === "string" ? restricted : "not an address"})`,
        { url: redactUrl(url.href), reference },
      );
    }
  }
}
