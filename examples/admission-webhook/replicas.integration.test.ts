/**
 * Three webhook replicas as separate processes sharing availability state
 * through a real redis-server, against scripted loopback registries (a
 * mirror that never answers, a slow one, the origin): single-flight across
 * replicas, Redis SIGKILLed and restarted under traffic, a replica killed
 * while it holds a probe marker, and foreign values under our keys.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { imageKeys } from "@kubeimg/redis";
import { freePort, type RunningRedis, startRedisServer } from "@kubeimg/testkit";
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  podReview,
  type RegistryProcess,
  type Replica,
  type ReviewOutcome,
  sendReviews,
  startRegistryProcess,
  startReplica,
  writeCertificate,
  writeRouting,
} from "../../bench/webhook/cluster.js";

const DEADLINE_MS = 3000;
const PROBE_TIMEOUT_MS = 1000;
const PREFIX = "it:replicas:";

let dir: string;
let redis: RunningRedis;
let registries: RegistryProcess;
let tls: ReturnType<typeof writeCertificate>;
let replicas: Replica[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-replicas-"));
  redis = await startRedisServer();
  registries = await startRegistryProcess(700);
  tls = writeCertificate(dir);
  const routingFile = writeRouting(dir, registries.hung, registries.slow);
  replicas = await Promise.all(
    [0, 1, 2].map(() =>
      startReplica({
        certFile: tls.certFile,
        keyFile: tls.keyFile,
        routingFile,
        insecureRegistries: [registries.hung, registries.slow, registries.origin],
        deadlineMs: DEADLINE_MS,
        probeTimeoutMs: PROBE_TIMEOUT_MS,
        redisUrl: redis.url,
        redisPrefix: PREFIX,
        // A loaded test machine stalls event loops for 100 ms and more; a
        // spurious fallback would blur the counts this suite asserts.
        redisBudgetMs: 250,
      }),
    ),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.kill("SIGKILL")));
  await registries?.stop();
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const image = (name: string) => `${registries.origin}/team/${name}:1`;
const path = (name: string) => `/v2/team/${name}/manifests/1`;
const mirrorPath = (mirror: "hung" | "slow", name: string) =>
  `/v2/${mirror}/team/${name}/manifests/1`;

/** Sends `count` reviews round-robin over `ports`, `batch` at a time. */
async function admit(
  ports: readonly number[],
  pods: readonly (readonly string[])[],
  batch: number,
): Promise<ReviewOutcome[]> {
  const out: ReviewOutcome[] = [];
  for (let i = 0; i < pods.length; i += batch) {
    const slice = pods.slice(i, i + batch);
    out.push(
      ...(await sendReviews({
        ports,
        ca: tls.cert,
        timeoutMs: DEADLINE_MS + 5000,
        reviews: slice.map((images, j) => {
          const uid = `r-${i + j}-${Math.random().toString(36).slice(2, 8)}`;
          return { uid, body: podReview(uid, images) };
        }),
      })),
    );
  }
  return out;
}

function expectAllAnsweredInTime(outcomes: readonly ReviewOutcome[]): void {
  const bad = outcomes.filter((o) => o.status !== 200 || !o.allowed || o.ms > DEADLINE_MS + 100);
  expect(bad).toEqual([]);
}

