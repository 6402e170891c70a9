/**
 * `pnpm bench pull-credentials`: the KEP-2535 manager's speed targets.
 *
 * - warm-cache `mustAttemptImagePull` on the allowed paths (target ≥ 1 M decisions/s);
 * - `recordImagePulled` throughput on the filesystem store (each call writes a record file),
 *   durable (the default: fsync of the file and of the directory) against `durable: false`
 *   measured in the same run;
 * - opening a filesystem store of 10,000 records (store + cache warm-up + manager housekeeping).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CachedPullRecordStore,
  createVerificationPolicy,
  MemoryPullRecordStore,
  PullManager,
} from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore, storageFileName } from "@kubeimg/policy/pull-credentials/fs";
import { runBenchmarks } from "./lib.js";

const clock = { now: () => Date.parse("2025-01-01T00:00:00Z") };
const batch = 1000;
const secret = { uid: "uid-1", namespace: "team-a", name: "regcred", credentialHash: "hash-1" };
const podCredentials = () => ({ secrets: [secret] });

async function warmManager(): Promise<PullManager> {
  const base = new MemoryPullRecordStore();
  for (let i = 0; i < 1000; i++) {
    await base.writePulledRecord({
      lastUpdatedTime: new Date(clock.now()),
      imageRef: `sha256:${String(i).padStart(64, "0")}`,
      credentialMapping: new Map([
        [
          "registry.example.com/team/app",
          {
            kubernetesSecrets: [secret],
            kubernetesServiceAccounts: [],
            nodePodsAccessible: i % 2 === 0,
          },
        ],
      ]),
    });
  }
  return PullManager.open({
    store: await CachedPullRecordStore.create(base),
    policy: createVerificationPolicy({ policy: "NeverVerifyPreloadedImages" }),
    clock,
  });
}

const root = await mkdtemp(join(tmpdir(), "kubeimg-bench-"));
try {
  const manager = await warmManager();
  const image = "registry.example.com/team/app:1.0";
  const nodeWideRef = `sha256:${"0".repeat(64)}`;
  const secretRef = `sha256:${"1".padStart(64, "0")}`;
  const preloadedRef = `sha256:${"f".repeat(64)}`;

  const decisions = (ref: string) => async () => {
    for (let i = 0; i < batch; i++) await manager.mustAttemptImagePull(image, ref, podCredentials);
  };
  const parallelDecisions = (ref: string) => async () => {
    const all: Promise<unknown>[] = [];
    for (let i = 0; i < batch; i++)
      all.push(manager.mustAttemptImagePull(image, ref, podCredentials));
    await Promise.all(all);
  };

  await runBenchmarks("mustAttemptImagePull, warm cache (decisions/s)", [
    {
      name: "allowed: preloaded image (credentialPolicyAllowed)",
      fn: decisions(preloadedRef),
      opsPerCall: batch,
    },
    {
      name: "allowed: node-wide record (credentialRecordFound)",
      fn: decisions(nodeWideRef),
      opsPerCall: batch,
    },
    {
      name: "allowed: matching pod secret (credentialRecordFound)",
      fn: decisions(secretRef),
      opsPerCall: batch,
    },
    {
      name: "allowed: preloaded, 1000 concurrent callers",
      fn: parallelDecisions(preloadedRef),
      opsPerCall: batch,
    },
  ]);

  // recordImagePulled on the filesystem store: every call creates or rewrites one record file.
  const openWriter = async (dir: string, durable: boolean) =>
    PullManager.open({
      store: await CachedPullRecordStore.create(
        await FileSystemPullRecordStore.open(join(root, dir), { durable }),
      ),
      policy: createVerificationPolicy(),
      clock,
    });
  const writer = await openWriter("write", true);
  const scratchWriter = await openWriter("write-not-durable", false);
  let n = 0;
  await runBenchmarks(
    "recordImagePulled, filesystem store (records/s): durable (default) vs durable: false",
    [
      {
        name: "new record per call (intent released)",
        fn: async () => {
          n++;
          await writer.recordImagePulled(image, `sha256:new-${n}`, { kubernetesSecrets: [secret] });
        },
      },
      {
        name: "merge a new secret into one record",
        fn: async () => {
          n++;
          await writer.recordImagePulled(image, "sha256:merge-target", {
            kubernetesSecrets: [{ ...secret, uid: `uid-${n % 200}`, credentialHash: `h-${n}` }],
          });
        },
      },
      {
        name: "intent + pulled (full pull bookkeeping)",
        fn: async () => {
          n++;
          await writer.recordPullIntent(`${image}-${n}`);
          await writer.recordImagePulled(`${image}-${n}`, `sha256:full-${n}`, {
            nodePodsAccessible: true,
          });
        },
      },
      {
        name: "durable: false — new record per call",
        fn: async () => {
          n++;
          await scratchWriter.recordImagePulled(image, `sha256:new-${n}`, {
            kubernetesSecrets: [secret],
          });
        },
      },
      {
        name: "durable: false — intent + pulled",
        fn: async () => {
          n++;
          await scratchWriter.recordPullIntent(`${image}-${n}`);
          await scratchWriter.recordImagePulled(`${image}-${n}`, `sha256:full-${n}`, {
            nodePodsAccessible: true,
          });
        },
      },
    ],
    { time: 2000 },
  );

  // Opening a store of 10,000 records.
  const bigRoot = join(root, "big");
  // Seeding is not what is measured: skip the fsyncs.
  const seed = await FileSystemPullRecordStore.open(bigRoot, { durable: false });
  for (let i = 0; i < 10_000; i++) {
    await seed.writePulledRecord({
      lastUpdatedTime: new Date(clock.now()),
      imageRef: `sha256:${String(i).padStart(64, "0")}`,
      credentialMapping: new Map([
        [
          `registry.example.com/team/app-${i % 50}`,
          { kubernetesSecrets: [secret], kubernetesServiceAccounts: [], nodePodsAccessible: false },
        ],
      ]),
    });
  }
  // tinybench wants at least 64 samples; a 10,000-file open is timed directly instead.
  const rows: string[] = [];
  const time = async (name: string, runs: number, fn: (run: number) => Promise<unknown>) => {
    const ms: number[] = [];
    for (let run = 0; run < runs; run++) {
      const t = performance.now();
      await fn(run);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
    const fmt = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 1 });
    rows.push(
      `| ${name} | ${fmt(mean)} | ${fmt(ms[0] as number)} | ${fmt(ms[ms.length - 1] as number)} | ${Math.round(10_000 / (mean / 1000)).toLocaleString("en-US")} | ${runs} |`,
    );
  };
  await time("FileSystemPullRecordStore.open (v1beta1, nothing to migrate)", 5, () =>
    FileSystemPullRecordStore.open(bigRoot),
  );
  await time("open + CachedPullRecordStore warm-up + PullManager.open", 5, async () =>
    PullManager.open({
      store: await CachedPullRecordStore.create(await FileSystemPullRecordStore.open(bigRoot)),
      policy: createVerificationPolicy(),
      clock,
    }),
  );
  // Migration: 10,000 v1alpha1 files rewritten as v1beta1 at open (a fresh copy per run).
  const alphaRoots: string[] = [];
  for (let run = 0; run < 3; run++) {
    const dir = join(root, `alpha-${run}`, "image_manager", "pulled");
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < 10_000; i++) {
      const ref = `sha256:${String(i).padStart(64, "0")}`;
      await writeFile(
        join(dir, storageFileName(ref)),
        `{"kind":"ImagePulledRecord","apiVersion":"kubelet.config.k8s.io/v1alpha1","lastUpdatedTime":"2024-10-21T12:26:40Z","imageRef":"${ref}","credentialMapping":{"registry.example.com/team/app":{"nodePodsAccessible":true}}}`,
      );
    }
    alphaRoots.push(join(root, `alpha-${run}`));
  }
  await time("open migrating 10,000 v1alpha1 records, durable", 1, (run) =>
    FileSystemPullRecordStore.open(alphaRoots[run] as string),
  );
  await time("open migrating 10,000 v1alpha1 records, durable: false", 2, (run) =>
    FileSystemPullRecordStore.open(alphaRoots[run + 1] as string, { durable: false }),
  );
  console.log("\n### opening a filesystem store of 10,000 records\n");
  console.log("| task | mean (ms) | min (ms) | max (ms) | records/s | runs |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const row of rows) console.log(row);
} finally {
  await rm(root, { recursive: true, force: true });
}
