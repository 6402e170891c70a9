/**
 * `pnpm --filter @kubeimg/example-admission-webhook start -- --cert tls.crt --key tls.key
 *   -f routing.yaml [options]` (`--help` lists them): the mutating webhook of
 * `manifests/mutating-webhook-configuration.yaml`. Routing objects and pull
 * Secrets are read from files at start (a deployment would watch them
 * through the Kubernetes API). With `--redis-url` (or `REDIS_URL`; the URL,
 * which holds credentials, is never logged) replicas share what they learn
 * of registries; `GET /readyz` answers 503 until that sharing is settled.
 */
import { readFileSync } from "node:fs";
import { parsePullSecret } from "@kubeimg/core/keyring";
import { exampleArgs, fail, userPath } from "@kubeimg/example-kit";
import { createAvailabilityGate } from "@kubeimg/policy/availability";
import { describeYamlProblem, readYamlDocuments } from "@kubeimg/policy/objects";
import { activeCheckTimeoutMs, compileRouting } from "@kubeimg/policy/routing";
import { loadKuikConfig, loadRoutingResources } from "@kubeimg/policy/routing/yaml";
import { createRedisAvailabilityState, RedisStateError } from "@kubeimg/redis";
import { createAvailabilityChecker } from "@kubeimg/registry/adapters";
import { createRegistryClient } from "@kubeimg/registry/client";
import { createPodMutator } from "./mutator.js";
import {
  MAX_BODY_BYTES,
  MAX_BUFFERED_BODY_BYTES,
  MAX_CONNECTIONS,
  startStatsServer,
  startWebhookServer,
} from "./server.js";
import { nodeTimers } from "./timers.js";

const USAGE = `usage: main.ts --cert tls.crt --key tls.key -f routing.yaml [-f more.yaml]
  [--config kuik-config.yaml] [--secrets secrets.yaml] [--port 8443] [--host 0.0.0.0]
  [--insecure-registry HOST]... [--deadline-ms 8000] [--probe-timeout-ms MS]
  [--redis-url URL] [--redis-prefix PREFIX] [--redis-budget-ms 50]
  [--redis-ready-timeout-ms 10000] [--stats-port 9090] [--stats-host 127.0.0.1]
  [--max-connections 2048] [--max-buffered-body-mib 64]
GET /stats is served on --stats-host:--stats-port (plain HTTP; 0: any free port).
Relative paths are read from the directory the command was started in.`;
const { values } = exampleArgs(
  {
    options: {
      cert: { type: "string" },
      key: { type: "string" },
      file: { type: "string", short: "f", multiple: true },
      config: { type: "string" },
      secrets: { type: "string" },
      port: { type: "string", default: "8443" },
      host: { type: "string", default: "0.0.0.0" },
      "insecure-registry": { type: "string", multiple: true },
      "deadline-ms": { type: "string", default: "8000" },
      "probe-timeout-ms": { type: "string" },
      "redis-url": { type: "string" },
      "redis-prefix": { type: "string", default: "kubeimg-webhook:" },
      "redis-budget-ms": { type: "string", default: "50" },
      "stats-port": { type: "string", default: "9090" },
      "stats-host": { type: "string", default: "127.0.0.1" },
      "max-connections": { type: "string", default: String(MAX_CONNECTIONS) },
      "max-buffered-body-mib": {
        type: "string",
        default: String(MAX_BUFFERED_BODY_BYTES / 2 ** 20),
      },
      "redis-ready-timeout-ms": { type: "string", default: "10000" },
    },
  },
  USAGE,
);
/** A whole number in `min..max` given as `--name`; anything else is one line, exit 2. */
const wholeArg = (name: string, text: string | undefined, min: number, max: number): number => {
  const n = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || n < min || n > max) {
    fail(`--${name} must be a whole number in ${min}..${max}, not ${JSON.stringify(text)}`);
  }
  return n;
};
const ms = (name: keyof typeof values & `${string}-ms`) => wholeArg(name, values[name], 1, 600_000);
const deadlineMs = ms("deadline-ms");
const probeTimeoutArg =
  values["probe-timeout-ms"] === undefined ? undefined : ms("probe-timeout-ms");
