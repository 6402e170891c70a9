import { describe, expect, it } from "vitest";
import { compileAllowlist, parseAllowlistPattern, validateAllowlistPatterns } from "./allowlist.js";
import { kubeletPullCredentialsConfigSchema, parseKubeletPullCredentialsConfig } from "./config.js";
import { isPullCredentialsConfigError } from "./errors.js";
import { createVerificationPolicy, validateVerificationConfig } from "./policy.js";

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (e) {
    return isPullCredentialsConfigError(e) ? e.code : `unexpected: ${String(e)}`;
  }
}

describe("parseAllowlistPattern (the kubelet's getAllowlistImagePattern)", () => {
  it.each([
    { pattern: "registry.io/*", kind: "prefix", value: "registry.io/" },
    { pattern: "registry.io/team/*", kind: "prefix", value: "registry.io/team/" },
    { pattern: "docker.io/library/nginx", kind: "absolute", value: "docker.io/library/nginx" },
    { pattern: "localhost/app", kind: "absolute", value: "localhost/app" },
    { pattern: "localhost:5000/app", kind: "absolute", value: "localhost:5000/app" },
    // An upper-case first component is a domain, and stays as written.
    { pattern: "Registry.Example.com/app", kind: "absolute", value: "Registry.Example.com/app" },
    // Wildcards are only checked for stray `*` and a non-empty host part.
    { pattern: "a b/*", kind: "prefix", value: "a b/" },
    { pattern: "//*", kind: "prefix", value: "//" },
  ])("accepts $pattern", ({ pattern, kind, value }) => {
    expect(parseAllowlistPattern(pattern)).toEqual({ pattern, kind, value });
  });

  it.each([
    {
      pattern: "nginx",
      message: "neither tag nor digest is accepted in an image reference: nginx",
    },
    { pattern: "docker.io/nginx", message: /neither tag nor digest/ },
    { pattern: "index.docker.io/library/nginx", message: /neither tag nor digest/ },
    { pattern: "registry.io", message: /neither tag nor digest/ },
    { pattern: "registry.io/", message: /failed to parse as an image name/ },
    { pattern: "registry.io/App", message: /failed to parse as an image name/ },
    { pattern: "registry.io/app:1", message: /neither tag nor digest/ },
    { pattern: "registry.io/*/app", message: /only patterns ending with '\/\*' are allowed/ },
    { pattern: "registry.io/app*", message: /only patterns ending with/ },
    { pattern: "registry.io/**", message: /only patterns ending with/ },
    { pattern: "*", message: /only patterns ending with/ },
    { pattern: "/*", message: "at least registry hostname is required" },
    { pattern: "", message: "the supplied pattern is too short: " },
    { pattern: " registry.io/*", message: /leading\/trailing spaces/ },
    { pattern: "registry.io/app\u00a0", message: /leading\/trailing spaces/ }, // Go's unicode.IsSpace
    { pattern: "registry.io/app\u0085", message: /leading\/trailing spaces/ },
  ])("rejects $pattern", ({ pattern, message }) => {
    let error: unknown;
    try {
      parseAllowlistPattern(pattern, 3);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "INVALID_ALLOWLIST", value: pattern, index: 3 });
    if (typeof message === "string") expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(message);
  });

  it("does not treat U+FEFF as Go whitespace", () => {
    expect(() => parseAllowlistPattern("\ufeffregistry.io/*")).not.toThrow();
  });
});

describe("allowlist matching", () => {
  const patterns = ["docker.io/library/nginx", "registry.example.com/team/*", "registry.io/*"];
  it.each([
    // v1.35: the raw pod image string.
    { image: "docker.io/library/nginx", v135: true, v136: true },
    { image: "docker.io/library/nginx:1.25", v135: false, v136: true },
    { image: "nginx", v135: false, v136: true },
    { image: "nginx:1.25", v135: false, v136: true },
    { image: "registry.example.com/team/app:1", v135: true, v136: true },
    { image: "registry.example.com/team-b/app:1", v135: false, v136: false },
    { image: "registry.io:5000/x", v135: false, v136: false },
    { image: `registry.io/a/b@sha256:${"a".repeat(64)}`, v135: true, v136: true },
    { image: "Not A Reference", v135: false, v136: false },
  ])("$image", ({ image, v135, v136 }) => {
    expect(compileAllowlist(patterns).matches(image)).toBe(v135);
    expect(compileAllowlist(patterns, { matching: "v1.36" }).matches(image)).toBe(v136);
  });
});

