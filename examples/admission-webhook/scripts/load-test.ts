/**
 * `pnpm --filter @kubeimg/example-admission-webhook load-test [-- --reviews 1000
 *   --containers 50 --deadline-ms 2000 --max-rss-mb 512]`
 *
 * The webhook under an API server's worst day, on loopback only: `--reviews`
 * AdmissionReviews of Pods with `--containers` containers each, all sent at
 * once to one webhook process, whose every image is mirrored first on a
 * registry that accepts connections and never answers, then on one that
 * answers after 700 ms. Bounded in count and time: each review is cut off
 * at its deadline plus five seconds.
 *
 * It holds when every review is answered (HTTP 200, allowed, its own uid)
 * within its deadline + 100 ms, the process is still up afterwards, and its
 * peak RSS stays under `--max-rss-mb`. Prints p50/p99/max latency, peak RSS
 * and probe counts; exits 1 when a property fails.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import {
  podReview,
  quantile,
  type ReviewOutcome,
  sendReviews,
  startRegistryProcess,
  startReplica,
  writeCertificate,
  writeRouting,
} from "./cluster.js";

/** Options of {@link runLoadTest}. */
export interface LoadTestOptions {
  readonly reviews: number;
  readonly containers: number;
  readonly deadlineMs: number;
  readonly probeTimeoutMs: number;
  readonly slowMs: number;
  /** Distinct images the Pods draw from. */
  readonly images: number;
  readonly maxRssBytes: number;
  /** Extra Node flags for the webhook process (`--cpu-prof`, `--trace-gc`). */
  readonly nodeArgs?: readonly string[];
}

/** What {@link runLoadTest} measured. */
export interface LoadTestReport {
  readonly options: LoadTestOptions;
  readonly outcomes: readonly ReviewOutcome[];
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** p50/p99 of the time the client took to write its requests (included in the latency). */
  readonly sentP50: number;
  readonly sentP99: number;
  /** Reviews answered later than deadline + 100 ms, or not properly. */
  readonly late: number;
  readonly failed: number;
  readonly patched: number;
  readonly peakRssBytes: number;
  readonly stillUp: boolean;
  readonly probes: { readonly hung: number; readonly slow: number; readonly origin: number };
  /**
   * This (the client) process's event-loop delay while sending, in ms: a
   * client too busy to read its answers makes the webhook look late.
   */
  readonly clientLoopDelayMs: { readonly p99: number; readonly max: number };
  /** The webhook's own `/stats` after the run (gate counters, event-loop delay, answer times). */
  readonly webhookStats: unknown;
  readonly violations: readonly string[];
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
  });
  try {
    const reviews = Array.from({ length: options.reviews }, (_, i) => ({
      uid: `review-${i}`,
      body: podReview(
        `review-${i}`,
        Array.from(
          { length: options.containers },
          (_, k) => `${origin}/team/app-${(i * 7 + k) % options.images}:1`,
        ),
      ),
    }));
    const clientLoop = monitorEventLoopDelay({ resolution: 10 });
    clientLoop.enable();
    const outcomes = await sendReviews({
      ports: [replica.port],
      ca: tls.cert,
      reviews,
      timeoutMs: options.deadlineMs + 5000,
    });
    clientLoop.disable();
    const clientLoopDelayMs = {
      p99: clientLoop.percentile(99) / 1e6,
      max: clientLoop.max / 1e6,
    };
    const webhookStats = await replica.stats(tls.cert).then(
      (s) => s,
      () => undefined,
    );
    const stillUp =
      replica.child.exitCode === null &&
      replica.child.signalCode === null &&
      webhookStats !== undefined;
    const peakRssBytes = replica.peakRss();
    const ms = outcomes.map((o) => o.ms);
    const bound = options.deadlineMs + 100;
    const failed = outcomes.filter((o) => o.status !== 200 || !o.allowed).length;
    const late = outcomes.filter((o) => o.ms > bound).length;
    const violations: string[] = [];
    if (failed > 0) {
      const sample = outcomes.find((o) => o.status !== 200 || !o.allowed);
      violations.push(`${failed} reviews not answered properly (first: ${JSON.stringify(sample)})`);
    }
    if (late > 0) violations.push(`${late} reviews answered after deadline + 100 ms (${bound} ms)`);
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
      p50: quantile(ms, 0.5),
      p99: quantile(ms, 0.99),
      max: Math.max(...ms),
      sentP50: quantile(
        outcomes.map((o) => o.sentMs).filter((x) => !Number.isNaN(x)),
        0.5,
      ),
      sentP99: quantile(
        outcomes.map((o) => o.sentMs).filter((x) => !Number.isNaN(x)),
        0.99,
      ),
      late,
      failed,
      patched: outcomes.filter((o) => o.patched).length,
      peakRssBytes,
      stillUp,
      probes: await registries.counts(),
      clientLoopDelayMs,
      webhookStats,
      violations,
    };
  } finally {
    // A profiled webhook writes its profile on a clean exit only.
    await replica.kill(options.nodeArgs?.length ? "SIGTERM" : "SIGKILL");
    await registries.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One line per figure, for people and for the issue note. */
export function formatLoadTestReport(report: LoadTestReport): string {
  const o = report.options;
  return [
    `reviews ${o.reviews} × ${o.containers} containers, all at once; deadline ${o.deadlineMs} ms; probe timeout ${o.probeTimeoutMs} ms; hung mirror + ${o.slowMs} ms mirror`,
    `latency p50 ${report.p50.toFixed(0)} ms, p99 ${report.p99.toFixed(0)} ms, max ${report.max.toFixed(0)} ms (bound ${o.deadlineMs + 100} ms); late ${report.late}; failed ${report.failed}; patched ${report.patched}`,
    `peak RSS ${(report.peakRssBytes / 2 ** 20).toFixed(0)} MB (bound ${(o.maxRssBytes / 2 ** 20).toFixed(0)} MB); process up: ${report.stillUp}`,
    `manifest requests: hung ${report.probes.hung}, slow ${report.probes.slow}, origin ${report.probes.origin}`,
    `client: requests fully written after p50 ${report.sentP50.toFixed(0)} ms, p99 ${report.sentP99.toFixed(0)} ms; ` +
      `event-loop delay p99 ${report.clientLoopDelayMs.p99.toFixed(0)} ms, max ${report.clientLoopDelayMs.max.toFixed(0)} ms`,
    `webhook stats: ${JSON.stringify(report.webhookStats)}`,
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
      "probe-timeout-ms": { type: "string", default: "1000" },
      "slow-ms": { type: "string", default: "700" },
      images: { type: "string", default: "200" },
      "max-rss-mb": { type: "string", default: "512" },
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
  const report = await runLoadTest({
    reviews: whole("reviews", values.reviews, 5000),
    containers: whole("containers", values.containers, 500),
    deadlineMs: whole("deadline-ms", values["deadline-ms"], 30_000),
    probeTimeoutMs: whole("probe-timeout-ms", values["probe-timeout-ms"], 30_000),
    slowMs: whole("slow-ms", values["slow-ms"], 30_000),
    images: whole("images", values.images, 100_000),
    maxRssBytes: whole("max-rss-mb", values["max-rss-mb"], 16_384) * 2 ** 20,
    ...(values["node-arg"] ? { nodeArgs: values["node-arg"] } : {}),
  });
  console.log(formatLoadTestReport(report));
  process.exitCode = report.violations.length === 0 ? 0 : 1;
}
