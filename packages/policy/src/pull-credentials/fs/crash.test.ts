/**
 * Crash safety of the filesystem store: a child process records pulls in a
 * loop and is killed with SIGKILL at a random moment; then the storage it
 * left is checked. `KUBEIMG_CRASH_TRIALS` sets the number of trials (a few
 * by default; `pnpm test:crash` runs 200).
 *
 * After every kill: no record grants access to a secret whose pull did not
 * complete (failed, or never reached RecordImagePulled); every completed
 * record is there; every undecodable file means "must pull"; and the store
 * keeps working.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerificationPolicy, type ImagePulledRecord, PullManager } from "../index.js";
import {
  crashAliasSecret,
  crashImage,
  crashImageKey,
  crashImageRef,
  crashPullFails,
  crashSecret,
} from "./crash-workload.testkit.js";
import { FileSystemPullRecordStore, storageFileName } from "./index.js";

const trials = Number(process.env.KUBEIMG_CRASH_TRIALS ?? 3);
const here = dirname(fileURLToPath(import.meta.url));
let workDir: string;
let childScript: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "kubeimg-crash-"));
  childScript = join(workDir, "crash-child.mjs");
  // Bundle the child once so each trial starts in milliseconds.
  await build({
    entryPoints: [join(here, "crash-child.testkit.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@kubeimg/source"],
    outfile: childScript,
    logLevel: "error",
    // CommonJS dependencies (yaml) call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** A small seeded PRNG so a failing trial can be replayed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function readJournal(path: string): Promise<Map<string, Set<number>>> {
  const events = new Map<string, Set<number>>();
  const text = await readFile(path, "utf8").catch(() => "");
  for (const line of text.split("\n")) {
    const [event, n] = line.split(" ");
    if (!event || n === undefined) continue;
    const set = events.get(event) ?? new Set<number>();
    set.add(Number(n));
    events.set(event, set);
  }
  return events;
}

async function runUntilKilled(root: string, journal: string, delayMs: number): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [childScript, root, journal], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      gone = true;
      resolve();
    }),
  );
  // Wait until the workload runs, then a random while longer.
  const started = Date.now();
  while (!(await readFile(journal, "utf8").catch(() => "")).startsWith("ready")) {
    if (gone) throw new Error("crash child exited before it started");
    if (Date.now() - started > 20_000) throw new Error("crash child did not start");
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, delayMs));
  child.kill("SIGKILL");
  await exited;
}

const clock = { now: Date.now };

async function trial(seed: number): Promise<number> {
  const random = mulberry32(seed);
  const root = join(workDir, `trial-${seed}`);
  const journalPath = join(workDir, `journal-${seed}`);
  await runUntilKilled(root, journalPath, Math.floor(random() * 250));
  const events = await readJournal(journalPath);
  const has = (event: string, i: number) => events.get(event)?.has(i) ?? false;

  // Sometimes tear one record file as a non-atomic filesystem could; it must then mean "must pull".
  const pulledDir = join(root, "image_manager", "pulled");
  const files = (await readdir(pulledDir)).filter(
    (n) => n.startsWith("sha256-") && !n.endsWith(".tmp"),
  );
  let torn: string | undefined;
  if (files.length > 0 && random() < 0.5) {
    torn = files[Math.floor(random() * files.length)];
    await truncate(join(pulledDir, torn as string), 1 + Math.floor(random() * 40));
  }

  const fs = await FileSystemPullRecordStore.open(root);
  const listed = await fs.listPulledRecords();
  const refsByFile = new Map(
    [0, 1, 2, 3, 4].map((i) => [storageFileName(crashImageRef(i)), crashImageRef(i)]),
  );

  // 1. Every secret in a record comes from a pull that reached RecordImagePulled
  //    (or from a write-while-matching of such a pull's hash), under the right name.
  for (const record of listed.items) {
    for (const [key, creds] of record.credentialMapping) {
      for (const secret of creds.kubernetesSecrets) {
        const [kind, n] = secret.uid.split("-");
        const i = Number(n);
        expect(kind === "uid" || kind === "alias", secret.uid).toBe(true);
        expect(
          has(kind === "uid" ? "pulled" : "alias", i),
          `${secret.uid} in ${record.imageRef}`,
        ).toBe(true);
        expect(crashPullFails(i)).toBe(false);
        expect(key).toBe(crashImageKey(i));
        expect(record.imageRef).toBe(crashImageRef(i));
        expect(secret).toEqual(kind === "uid" ? crashSecret(i) : crashAliasSecret(i));
      }
      expect(creds.nodePodsAccessible).toBe(false);
    }
  }

  // 2. Every pull journaled as recorded is in its record (unless that file was torn on purpose).
  const byRef = new Map<string, ImagePulledRecord>(listed.items.map((r) => [r.imageRef, r]));
  for (const i of events.get("recorded") ?? []) {
    if (torn !== undefined && refsByFile.get(torn) === crashImageRef(i)) continue;
    const entry = byRef.get(crashImageRef(i))?.credentialMapping.get(crashImageKey(i));
    expect(
      entry?.kubernetesSecrets.some((s) => s.uid === `uid-${i}`),
      `recorded ${i}`,
    ).toBe(true);
  }

  // 3. Undecodable files are reported, and mean "must pull" with reason `error`.
  expect(listed.errors.length).toBe(torn === undefined ? 0 : 1);
  const strict = await PullManager.open({
    store: fs,
    policy: createVerificationPolicy({ policy: "AlwaysVerify" }),
    clock,
  });
  if (torn !== undefined) {
    const ref = refsByFile.get(torn) as string;
    const decision = await strict.mustAttemptImagePull(crashImage(0), ref, () => ({
      secrets: [crashSecret(0)],
    }));
    expect(decision).toEqual({ mustPull: true, reason: "error" });
  }

  // 4. A failed pull's credentials never grant access.
  for (const i of events.get("failed") ?? []) {
    const decision = await strict.mustAttemptImagePull(crashImage(i), crashImageRef(i), () => ({
      secrets: [crashSecret(i)],
    }));
    expect(decision.mustPull, `failed pull ${i}`).toBe(true);
  }

  // 5. Intents left by interrupted pulls make their images count as kubelet-pulled.
  const preloaded = await PullManager.open({
    store: fs,
    policy: createVerificationPolicy({ policy: "NeverVerifyPreloadedImages" }),
    clock,
  });
  for (const intent of (await fs.listIntents()).items) {
    const decision = await preloaded.mustAttemptImagePull(intent.image, "sha256:not-recorded");
    expect(decision).toEqual({ mustPull: true, reason: "mustAuthenticate" });
  }

  // 6. The store keeps working: a new pull is recorded and grants access.
  await preloaded.recordPullIntent("registry.example.com/after/crash:1");
  await preloaded.recordImagePulled("registry.example.com/after/crash:1", "sha256:after", {
    kubernetesSecrets: [{ uid: "u", namespace: "n", name: "s", credentialHash: "h" }],
  });
  const again = await FileSystemPullRecordStore.open(root);
  const after = await PullManager.open({
    store: again,
    policy: createVerificationPolicy({ policy: "AlwaysVerify" }),
    clock,
  });
  expect(
    await after.mustAttemptImagePull("registry.example.com/after/crash:1", "sha256:after", () => ({
      secrets: [{ uid: "u", namespace: "n", name: "s", credentialHash: "h" }],
    })),
  ).toEqual({ mustPull: false, reason: "credentialRecordFound" });
  if (torn !== undefined) {
    // Recording over the torn file repairs it.
    const ref = refsByFile.get(torn) as string;
    await after.recordImagePulled(crashImage(0), ref, { nodePodsAccessible: true });
    expect((await again.listPulledRecords()).errors).toEqual([]);
  }
  await rm(root, { recursive: true, force: true });
  return events.get("intent")?.size ?? 0;
}

describe("filesystem store crash safety (SIGKILL)", () => {
  const base = Number(process.env.KUBEIMG_CRASH_SEED ?? Date.now() % 1_000_000);
  it(`${trials} trials from seed ${base}`, { timeout: 30_000 + trials * 5_000 }, async () => {
    const queue = Array.from({ length: trials }, (_, k) => base + k);
    const failures: string[] = [];
    let pulls = 0;
    const workers = Array.from({ length: trials >= 20 ? 2 : 1 }, async () => {
      for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
        try {
          pulls += await trial(seed);
        } catch (error) {
          failures.push(`seed ${seed}: ${(error as Error).message}`);
        }
      }
    });
    await Promise.all(workers);
    expect(failures).toEqual([]);
    // The kills landed while the workload was running, not before it.
    expect(pulls).toBeGreaterThan(0);
    console.info(`crash test: ${trials} kills, ${pulls} pull intents journaled before them`);
  });
});
