/**
 * `pnpm --filter @kubeimg/example-admission-webhook load-test [-- --reviews 1000
 *   --containers 50 --deadline-ms 2000 [--api-timeout-ms MS] --max-rss-mb 512 --clients 2
 *   --client-nice 0 --noop]`
 *
 * The webhook under an API server's worst day, on loopback only: `--reviews`
 * AdmissionReviews of Pods with `--containers` containers each, all sent at
 * once to one webhook process, whose every image is mirrored first on a
 * registry that accepts connections and never answers, then on one that
 * answers after 700 ms. The client is `--clients` processes, each with its
 * own keep-alive agent, at CPU priority `--client-nice` (0; a positive
 * value makes them take what the webhook leaves on a small machine, as an
 * API server on machines of its own would, but starves them on a busy one). Bounded in count (`--reviews` ≤ 5,000) and time:
 * each review is cut off at its deadline plus five seconds, and the whole
 * run at `--time-limit-s`.
 *
 * The acceptance figure is the webhook's own: from a review's arrival (the
 * moment its deadline starts) to its whole answer handed to the socket.
 * The run holds when every review is answered (HTTP 200, allowed, its own
 * uid) and the webhook's slowest answer is within its deadline + 100 ms, the
 * process is still up afterwards, and its peak RSS (VmHWM) stays under
 * `--max-rss-mb`; it exits 1 otherwise. The client's own latencies, which
 * add the time requests wait in the client and in sockets, are printed
 * beside them, with every process's event-loop delay. `--noop` runs the same
 * harness against a webhook that admits everything at once: the floor of
 * what this machine and client can show.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { sendFromPool } from "./client-pool.js";
import {
  quantile,
  type ReplicaStats,
  type ReviewOutcome,
  startRegistryProcess,
  startReplica,
  writeCertificate,
  writeRouting,
} from "./cluster.js";
import type { TimingSummary, WebhookTiming } from "./measure.js";

const noopPath = join(fileURLToPath(new URL(".", import.meta.url)), "noop-webhook.ts");

/** Options of {@link runLoadTest}. */
export interface LoadTestOptions {
  readonly reviews: number;
  readonly containers: number;
  readonly deadlineMs: number;
  /**
   * The API server's webhook timeout, as the client sees it (default: none).
   * When given, the run also holds only if every answer reached the client
   * within it + 100 ms: the webhook's own `deadlineMs` must then be set
   * below it by the time requests wait before the webhook reads them, as a
   * deployment sets `--deadline-ms` below `timeoutSeconds`.
   */
  readonly apiTimeoutMs?: number;
  readonly probeTimeoutMs: number;
  readonly slowMs: number;
  /** Distinct images the Pods draw from. */
  readonly images: number;
  readonly maxRssBytes: number;
  /** Client processes (default 2). */
  readonly clients?: number;
  /** The client processes' `nice` value (default 0; see `sendFromPool`). */
  readonly clientNice?: number;
  /** Runs the no-op floor (`noop-webhook.ts`) instead of the webhook. */
  readonly noop?: boolean;
  /** Extra Node flags for the webhook process (`--cpu-prof`, `--trace-gc`). */
  readonly nodeArgs?: readonly string[];
}

/** What the client processes saw. */
export interface ClientSide {
  /** Milliseconds from writing a request to the end of its answer. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Milliseconds until the client had handed a whole request to its socket. */
  readonly sentP50: number;
  readonly sentP99: number;
  /** Reviews whose answer the client saw after the API server's timeout (or the deadline) + 100 ms. */
  readonly late: number;
  /** Each client process's event-loop delay while sending, max over them, in ms. */
  readonly loopDelayMaxMs: number;
}