describe("createVerificationPolicy", () => {
  it.each([
    { policy: "NeverVerify", pulled: [false, false] },
    { policy: "NeverVerifyPreloadedImages", pulled: [false, true] },
    { policy: "", pulled: [false, true] },
    { policy: undefined, pulled: [false, true] },
    { policy: "AlwaysVerify", pulled: [true, true] },
  ])(
    "$policy: requires verification for [preloaded, kubelet-pulled] = $pulled",
    ({ policy, pulled }) => {
      const p = createVerificationPolicy({ policy });
      expect([
        p.requiresVerification("nginx", false),
        p.requiresVerification("nginx", true),
      ]).toEqual(pulled);
    },
  );

  it("NeverVerifyAllowlistedImages ignores whether the kubelet pulled the image", () => {
    const p = createVerificationPolicy({
      policy: "NeverVerifyAllowlistedImages",
      allowlist: ["registry.io/*"],
    });
    expect(p.requiresVerification("registry.io/a", true)).toBe(false);
    expect(p.requiresVerification("other.io/a", false)).toBe(true);
  });

  it.each([
    { options: { policy: "neververify" }, code: "UNKNOWN_POLICY" },
    { options: { policy: "Always" }, code: "UNKNOWN_POLICY" },
    {
      options: { policy: "AlwaysVerify", allowlist: ["registry.io/*"] },
      code: "ALLOWLIST_REQUIRES_ALLOWLIST_POLICY",
    },
    { options: { allowlist: ["registry.io/*"] }, code: "ALLOWLIST_REQUIRES_ALLOWLIST_POLICY" },
    {
      options: { policy: "NeverVerifyAllowlistedImages", allowlist: ["ok.io/*", "nginx"] },
      code: "INVALID_ALLOWLIST",
    },
    // The policy is checked before the allowlist.
    { options: { policy: "bogus", allowlist: ["nginx"] }, code: "UNKNOWN_POLICY" },
    { options: { policy: "NeverVerifyAllowlistedImages", allowlist: [] }, code: undefined },
  ])("$options → $code", ({ options, code }) => {
    expect(codeOf(() => createVerificationPolicy(options))).toBe(code);
  });
});

describe("kubelet configuration fields", () => {
  it("defaults the policy and passes other fields through the schema", () => {
    expect(kubeletPullCredentialsConfigSchema.parse({ kind: "KubeletConfiguration" })).toEqual({
      imagePullCredentialsVerificationPolicy: "NeverVerifyPreloadedImages",
      preloadedImagesVerificationAllowlist: [],
    });
  });

  it("reports the kubelet code and the offending pattern as a zod issue", () => {
    const r = kubeletPullCredentialsConfigSchema.safeParse({
      imagePullCredentialsVerificationPolicy: "NeverVerifyAllowlistedImages",
      preloadedImagesVerificationAllowlist: ["registry.io/*", "registry.io/app:1"],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({
      path: ["preloadedImagesVerificationAllowlist", 1],
      params: { code: "INVALID_ALLOWLIST", value: "registry.io/app:1" },
    });
  });

  it("rejects wrong types with a field name", () => {
    expect(
      codeOf(() =>
        parseKubeletPullCredentialsConfig({ preloadedImagesVerificationAllowlist: "x" }),
      ),
    ).toBe("INVALID_CONFIG");
  });

  it.each([
    {
      input: { imagePullCredentialsVerificationPolicy: "AlwaysVerify" },
      code: "REQUIRES_FEATURE_GATE",
    },
    {
      input: { preloadedImagesVerificationAllowlist: ["registry.io/*"] },
      code: "REQUIRES_FEATURE_GATE",
    },
    { input: {}, code: undefined },
  ])("feature gate off: $input → $code", ({ input, code }) => {
    expect(codeOf(() => parseKubeletPullCredentialsConfig(input, { featureGate: false }))).toBe(
      code,
    );
  });
});

describe("validateVerificationConfig and validateAllowlistPatterns", () => {
  it("defaults an empty policy to the kubelet's NeverVerifyPreloadedImages", () => {
    expect(validateVerificationConfig({ policy: "" })).toEqual({
      policy: "NeverVerifyPreloadedImages",
      allowlist: [],
    });
    expect(createVerificationPolicy({ policy: "" }).name).toBe("NeverVerifyPreloadedImages");
  });

  it("accepts a valid list and names the first bad pattern by index", () => {
    expect(() =>
      validateAllowlistPatterns(["docker.io/library/nginx", "registry.example.com/*"]),
    ).not.toThrow();
    expect(() => validateAllowlistPatterns(["registry.example.com/*", "nginx"])).toThrow(
      expect.objectContaining({ code: "INVALID_ALLOWLIST", index: 1, value: "nginx" }),
    );
  });

  it.each([
    {
      run: () => createVerificationPolicy({ policy: "bogus" }),
      field: "imagePullCredentialsVerificationPolicy",
    },
    { run: () => parseAllowlistPattern("nginx"), field: "preloadedImagesVerificationAllowlist" },
  ])("names the KubeletConfiguration field $field", ({ run, field }) => {
    expect(run).toThrow(expect.objectContaining({ field }));
  });
});
