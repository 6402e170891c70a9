/**
 * Crash safety of the filesystem store: a child process records pulls in a
 * loop and is killed with SIGKILL at a random moment; then the storage it
 * left is checked. Three modes: one writer; two writers (two child
 * processes on one directory, writing the same records, each killed at its
 * own random moment); a hostile directory (FIFOs, symlinks to /dev/zero and
 * out of the directory, huge sparse files, directories, garbage and an
 * abandoned temporary planted under record names before the writer starts).
 * `KUBEIMG_CRASH_TRIALS` sets the number of trials per mode (a few by
 * default; `pnpm test:crash` runs 200).
 *
 * After every kill: no record grants access to a secret whose pull did not
 * complete (failed, or never reached RecordImagePulled); every completed
 * record is there (one writer: two writers each land whole records, the
 * last one wins); no record is undecodable except the files a trial broke
 * or planted on purpose, and each of those means "must pull"; and the store
 * keeps working.
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync } from "node:fs";
import {
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  truncate,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { seededRandom } from "@kubeimg/testkit";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodePulledRecordFile } from "../codec.js";
import { createVerificationPolicy, type ImagePulledRecord, PullManager } from "../index.js";
import {
  crashAliasSecret,
  crashImage,
  crashImageKey,
  crashImageRef,
  crashPullFails,
  crashSecret,
} from "./crash-workload.test-support.js";
import {
  FileSystemPullRecordStore,
  maxRecordFileBytes,
  staleTemporaryMs,
  storageFileName,
} from "./index.js";

const trials = Number(process.env.KUBEIMG_CRASH_TRIALS ?? 3);
const here = dirname(fileURLToPath(import.meta.url));
let workDir: string;
let childScript: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "kubeimg-crash-"));
  childScript = join(workDir, "crash-child.mjs");
  // Bundle the child once so each trial starts in milliseconds.
  await build({
    entryPoints: [join(here, "crash-child.test-support.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // A bundle of its own: the static variants of `#zod` and `#yaml`.
    conditions: ["@kubeimg/source", "@kubeimg/bundle"],
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

async function readJournal(
  path: string,
  events = new Map<string, Set<number>>(),
): Promise<Map<string, Set<number>>> {
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
  while (!/^ready$/m.test(await readFile(journal, "utf8").catch(() => ""))) {
    if (gone) throw new Error("crash child exited before it started");
    if (Date.now() - started > 20_000) {
      child.kill("SIGKILL");
      await exited;
      throw new Error("crash child did not start");
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, delayMs));
  child.kill("SIGKILL");
  await exited;
}

const clock = { now: Date.now };

type Mode = "one writer" | "two writers" | "hostile directory";

/** A file planted in the directory, and how to tell it is still there as planted. */
interface Planted {
  readonly path: string;
  readonly kind: string;
  /** The workload's imageRef it shadows, if any. */
  readonly ref?: string;
  stillPlanted(): boolean;
}

const hostileKinds = [
  "fifo",
  "symlink to /dev/zero",
  "symlink to a record outside",
  "huge sparse file",
  "garbage",
  "directory",
] as const;

/**
 * Plants hostile files under some of the workload's record names, under
 * intent names the workload never uses (a directory there would only make
 * its pulls fail), and under foreign record names; plus an abandoned
 * temporary, which the next writable open must remove.
 */