/** What {@link runLoadTest} measured. */
export interface LoadTestReport {
  readonly options: LoadTestOptions;
  readonly outcomes: readonly ReviewOutcome[];
  /**
   * The acceptance figure: the webhook's answer times, from a review's
   * arrival (where its deadline starts) to its answer handed to the socket.
   */
  readonly webhook: TimingSummary;
  /** The same from the arrival of each request's last byte. */
  readonly webhookFromBody: TimingSummary;
  /** The webhook's event-loop delay over the run: how late its deadline timers could fire. */
  readonly webhookLoopDelay: TimingSummary;
  readonly client: ClientSide;
  readonly failed: number;
  readonly patched: number;
  readonly peakRssBytes: number;
  readonly stillUp: boolean;
  readonly probes: { readonly hung: number; readonly slow: number; readonly origin: number };
  /** CPU time the webhook used from the first review sent to the last answered, in ms. */
  readonly webhookCpuMs: number;
  /** The webhook's whole `/stats` after the run. */
  readonly webhookStats: ReplicaStats | undefined;
  /** What `measure.ts` took inside the webhook process, after the run. */
  readonly webhookTiming: WebhookTiming | undefined;
  /** The machine's 1-, 5- and 15-minute load averages when the run ended. */
  readonly loadAverage: readonly number[];
  readonly violations: readonly string[];
}

const stopAtExit = new Set<() => void>();

/** Kills every process a run started (for a watchdog that must end the run now). */
export function killLoadTestProcesses(): void {
  for (const stop of stopAtExit) stop();
}

