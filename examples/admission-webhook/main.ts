/**
 * `pnpm --filter @kubeimg/example-admission-webhook start -- --cert tls.crt --key tls.key
 *   -f routing.yaml [-f more.yaml] [--config kuik-config.yaml] [--secrets secrets.yaml]
 *   [--port 8443] [--insecure-registry HOST]...`
 *
 * Serves the mutating webhook of `manifests/mutating-webhook-configuration.yaml`.
 * Routing objects and pull Secrets are read from files at start (a real
 * deployment would watch them through the Kubernetes API).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { pullSecretSchema } from "@kubeimg/core/keyring";
import {
  activeCheckTimeoutMs,
  compileRouting,
  createAvailabilityGate,
  loadKuikConfig,
  loadRoutingResources,
} from "@kubeimg/policy/routing";
import { createAvailabilityChecker } from "@kubeimg/registry/adapters";
import { createRegistryClient } from "@kubeimg/registry/client";
import { parseAllDocuments } from "yaml";
import { createPodMutator } from "./mutator.js";
import { startWebhookServer } from "./server.js";
import { nodeTimers } from "./timers.js";

// `pnpm start -- --flag` passes the `--` through; it is not an argument here.
const argv = process.argv.slice(2);
const { values } = parseArgs({
  args: argv[0] === "--" ? argv.slice(1) : argv,
  options: {
    cert: { type: "string" },
    key: { type: "string" },
    file: { type: "string", short: "f", multiple: true },
    config: { type: "string" },
    secrets: { type: "string" },
    port: { type: "string", default: "8443" },
    "insecure-registry": { type: "string", multiple: true },
  },
});
if (!values.cert || !values.key || !values.file?.length) {
  console.error("usage: main.ts --cert tls.crt --key tls.key -f routing.yaml [--config kuik.yaml]");
  process.exit(2);
}
const config = loadKuikConfig(values.config ? readFileSync(values.config, "utf8") : "");
const resources = values.file.flatMap((f) => loadRoutingResources(readFileSync(f, "utf8")));
const routing = compileRouting(resources, { config });
const secrets = new Map<string, unknown>();
if (values.secrets) {
  for (const doc of parseAllDocuments(readFileSync(values.secrets, "utf8"))) {
    const secret = pullSecretSchema.parse(doc.toJS());
    secrets.set(`${secret.metadata?.namespace ?? "default"}/${secret.metadata?.name}`, doc.toJS());
  }
}
const probeTimeoutMs = activeCheckTimeoutMs(config);
const client = createRegistryClient({
  registries: Object.fromEntries(
    (values["insecure-registry"] ?? []).map((h) => [
      h,
      { insecure: true, allowPrivateAddress: true },
    ]),
  ),
});
const checker = createAvailabilityGate(
  createAvailabilityChecker({
    client,
    timeoutMs: probeTimeoutMs,
    getSecret: async (ref) => secrets.get(`${ref.namespace}/${ref.name}`),
  }),
  { timers: nodeTimers, probeTimeoutMs },
);
const log = (line: string) => console.error(`${new Date().toISOString()} ${line}`);
const server = await startWebhookServer({
  cert: readFileSync(values.cert),
  key: readFileSync(values.key),
  port: Number(values.port),
  mutator: createPodMutator({ routing, checker, timers: nodeTimers, log }),
  log,
});
log(`kubeimg admission webhook listening on :${server.port} (POST /mutate-pods, GET /healthz)`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
