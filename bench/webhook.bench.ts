/**
 * Admission latency with three webhook replicas and a dead mirror, local
 * state against state shared through Redis, in one run (`pnpm bench
 * webhook`). Each mode starts its own three replicas (separate processes),
 * a real redis-server for the shared mode, and scripted loopback registries
 * (a mirror that never answers, one answering after 700 ms, the origin);
 * then 150 admissions of 5-container Pods go round-robin, 15 at a time.
 * Reported: latency p50/p99/max and the manifest requests each registry got
 * (probes), the peer of each row being the other mode.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRedisServer } from "@kubeimg/testkit";
import {
  podReview,
  quantile,
  sendReviews,
  startRegistryProcess,
  startReplica,
  writeCertificate,
  writeRouting,
} from "./webhook/cluster.js";

const ADMISSIONS = 150;
const BATCH = 15;
const CONTAINERS = 5;
const DEADLINE_MS = 3000;

async function run(mode: "local" | "shared") {
  const dir = mkdtempSync(join(tmpdir(), "kubeimg-bench-webhook-"));
  const redis = mode === "shared" ? await startRedisServer() : undefined;
  const registries = await startRegistryProcess(700);
  const tls = writeCertificate(dir);
  const routingFile = writeRouting(dir, registries.hung, registries.slow);
  const replicas = await Promise.all(
    [0, 1, 2].map(() =>
      startReplica({
        certFile: tls.certFile,
        keyFile: tls.keyFile,
        routingFile,
        insecureRegistries: [registries.hung, registries.slow, registries.origin],
        deadlineMs: DEADLINE_MS,
        probeTimeoutMs: 1000,
        ...(redis ? { redisUrl: redis.url, redisPrefix: "bench:", redisBudgetMs: 250 } : {}),
      }),
    ),
  );
  try {
    const ms: number[] = [];
    let failed = 0;
    for (let i = 0; i < ADMISSIONS; i += BATCH) {
      const outcomes = await sendReviews({
        ports: replicas.map((r) => r.port),
        ca: tls.cert,
        timeoutMs: DEADLINE_MS + 5000,
        reviews: Array.from({ length: BATCH }, (_, j) => {
          const uid = `b-${i + j}`;
          const images = Array.from(
            { length: CONTAINERS },
            (_, k) => `${registries.origin}/team/app-${(i + j + k) % 10}:1`,
          );
          return { uid, body: podReview(uid, images) };
        }),
      });
      for (const o of outcomes) {
        ms.push(o.ms);
        if (o.status !== 200 || !o.allowed) failed++;
      }
    }
    const counts = await registries.counts();
    return {
      mode,
      p50: quantile(ms, 0.5),
      p99: quantile(ms, 0.99),
      max: Math.max(...ms),
      failed,
      counts,
    };
  } finally {
    await Promise.all(replicas.map((r) => r.kill("SIGKILL")));
    await registries.stop();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const local = await run("local");
const shared = await run("shared");
console.log(
  `${ADMISSIONS} admissions × ${CONTAINERS} containers, 3 replicas round-robin, ${BATCH} at a time; dead mirror, 700 ms mirror; deadline ${DEADLINE_MS} ms, probe timeout 1000 ms`,
);
console.table(
  [local, shared].map((r) => ({
    state: r.mode === "local" ? "local (each replica)" : "shared (Redis)",
    "p50 ms": Math.round(r.p50),
    "p99 ms": Math.round(r.p99),
    "max ms": Math.round(r.max),
    failed: r.failed,
    "dead-mirror probes": r.counts.hung,
    "slow-mirror probes": r.counts.slow,
    "origin probes": r.counts.origin,
  })),
);
console.log(
  `p50 shared/local: ${(shared.p50 / local.p50).toFixed(2)}; dead-mirror probes shared/local: ${shared.counts.hung}/${local.counts.hung}`,
);