/** Runs the scenario once and reports; never throws for a property that fails (see `violations`). */
export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestReport> {
  const dir = mkdtempSync(join(tmpdir(), "kubeimg-load-"));
  const registries = await startRegistryProcess(options.slowMs);
  const { hung, slow, origin } = registries;
  const tls = writeCertificate(dir);
  const replica = await startReplica({
    certFile: tls.certFile,
    keyFile: tls.keyFile,
    routingFile: writeRouting(dir, hung, slow),
    insecureRegistries: [hung, slow, origin],
    deadlineMs: options.deadlineMs,
    probeTimeoutMs: options.probeTimeoutMs,
    ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    ...(options.noop ? { entry: noopPath } : {}),
  });
  const killReplica = () => replica.child.kill("SIGKILL");
  stopAtExit.add(killReplica);
  try {
    const bound = options.deadlineMs + 100;
    let cpuBeforeMs = 0;
    const pool = await sendFromPool({
      beforeSending: async () => {
        cpuBeforeMs = (await replica.timing()).cpuMs;
      },
      processes: options.clients ?? 2,
      nice: options.clientNice ?? 0,
      reviews: options.reviews,
      port: replica.port,
      ca: tls.cert,
      containers: options.containers,
      images: options.images,
      origin,
      timeoutMs: Math.max(options.deadlineMs, options.apiTimeoutMs ?? 0) + 5000,
    });
    const { outcomes } = pool;
    // A response's "finish", where the webhook records its answer time, can
    // come after the client has read it (the server learns that its writes
    // are done only when its event loop comes round to them): read the
    // figures once every answer is in them, or after two seconds.
    let webhookTiming: WebhookTiming | undefined;
    for (let attempt = 0; attempt < 20; attempt++) {
      webhookTiming = await replica.timing().then(
        (s) => s,
        () => undefined,
      );
      if ((webhookTiming?.answerMs.count ?? 0) >= options.reviews) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const webhookStats = await replica.stats().then(
      (s) => s,
      () => undefined,
    );
    const stillUp =
      replica.child.exitCode === null &&
      replica.child.signalCode === null &&
      webhookStats !== undefined;
    const peakRssBytes = replica.peakRss();
    const ms = outcomes.map((o) => o.ms);
    const sent = outcomes.map((o) => o.sentMs).filter((x) => !Number.isNaN(x));
    const failed = outcomes.filter((o) => o.status !== 200 || !o.allowed).length;
    const webhook = webhookTiming?.answerMs ?? { count: 0 };
    const violations: string[] = [];
    if (failed > 0) {
      const sample = outcomes.find((o) => o.status !== 200 || !o.allowed);
      violations.push(`${failed} reviews not answered properly (first: ${JSON.stringify(sample)})`);
    }
    if (webhook.count !== options.reviews) {
      violations.push(`the webhook answered ${webhook.count} reviews of ${options.reviews}`);
    }
    if (webhook.max === undefined || webhook.max > bound) {
      violations.push(
        `the webhook's slowest answer took ${webhook.max?.toFixed(0)} ms from arrival, over deadline + 100 ms (${bound} ms)`,
      );
    }
    if (options.apiTimeoutMs !== undefined) {
      const clientBound = options.apiTimeoutMs + 100;
      const late = ms.filter((x) => x > clientBound).length;
      if (late > 0) {
        violations.push(
          `${late} answers reached the client after the API server's timeout + 100 ms (${clientBound} ms; slowest ${Math.max(...ms).toFixed(0)} ms)`,
        );
      }
    }
    if (!stillUp)
      violations.push(`the webhook process died:\n${replica.log.slice(-20).join("\n")}`);
    if (peakRssBytes > options.maxRssBytes) {
      violations.push(
        `peak RSS ${(peakRssBytes / 2 ** 20).toFixed(0)} MB over the bound ${(options.maxRssBytes / 2 ** 20).toFixed(0)} MB`,
      );
    }
    return {
      options,
      outcomes,
      webhook,
      webhookFromBody: webhookTiming?.answerFromBodyMs ?? { count: 0 },
      webhookLoopDelay: webhookTiming?.eventLoopDelayMs ?? { count: 0 },
      client: {
        p50: quantile(ms, 0.5),
        p99: quantile(ms, 0.99),
        max: Math.max(...ms),
        sentP50: quantile(sent, 0.5),
        sentP99: quantile(sent, 0.99),
        late: ms.filter((x) => x > (options.apiTimeoutMs ?? options.deadlineMs) + 100).length,
        loopDelayMaxMs: Math.max(...pool.loopDelayMs.map((d) => d.max)),
      },
      failed,
      patched: outcomes.filter((o) => o.patched).length,
      peakRssBytes,
      stillUp,
      probes: await registries.counts(),
      webhookStats,
      webhookTiming,
      webhookCpuMs: (webhookTiming?.cpuMs ?? Number.NaN) - cpuBeforeMs,
      loadAverage: loadavg(),
      violations,
    };
  } finally {
    // A profiled webhook writes its profile on a clean exit only.
    await replica.kill(options.nodeArgs?.length ? "SIGTERM" : "SIGKILL");
    stopAtExit.delete(killReplica);
    await registries.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (x: number | undefined): string => (x === undefined ? "-" : x.toFixed(0));

/** One line per figure, for people and for the issue note. */
export function formatLoadTestReport(report: LoadTestReport): string {
  const o = report.options;
  const w = report.webhook;
  const b = report.webhookFromBody;
  const c = report.client;
  return [
    `${o.noop ? "NO-OP FLOOR: " : ""}reviews ${o.reviews} × ${o.containers} containers, all at once from ${o.clients ?? 2} client processes (nice ${o.clientNice ?? 0}); deadline ${o.deadlineMs} ms${o.apiTimeoutMs === undefined ? "" : ` (API server timeout ${o.apiTimeoutMs} ms)`}; probe timeout ${o.probeTimeoutMs} ms; hung mirror + ${o.slowMs} ms mirror`,
    `webhook side (arrival → answer written; the acceptance figure): p50 ${ms(w.p50)} ms, p99 ${ms(w.p99)} ms, max ${ms(w.max)} ms (bound ${o.deadlineMs + 100} ms); answered ${w.count}`,
    `webhook side from the request's last byte: p50 ${ms(b.p50)} ms, p99 ${ms(b.p99)} ms, max ${ms(b.max)} ms`,
    `webhook side by kind of answer: ${
      Object.entries(report.webhookTiming?.answerMsByKind ?? {})
        .map(([kind, t]) => `${kind} ${t.count} (p50 ${ms(t.p50)}, max ${ms(t.max)} ms)`)
        .join("; ") || "-"
    }`,
    `webhook event-loop delay: p99 ${ms(report.webhookLoopDelay.p99)} ms, max ${ms(report.webhookLoopDelay.max)} ms; webhook CPU for the reviews ${ms(report.webhookCpuMs)} ms`,
    `client side (request written → answer read): p50 ${ms(c.p50)} ms, p99 ${ms(c.p99)} ms, max ${ms(c.max)} ms; late by the client's clock ${c.late}; requests fully written after p50 ${ms(c.sentP50)} ms, p99 ${ms(c.sentP99)} ms; client event-loop delay max ${ms(c.loopDelayMaxMs)} ms`,
    `failed ${report.failed}; patched ${report.patched}; peak RSS ${(report.peakRssBytes / 2 ** 20).toFixed(0)} MB (bound ${(o.maxRssBytes / 2 ** 20).toFixed(0)} MB); process up: ${report.stillUp}`,
    `manifest requests: hung ${report.probes.hung}, slow ${report.probes.slow}, origin ${report.probes.origin}; load average ${report.loadAverage.map((x) => x.toFixed(2)).join(" ")}`,
    `webhook gate: ${JSON.stringify(report.webhookStats?.gate)}`,
    report.violations.length === 0 ? "OK" : `FAILED:\n- ${report.violations.join("\n- ")}`,
  ].join("\n");
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "");
if (invokedDirectly) {
  const argv = process.argv.slice(2);
  const { values } = parseArgs({
    args: argv[0] === "--" ? argv.slice(1) : argv,
    options: {
      reviews: { type: "string", default: "1000" },
      containers: { type: "string", default: "50" },
      "deadline-ms": { type: "string", default: "2000" },
      "api-timeout-ms": { type: "string" },
      "probe-timeout-ms": { type: "string", default: "1000" },
      "slow-ms": { type: "string", default: "700" },
      images: { type: "string", default: "200" },
      "max-rss-mb": { type: "string", default: "512" },
      clients: { type: "string", default: "2" },
      "client-nice": { type: "string", default: "0" },
      "time-limit-s": { type: "string", default: "180" },
      noop: { type: "boolean", default: false },
      "node-arg": { type: "string", multiple: true },
    },
  });
  const whole = (name: string, text: string | undefined, max: number): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > max) {
      console.error(`--${name} must be a whole number in 1..${max}, not ${JSON.stringify(text)}`);
      process.exit(2);
    }
    return n;
  };
  const limitS = whole("time-limit-s", values["time-limit-s"], 3600);
  const options: LoadTestOptions = {
    reviews: whole("reviews", values.reviews, 5000),
    containers: whole("containers", values.containers, 500),
    deadlineMs: whole("deadline-ms", values["deadline-ms"], 30_000),
    ...(values["api-timeout-ms"] === undefined
      ? {}
      : { apiTimeoutMs: whole("api-timeout-ms", values["api-timeout-ms"], 30_000) }),
    probeTimeoutMs: whole("probe-timeout-ms", values["probe-timeout-ms"], 30_000),
    slowMs: whole("slow-ms", values["slow-ms"], 30_000),
    images: whole("images", values.images, 100_000),
    maxRssBytes: whole("max-rss-mb", values["max-rss-mb"], 16_384) * 2 ** 20,
    clients: whole("clients", values.clients, 64),
    clientNice: whole("client-nice", `${Number(values["client-nice"]) + 1}`, 20) - 1,
    noop: values.noop ?? false,
    ...(values["node-arg"] ? { nodeArgs: values["node-arg"] } : {}),
  };
  const watchdog = setTimeout(() => {
    console.error(`FAILED: the run did not end within --time-limit-s ${limitS}`);
    killLoadTestProcesses();
    process.exit(1);
  }, limitS * 1000);
  watchdog.unref();
  const report = await runLoadTest(options);
  clearTimeout(watchdog);
  console.log(formatLoadTestReport(report));
  process.exitCode = report.violations.length === 0 ? 0 : 1;
}