const redisBudgetMs = ms("redis-budget-ms");
const redisReadyTimeoutMs = ms("redis-ready-timeout-ms");
const port = wholeArg("port", values.port, 0, 65535);
const statsPort = wholeArg("stats-port", values["stats-port"], 0, 65535);
const maxConnections = wholeArg("max-connections", values["max-connections"], 1, 1_000_000);
const maxBufferedBodyMib = wholeArg(
  "max-buffered-body-mib",
  values["max-buffered-body-mib"],
  MAX_BODY_BYTES / 2 ** 20,
  1_048_576,
);
if (!values.cert || !values.key || !values.file?.length) fail(USAGE);
/** Reads a file named on the command line; a missing one is one line, exit 2. */
function readArg(path: string): string {
  try {
    return readFileSync(userPath(path), "utf8");
  } catch (error) {
    return fail(`${path}: ${(error as NodeJS.ErrnoException).code ?? "cannot be read"}`);
  }
}
let config: ReturnType<typeof loadKuikConfig>;
let resources: ReturnType<typeof loadRoutingResources>;
try {
  config = loadKuikConfig(values.config ? readArg(values.config) : "");
  resources = values.file.flatMap((f) => loadRoutingResources(readArg(f)));
} catch (error) {
  const { message, code } = error as { message: string; code?: string };
  fail(code ? `${message} [${code}]` : message);
}
// A cluster's CRs: one user's broken object is skipped and logged, as kuik does.
const routing = compileRouting(resources, { config, invalidResources: "skip" });
const secrets = new Map<string, unknown>();
if (values.secrets) {
  // Policy's bounded reader, as for the routing files; its problems never
  // quote the text, which holds credentials.
  const read = readYamlDocuments(readArg(values.secrets));
  if (!read.ok) fail(`${values.secrets}: ${describeYamlProblem(read.problem)}`);
  for (const [index, value] of read.values.entries()) {
    try {
      const secret = parsePullSecret(value, index);
      secrets.set(`${secret.metadata?.namespace ?? "default"}/${secret.metadata?.name}`, value);
    } catch (error) {
      fail(`${values.secrets}: ${(error as Error).message}`);
    }
  }
}
const probeTimeoutMs = probeTimeoutArg ?? activeCheckTimeoutMs(config);
const log = (line: string) => console.error(`${new Date().toISOString()} ${line}`);
for (const { resource, message } of routing.problems) {
  log(
    `warning: kuik skips ${resource.kind} ${resource.namespace ?? ""}${resource.namespace ? "/" : ""}${resource.name}: ${message}`,
  );
}
const redisUrl = values["redis-url"] ?? process.env.REDIS_URL;
const state = redisUrl
  ? createRedisAvailabilityState({
      url: redisUrl,
      prefix: values["redis-prefix"],
      budgetMs: redisBudgetMs,
      timers: nodeTimers,
      log,
    })
  : undefined;
/** Set once the shared state is ready or has said why it cannot be: `/readyz` waits for it. */
let ready = state === undefined;
const insecure = { insecure: true, allowPrivateAddress: true };
const registries = (values["insecure-registry"] ?? []).map((host) => [host, insecure]);
const checker = createAvailabilityGate(
  createAvailabilityChecker({
    client: createRegistryClient({ registries: Object.fromEntries(registries) }),
    // The gate's probe timeout decides (it reads an answer already received
    // first); the checker's own only backs it up.
    timeoutMs: probeTimeoutMs + 1000,
    getSecret: async (ref) => secrets.get(`${ref.namespace}/${ref.name}`),
  }),
  { timers: nodeTimers, probeTimeoutMs, ...(state ? { state } : {}) },
);
const server = await startWebhookServer({
  cert: readArg(values.cert),
  key: readArg(values.key),
  port,
  host: values.host,
  mutator: createPodMutator({ routing, checker, timers: nodeTimers, log, deadlineMs }),
  log,
  maxConnections,
  maxBufferedBodyBytes: maxBufferedBodyMib * 2 ** 20,
  ready: () => ready,
}).catch((error: NodeJS.ErrnoException) =>
  fail(`--host ${values.host} --port ${port}: ${error.code ?? error.message}`),
);
// The operators' counters, apart from the webhook's port: anyone who
// reaches the Service reaches that one.
const stats = await startStatsServer({
  port: statsPort,
  host: values["stats-host"],
  log,
  stats: () => ({
    gate: checker.stats(),
    state: state?.stats(),
    mode: state?.mode ?? "local",
    rss: process.memoryUsage.rss(),
    intake: server.intake(),
  }),
}).catch((error: NodeJS.ErrnoException) =>
  fail(
    `--stats-host ${values["stats-host"]} --stats-port ${statsPort}: ${error.code ?? error.message}`,
  ),
);
log(
  `kubeimg admission webhook listening on :${server.port} (POST /mutate-pods, GET /healthz, GET /readyz); statistics on http://${stats.host}:${stats.port}/stats; availability state: ${state ? "shared through Redis (connecting)" : "this process"}`,
);
if (state) {
  try {
    const { attempts } = await state.ready({ timeoutMs: redisReadyTimeoutMs });
    log(`availability state: sharing through Redis (answered after ${attempts} attempt(s)); ready`);
  } catch (error) {
    if (!(error instanceof RedisStateError)) throw error;
    // Fail safe: a replica that cannot share still decides, from its own memory.
    log(
      `availability state: not sharing through Redis [${error.code}]: ${error.message}; answering from this replica's memory and retrying; ready`,
    );
  }
  ready = true;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(
    signal,
    () =>
      void Promise.all([server.close(), stats.close()])
        .then(() => state?.close())
        .then(() => process.exit(0)),
  );
}
