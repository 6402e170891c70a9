import { describe, expect, it } from "vitest";
import { isRestrictedHost } from "./address.js";
import { checkRealm, registrableDomain } from "./realm.js";

const policy = (registry: string, extra: Partial<Parameters<typeof checkRealm>[1]> = {}) => ({
  registry,
  registryScheme: "https" as const,
  allowlist: [],
  allowPrivate: false,
  ...extra,
});

describe("checkRealm", () => {
  it.each([
    { realm: "https://auth.docker.io/token", registry: "registry-1.docker.io", ok: true }, // same registrable domain
    { realm: "https://ghcr.io/token", registry: "ghcr.io", ok: true },
    { realm: "https://gcr.io/v2/token", registry: "us.gcr.io", ok: true }, // parent domain
    { realm: "https://auth.quay.io/t", registry: "quay.io", ok: true }, // subdomain
    { realm: "https://127.0.0.1:5005/token", registry: "127.0.0.1:5004", ok: true }, // same host, any port
    { realm: "http://registry.example.com/token", registry: "registry.example.com", ok: false }, // http for https
    { realm: "https://evil.example/token", registry: "registry.example.com", ok: false },
    { realm: "https://a.co.uk/token", registry: "b.co.uk", ok: false }, // different registrable domains
    { realm: "https://169.254.169.254/token", registry: "registry.example.com", ok: false },
    { realm: "https://localhost/token", registry: "127.0.0.1:5000", ok: false },
    { realm: "https://user:pw@r.io/token", registry: "r.io", ok: false },
    { realm: "not a url", registry: "r.io", ok: false },
  ])("$realm for $registry", ({ realm, registry, ok }) => {
    expect(checkRealm(realm, policy(registry)) === undefined).toBe(ok);
  });

  it("accepts http only for a registry configured as http, and allowlisted hosts", () => {
    expect(
      checkRealm("http://r.io/token", policy("r.io", { registryScheme: "http" })),
    ).toBeUndefined();
    expect(
      checkRealm(
        "https://login.microsoftonline.com/t",
        policy("x.azurecr.io", { allowlist: ["login.microsoftonline.com"] }),
      ),
    ).toBeUndefined();
  });

  it("computes registrable domains with the second-level heuristic", () => {
    expect(registrableDomain("a.b.example.com")).toBe("example.com");
    expect(registrableDomain("registry.example.co.uk")).toBe("example.co.uk");
  });
});

describe("isRestrictedHost", () => {
  it.each([
    { host: "169.254.169.254", want: true },
    { host: "10.1.2.3", want: true },
    { host: "172.16.0.1", want: true },
    { host: "192.168.1.1", want: true },
    { host: "127.0.0.1", want: true },
    { host: "100.64.0.1", want: true },
    { host: "0.0.0.0", want: true },
    { host: "::1", want: true },
    { host: "fd00::1", want: true },
    { host: "fe80::1", want: true },
    { host: "::ffff:10.0.0.1", want: true },
    { host: "localhost", want: true },
    { host: "registry.localhost", want: true },
    { host: "8.8.8.8", want: false },
    { host: "2001:db8::1", want: false },
    { host: "quay.io", want: false },
  ])("$host", ({ host, want }) => {
    expect(isRestrictedHost(host)).toBe(want);
  });
});