async function plantHostileFiles(root: string, random: () => number): Promise<Planted[]> {
  const pulled = join(root, "image_manager", "pulled");
  const pulling = join(root, "image_manager", "pulling");
  mkdirSync(pulled, { recursive: true, mode: 0o700 });
  mkdirSync(pulling, { recursive: true, mode: 0o700 });
  const outside = join(root, "outside-record");
  await writeFile(
    outside,
    encodePulledRecordFile({
      lastUpdatedTime: new Date(0),
      imageRef: crashImageRef(0),
      credentialMapping: new Map([
        [
          crashImageKey(0),
          {
            kubernetesSecrets: [
              { uid: "planted-0", namespace: "x", name: "y", credentialHash: "z" },
            ],
            kubernetesServiceAccounts: [],
            nodePodsAccessible: true,
          },
        ],
      ]),
    }),
  );
  const garbage = "\u0000{ not a record";
  const plant = async (path: string, kind: string, ref?: string): Promise<Planted> => {
    switch (kind) {
      case "fifo":
        execFileSync("mkfifo", [path]);
        return {
          path,
          kind,
          ref,
          stillPlanted: () => lstatSync(path, { throwIfNoEntry: false })?.isFIFO() === true,
        };
      case "symlink to /dev/zero":
      case "symlink to a record outside":
        await symlink(kind === "symlink to /dev/zero" ? "/dev/zero" : outside, path);
        return {
          path,
          kind,
          ref,
          stillPlanted: () => lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true,
        };
      case "huge sparse file":
        await writeFile(path, "");
        await truncate(path, maxRecordFileBytes + 1 + Math.floor(random() * 1e9));
        return {
          path,
          kind,
          ref,
          stillPlanted: () =>
            (lstatSync(path, { throwIfNoEntry: false })?.size ?? 0) > maxRecordFileBytes,
        };
      case "garbage":
        await writeFile(path, garbage);
        return {
          path,
          kind,
          ref,
          stillPlanted: () => {
            try {
              return readFileSync(path, "utf8") === garbage;
            } catch {
              return false;
            }
          },
        };
      case "directory":
        mkdirSync(path);
        return {
          path,
          kind,
          ref,
          stillPlanted: () => lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true,
        };
      default:
        throw new Error(`unknown kind ${kind}`);
    }
  };
  const pick = () => hostileKinds[Math.floor(random() * hostileKinds.length)] as string;
  const planted: Planted[] = [];
  for (let i = 0; i < 5; i++) {
    if (random() < 0.6)
      planted.push(
        await plant(join(pulled, storageFileName(crashImageRef(i))), pick(), crashImageRef(i)),
      );
  }
  for (let k = 0; k < 3; k++) {
    planted.push(await plant(join(pulled, storageFileName(`foreign-${k}`)), pick()));
    planted.push(await plant(join(pulling, storageFileName(`foreign-${k}`)), pick()));
  }
  const stale = join(pulled, `${storageFileName(crashImageRef(1))}.999999999-0123456789ab.tmp`);
  await writeFile(stale, "half a rec");
  const old = new Date(Date.now() - staleTemporaryMs.anyWriterMs - 1000);
  await utimes(stale, old, old);
  planted.push({
    path: stale,
    kind: "abandoned temporary",
    stillPlanted: () => lstatSync(stale, { throwIfNoEntry: false }) !== undefined,
  });
  return planted;
}

