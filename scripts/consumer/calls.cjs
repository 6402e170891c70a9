/**
 * One call per published entry point, run by the consumer check
 * (scripts/check-consumer.ts) against the installed tarballs, from an ES
 * module and from CommonJS. Each call gets the entry's module and returns
 * true when it works; an entry without a call here fails the check, so a new
 * subpath cannot ship untried. Plain CommonJS: it runs in the scratch
 * project as it is, without a build.
 */
"use strict";

/** @type {Record<string, (m: any) => boolean | Promise<boolean>>} */
const entryCalls = {
  "@kubeimg/core": (m) =>
    m.isKubeimgError(new Error("x")) === false && typeof m.errorGuard === "function",
  "@kubeimg/core/reference": (m) => m.safeParseNormalizedNamed("nginx").success === true,
  "@kubeimg/core/digest": (m) => m.isValidDigest(`sha256:${"a".repeat(64)}`) === true,
  "@kubeimg/core/regexp": (m) => typeof m.compileRegexp("^a+$") === "object",
  "@kubeimg/core/keyring": (m) => typeof m.parseDockerConfigJson('{"auths":{}}') === "object",
  "@kubeimg/core/platform": (m) =>
    m.formatPlatform(m.parsePlatform("linux/amd64")) === "linux/amd64",
  "@kubeimg/core/internal": (m) => m.strings.Compare("a", "b") === -1,
  // Types only: the module exists and exports no value.
  "@kubeimg/core/ports": (m) => Object.keys(m).filter((k) => k !== "default").length === 0,
  "@kubeimg/policy/semver": (m) => typeof m.parseVersion("1.2.3") === "object",
  "@kubeimg/policy/tags": (m) =>
    m.selectLatestTag(["5.1.2", "5.1.10", "5.2.0"], { policy: { semver: { range: "5.1.x" } } }) ===
    "5.1.10",
  "@kubeimg/policy/tags/argocd": (m) =>
    m.selectArgoTag({ imageName: "nginx:~1.26" }, [{ name: "1.26.1" }, { name: "1.27.0" }]).tag ===
    "1.26.1",
  "@kubeimg/policy/tags/kargo": (m) =>
    m.defaultKargoSubscription({ repoURL: "nginx" }).imageSelectionStrategy === "SemVer",
  "@kubeimg/policy/tags/yaml": (m) => Array.isArray(m.loadTagObjects("")),
  "@kubeimg/policy/tags/dialects": (m) =>
    m.dialectObjectKind({ apiVersion: "kargo.akuity.io/v1alpha1", kind: "Warehouse" }) ===
    "kargo-warehouse",
  "@kubeimg/policy/availability": (m) =>
    typeof m.createMemoryAvailabilityState({ now: Date.now }).peekProbe === "function",
  "@kubeimg/policy/routing": (m) => m.parseKuikConfig({}).routing.activeCheck.timeout === "1s",
  "@kubeimg/policy/routing/yaml": (m) => Array.isArray(m.loadRoutingResources("")),
  "@kubeimg/policy/pull-credentials": (m) =>
    m.createVerificationPolicy({ policy: "NeverVerify" }).name === "NeverVerify",
  "@kubeimg/policy/pull-credentials/fs": (m) =>
    m.storageFileName("testimageref1").startsWith("sha256-d77ed748"),
  "@kubeimg/policy/objects": (m) => m.readYamlDocuments("a: 1\n---\nb: 2\n").ok === true,
  "@kubeimg/policy/node-mirrors": (m) => m.findRegistry({ registries: [] }, "docker.io") === null,
  "@kubeimg/policy/internal": (m) => m.objects.editDistance("registy", "registry") === 1,
  "@kubeimg/policy/internal/availability": (m) =>
    m.verdictKeyString({ image: "nginx:1", credentialSecret: undefined, registry: "docker.io" }) ===
    "nginx:1",
  "@kubeimg/policy/internal/objects": (m) =>
    m.editDistance("registy", "registry") === 1 && m.DEFAULT_MAX_EXPANDED_NODES === 1_000_000,
  "@kubeimg/policy/internal/releases": (m) =>
    m.kubeletReleases.includes("1.36") && m.containersImageReleases.includes("5.40"),
  "@kubeimg/policy/internal/tags": (m) => typeof m.composeReadyMessage === "function",
  "@kubeimg/policy/node-mirrors/fs": async (m) =>
    typeof (await m.readRegistriesConf("/nonexistent/registries.conf")) === "object",
  "@kubeimg/registry/client": (m) =>
    typeof m.keyringCredentials({ lookup: () => [] }) === "function",
  "@kubeimg/registry/adapters": (m) =>
    typeof m.createTagLister({ client: { headManifest() {} } }).listTags === "function",
  // A refusal of a missing client, before any request: a typed error.
  "@kubeimg/registry/platform": async (m) =>
    m.listImagePlatforms(undefined, { domain: "docker.io", path: "library/nginx" }).then(
      () => false,
      (error) => error?.name === "RegistryError",
    ),
  "@kubeimg/redis": (m) =>
    m
      .imageKeys("prod:", {
        image: "quay.io/a/b:1",
        credentialSecret: undefined,
        registry: "quay.io",
      })
      .verdict.startsWith("prod:{i"),
  "@kubeimg/cli": async (m) => {
    let out = "";
    const sink = {
      write: (s) => {
        out += s;
      },
      isTTY: false,
    };
    const code = await m.runCli(["parse", "nginx", "-o", "json"], {
      ...m.nodeIo(),
      stdout: sink,
      stderr: sink,
    });
    return code === 0 && out.includes("docker.io/library/nginx");
  },
};

/**
 * Runs the call of every entry in `entries` with `load` (import or require);
 * returns one line per failure.
 */
async function runEntryCalls(entries, load, mode) {
  const failures = [];
  for (const entry of entries) {
    const call = entryCalls[entry];
    if (call === undefined) {
      failures.push(`${mode} ${entry}: no call in scripts/consumer/calls.cjs`);
      continue;
    }
    try {
      if ((await call(await load(entry))) !== true) failures.push(`${mode} ${entry}: wrong result`);
    } catch (error) {
      failures.push(`${mode} ${entry}: ${error?.message ?? error}`);
    }
  }
  return failures;
}

module.exports = { entryCalls, runEntryCalls };
