/**
 * `pnpm --filter @kubeimg/example-image-updater start -- -f flux.yaml [-f more.yaml]
 *   [--insecure-registry HOST]... [--docker-config FILE] [-A] [-o wide|json]`
 *
 * Reads Flux ImageRepository and ImagePolicy objects, lists each
 * repository's tags from its registry, and prints what
 * `kubectl get imagepolicy` would show once Flux has reconciled them.
 * Exits 1 when a policy is not Ready.
 */
import { readFileSync } from "node:fs";
import { createDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
import { exampleArgs, fail, userPath } from "@kubeimg/example-kit";
import { createRegistryClient } from "@kubeimg/registry/client";
import { readFluxObjects } from "./objects.js";
import { formatImagePolicies } from "./print.js";
import { checkImagePolicies } from "./update.js";

const USAGE = `usage: main.ts -f FLUX.yaml [-f MORE.yaml] [--insecure-registry HOST]...
  [--docker-config FILE] [-A] [-o wide|json]
Relative paths are read from the directory the command was started in.`;
const { values } = exampleArgs(
  {
    options: {
      file: { type: "string", short: "f", multiple: true },
      "insecure-registry": { type: "string", multiple: true },
      "docker-config": { type: "string" },
      "all-namespaces": { type: "boolean", short: "A" },
      output: { type: "string", short: "o" },
    },
  },
  USAGE,
);
if (!values.file?.length) fail(USAGE);
try {
  const objects = readFluxObjects(
    values.file.map((f) => readFileSync(userPath(f), "utf8")).join("\n---\n"),
  );
  const registries = Object.fromEntries(
    (values["insecure-registry"] ?? []).map((h) => [
      h,
      { insecure: true, allowPrivateAddress: true },
    ]),
  );
  const dockerConfig = values["docker-config"];
  const keyring = dockerConfig
    ? createDockerKeyring([
        { config: parseDockerConfigJson(readFileSync(userPath(dockerConfig), "utf8")) },
      ])
    : undefined;
  const reports = await checkImagePolicies(objects, {
    client: createRegistryClient({ registries }),
    ...(keyring ? { keyring } : {}),
  });
  if (values.output === "json") {
    const statuses = reports.map((r) => ({
      namespace: r.namespace,
      name: r.name,
      status: r.resolution.status,
    }));
    console.log(JSON.stringify(statuses, null, 2));
  } else {
    process.stdout.write(
      formatImagePolicies(reports, {
        allNamespaces: values["all-namespaces"] === true,
        wide: values.output === "wide",
      }),
    );
  }
  const allReady = reports.every((r) =>
    r.resolution.status.conditions?.some((c) => c.type === "Ready" && c.status === "True"),
  );
  process.exitCode = allReady ? 0 : 1;
} catch (error) {
  console.error(`image-updater: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