async function trial(seed: number, mode: Mode): Promise<number> {
  const random = seededRandom(seed);
  const tag = `${mode.replace(" ", "-")}-${seed}`;
  const root = join(workDir, `trial-${tag}`);
  const planted = mode === "hostile directory" ? await plantHostileFiles(root, random) : [];
  const journals = mode === "two writers" ? ["a", "b"] : ["a"];
  await Promise.all(
    journals.map((j) =>
      runUntilKilled(root, join(workDir, `journal-${tag}-${j}`), Math.floor(random() * 250)),
    ),
  );
  const events = new Map<string, Set<number>>();
  for (const j of journals) await readJournal(join(workDir, `journal-${tag}-${j}`), events);
  const has = (event: string, i: number) => events.get(event)?.has(i) ?? false;

  // Without planted files no write may fail, whoever else writes the same records.
  if (mode !== "hostile directory") {
    expect(events.get("error")?.size ?? 0, "store errors in the writers").toBe(0);
    expect([...(events.get("unrecorded") ?? [])], "pulls not recorded").toEqual([]);
  }

  // Every planted file was either replaced by a record or still means "unreadable".
  for (const p of planted) {
    if (p.kind === "abandoned temporary") expect(p.stillPlanted(), p.path).toBe(false);
  }
  const stillHostile = planted.filter((p) => p.kind !== "abandoned temporary" && p.stillPlanted());

  // One writer: sometimes tear one record file as a non-atomic filesystem could;
  // it must then mean "must pull".
  const pulledDir = join(root, "image_manager", "pulled");
  const files = (await readdir(pulledDir, { withFileTypes: true }))
    .filter((d) => d.isFile() && d.name.startsWith("sha256-") && !d.name.endsWith(".tmp"))
    .map((d) => d.name)
    .filter((n) => !planted.some((p) => p.path === join(pulledDir, n)));
  let torn: string | undefined;
  if (mode === "one writer" && files.length > 0 && random() < 0.5) {
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

  // 2. One writer: every pull journaled as recorded is in its record (unless that file was
  //    torn or is still a planted file). Two writers merge into one record by reading it and
  //    writing it back whole, so the last writer's merge wins and the other's may be gone.
  const byRef = new Map<string, ImagePulledRecord>(listed.items.map((r) => [r.imageRef, r]));
  const blocked = new Set(stillHostile.map((p) => p.ref).filter((r) => r !== undefined));
  for (const i of mode === "two writers" ? [] : (events.get("recorded") ?? [])) {
    if (torn !== undefined && refsByFile.get(torn) === crashImageRef(i)) continue;
    if (blocked.has(crashImageRef(i))) continue;
    const entry = byRef.get(crashImageRef(i))?.credentialMapping.get(crashImageKey(i));
    expect(
      entry?.kubernetesSecrets.some((s) => s.uid === `uid-${i}`),
      `recorded ${i}`,
    ).toBe(true);
  }

  // 3. Undecodable files are only those broken or planted on purpose (the listing skips
  //    directories, as the kubelet does); each is reported and means "must pull", reason `error`.
  const expectedErrors = [
    ...(torn === undefined ? [] : [join(pulledDir, torn)]),
    ...stillHostile
      .filter((p) => p.kind !== "directory" && p.path.startsWith(pulledDir))
      .map((p) => p.path),
  ].sort();
  expect(listed.errors.map((e) => e.path).sort()).toEqual(expectedErrors);
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
  for (const ref of blocked) {
    const decision = await strict.mustAttemptImagePull(crashImage(0), ref, () => ({
      secrets: [crashSecret(0)],
    }));
    expect(decision, `planted ${ref}`).toEqual({ mustPull: true, reason: "error" });
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
  for (const p of stillHostile) {
    if (p.ref === undefined || p.kind === "directory") continue;
    // Recording over a planted file replaces it (rename), never writes through it.
    expect(
      await after.recordImagePulled(crashImage(0), p.ref, { nodePodsAccessible: true }),
    ).toEqual({ recorded: true });
    expect((await again.getPulledRecord(p.ref))?.imageRef).toBe(p.ref);
  }
  await rm(root, { recursive: true, force: true });
  return events.get("intent")?.size ?? 0;
}

describe.each<Mode>(["one writer", "two writers", "hostile directory"])(
  "filesystem store crash safety (SIGKILL), %s",
  (mode) => {
    const base = Number(process.env.KUBEIMG_CRASH_SEED ?? Date.now() % 1_000_000);
    it(`${trials} trials from seed ${base}`, { timeout: 30_000 + trials * 5_000 }, async () => {
      const queue = Array.from({ length: trials }, (_, k) => base + k);
      const failures: string[] = [];
      let pulls = 0;
      const workers = Array.from({ length: trials >= 20 ? 2 : 1 }, async () => {
        for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
          try {
            pulls += await trial(seed, mode);
          } catch (error) {
            failures.push(`seed ${seed}: ${(error as Error).message}`);
          }
        }
      });
      await Promise.all(workers);
      expect(failures).toEqual([]);
      // The kills landed while the workload was running, not before it.
      expect(pulls).toBeGreaterThan(0);
      console.info(
        `crash test (${mode}): ${trials} trials, ${pulls} pull intents journaled before the kills`,
      );
    });
  },
);