describe("three webhook replicas sharing availability state through Redis", () => {
  it("300 admissions round-robin: the dead mirror is probed once cluster-wide, each image's mirrors once", async () => {
    const ports = replicas.map((r) => r.port);
    const names = ["web", "api", "worker", "cache", "proxy"];
    // The first three, one per replica at once, all ask for the same image.
    const started = Date.now();
    const first = await admit(ports, [[image("web")], [image("web")], [image("web")]], 3);
    expectAllAnsweredInTime(first);
    const rest = Array.from({ length: 297 }, (_, i) => [
      image(names[i % names.length] as string),
      image(names[(i + 1) % names.length] as string),
    ]);
    const outcomes = await admit(ports, rest, 30);
    expectAllAnsweredInTime(outcomes);
    const counts = await registries.counts();
    // One probe of the dead mirror in the whole cluster; its circuit, open for
    // 30 s, turned every later image of it away on every replica.
    expect(counts.hung).toBe(1);
    expect(counts.paths.hung[mirrorPath("hung", "web")]).toBe(1);
    // Each image's slow mirror: once per positive TTL window (5 s) in the whole cluster.
    const windows = Math.ceil((Date.now() - started) / 5000);
    for (const name of names) {
      expect(counts.paths.slow[mirrorPath("slow", name)]).toBeLessThanOrEqual(windows);
    }
    const stats = await Promise.all(replicas.map((r) => r.stats()));
    expect(stats.map((s) => s.mode)).toEqual(["shared", "shared", "shared"]);
    expect(stats.reduce((n, s) => n + (s.gate?.peerVerdicts ?? 0), 0)).toBeGreaterThan(0);
  }, 240_000);

  it("ignores a foreign or older value under an image's key", async () => {
    const client = createClient({ url: redis.url });
    client.on("error", () => {});
    await client.connect();
    try {
      const hungImage = `${registries.hung}/hung/team/foreign:1`;
      const keys = imageKeys(PREFIX, {
        image: hungImage,
        credentialSecret: undefined,
        registry: registries.hung,
      });
      // Were this trusted, the pod would be sent to the mirror that never answers.
      await client.set(keys.verdict, '{"kubeimg":"verdict","v":0,"available":true}', {
        PX: 60_000,
      });
      const [outcome] = await admit([replicas[0]?.port as number], [[image("foreign")]], 1);
      expect(outcome).toMatchObject({ status: 200, allowed: true, patched: true });
      const counts = await registries.counts();
      expect(counts.paths.hung[mirrorPath("hung", "foreign")]).toBeUndefined();
    } finally {
      await client.close();
    }
  }, 60_000);

  it("SIGKILL of redis-server mid-run: every admission answers in time, none fails; sharing resumes after restart", async () => {
    const ports = replicas.map((r) => r.port);
    const pods = Array.from({ length: 90 }, (_, i) => [image(`k${i % 6}`)]);
    const running = admit(ports, pods, 15);
    await new Promise((r) => setTimeout(r, 500));
    await redis.kill();
    const outcomes = await running;
    expectAllAnsweredInTime(outcomes);
    expect(outcomes).toHaveLength(90);
    await redis.restart();
    // The replicas try Redis again every second; wait until all share again.
    const deadline = Date.now() + 20_000;
    let modes: string[] = [];
    while (Date.now() < deadline) {
      await admit(ports, [[image("probe-mode")], [image("probe-mode")], [image("probe-mode")]], 3);
      modes = (await Promise.all(replicas.map((r) => r.stats()))).map((s) => s.mode);
      if (modes.every((m) => m === "shared")) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(modes).toEqual(["shared", "shared", "shared"]);
    // Sharing again: a new image asked on every replica is probed once.
    const resumed = await admit(ports, [[image("after-restart")]], 1);
    expectAllAnsweredInTime(resumed);
    expectAllAnsweredInTime(
      await admit(ports.slice(1), [[image("after-restart")], [image("after-restart")]], 2),
    );
    const counts = await registries.counts();
    expect(counts.paths.slow[mirrorPath("slow", "after-restart")]).toBe(1);
    expect(counts.paths.origin[path("after-restart")] ?? 0).toBeLessThanOrEqual(1);
  }, 240_000);

  it("a replica killed while it holds the single-flight marker: the others stop waiting and one of them probes", async () => {
    const [holder, ...others] = replicas as [Replica, Replica, Replica];
    const orphan = admit([holder.port], [[image("orphan")]], 1);
    // Let it claim the slow mirror's marker (the probe takes 700 ms), then kill it.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const counts = await registries.counts();
      if (counts.paths.slow[mirrorPath("slow", "orphan")]) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await holder.kill("SIGKILL");
    const [lost] = await orphan;
    expect(lost?.status).toBe(0);
    const outcomes = await admit(
      others.map((r) => r.port),
      [[image("orphan")], [image("orphan")]],
      2,
    );
    expectAllAnsweredInTime(outcomes);
    expect(outcomes.every((o) => o.patched)).toBe(true);
    const counts = await registries.counts();
    // The dead holder's probe, then exactly one by a survivor.
    expect(counts.paths.slow[mirrorPath("slow", "orphan")]).toBe(2);
  }, 120_000);
});

describe("replicas started together await the shared state before they report ready", () => {
  const start = (prefix: string, extra: { redisUrl?: string; redisReadyTimeoutMs?: number } = {}) =>
    startReplica({
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      routingFile: join(dir, "routing.yaml"),
      insecureRegistries: [registries.hung, registries.slow, registries.origin],
      deadlineMs: DEADLINE_MS,
      probeTimeoutMs: PROBE_TIMEOUT_MS,
      redisUrl: extra.redisUrl ?? redis.url,
      redisPrefix: prefix,
      // As above: a stalled event loop must not pass for a Redis failure.
      redisBudgetMs: 250,
      ...(extra.redisReadyTimeoutMs ? { redisReadyTimeoutMs: extra.redisReadyTimeoutMs } : {}),
    });

  it("three replicas started at the same moment probe the dead mirror once in all, 10 runs of 10", async () => {
    const probes: number[] = [];
    const odd: unknown[] = [];
    for (let run = 0; run < 10; run++) {
      const prefix = `it:ready:${run}:${Math.random().toString(36).slice(2, 8)}:`;
      const fresh = await Promise.all([0, 1, 2].map(() => start(prefix)));
      try {
        await Promise.all(fresh.map((r) => r.ready(tls.cert)));
        for (const r of fresh) expect(r.log.join("\n")).toContain("sharing through Redis");
        const name = `ready${run}`;
        const outcomes = await admit(
          fresh.map((r) => r.port),
          [[image(name)], [image(name)], [image(name)]],
          3,
        );
        expectAllAnsweredInTime(outcomes);
        probes.push((await registries.counts()).paths.hung[mirrorPath("hung", name)] ?? 0);
        if (probes.at(-1) !== 1) {
          // What each replica saw, to tell a Redis failure from a late holder.
          const stats = await Promise.all(fresh.map((r) => r.stats()));
          const timing = await Promise.all(fresh.map((r) => r.timing()));
          odd.push({
            run,
            replicas: stats.map((x, i) => ({
              state: x.state,
              gate: x.gate,
              eventLoopMaxMs: timing[i]?.eventLoopDelayMs.max,
            })),
          });
        }
      } finally {
        await Promise.all(fresh.map((r) => r.kill("SIGKILL")));
      }
    }
    expect(probes, JSON.stringify(odd)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  }, 600_000);

  it("a replica whose Redis refuses says so, then reports ready on its own memory", async () => {
    const replica = await start("it:refused:", {
      redisUrl: `redis://webhook:hunter2@127.0.0.1:${await freePort()}`,
      redisReadyTimeoutMs: 500,
    });
    try {
      await replica.ready(tls.cert);
      const log = replica.log.join("\n");
      expect(log).toMatch(/Redis unavailable \(connection refused/);
      expect(log).toMatch(
        /not sharing through Redis \[REDIS_REFUSED\].*check the host and port in the url/,
      );
      expect(log).not.toContain("hunter2");
      const [outcome] = await admit([replica.port], [[image("refused")]], 1);
      expect(outcome).toMatchObject({ status: 200, allowed: true });
    } finally {
      await replica.kill("SIGKILL");
    }
  }, 120_000);
});
