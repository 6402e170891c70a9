/**
 * The filesystem store against a hostile or unlucky directory (FIFOs,
 * sockets, devices, symlinks, huge files under record names), two writers of
 * one record, abandoned temporaries, and the fsyncs that make a write
 * durable. Every unreadable record must mean "must pull", promptly.
 */

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import {
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  truncate,
  utimes,
  writeFile,
} from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encodeIntentFile, encodePulledRecordFile } from "../codec.js";
import {
  createVerificationPolicy,
  type ImagePulledRecord,
  PullManager,
  verificationPolicyNames,
} from "../index.js";
import {
  FileSystemPullRecordStore,
  maxRecordFileBytes,
  staleTemporaryMs,
  storageFileName,
} from "./index.js";

const clock = { now: () => Date.parse("2026-01-15T10:00:00Z") };
const secret = { uid: "u", namespace: "n", name: "s", credentialHash: "h" };
const image = "registry.example.com/team/app:1";
const imageRef = `sha256:${"a".repeat(64)}`;
const record = (ref: string, uid = "u"): ImagePulledRecord => ({
  lastUpdatedTime: new Date(clock.now()),
  imageRef: ref,
  credentialMapping: new Map([
    [
      "registry.example.com/team/app",
      {
        kubernetesSecrets: [{ ...secret, uid }],
        kubernetesServiceAccounts: [],
        nodePodsAccessible: false,
      },
    ],
  ]),
});

let root: string;
let pulled: string;
let pulling: string;
const servers: Server[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "kubeimg-fs-hostile-"));
  pulled = join(root, "image_manager", "pulled");
  pulling = join(root, "image_manager", "pulling");
  mkdirSync(pulled, { recursive: true, mode: 0o700 });
  mkdirSync(pulling, { recursive: true, mode: 0o700 });
});
afterEach(async () => {
  for (const s of servers.splice(0)) s.close();
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

/** Puts something other than a record file at `path`. */
async function plant(kind: string, path: string): Promise<void> {
  switch (kind) {
    case "fifo":
      execFileSync("mkfifo", [path]);
      return;
    case "socket": {
      // Socket paths are short (108 bytes): bind near the root, then move it in place.
      const short = join(tmpdir(), `kubeimg-${process.pid}-${servers.length}.sock`);
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(short, resolve);
      });
      await rename(short, path);
      return;
    }
    case "symlink to /dev/zero":
      await symlink("/dev/zero", path);
      return;
    case "symlink to a valid record outside the directory": {
      const outside = join(root, "outside");
      await writeFile(outside, encodePulledRecordFile(record(imageRef)));
      await writeFile(`${outside}-intent`, encodeIntentFile({ image }));
      await symlink(path.startsWith(pulled) ? outside : `${outside}-intent`, path);
      return;
    }
    case "dangling symlink":
      await symlink(join(root, "nowhere"), path);
      return;
    case "directory":
      mkdirSync(path);
      return;
    case "huge sparse file": {
      await writeFile(path, "");
      await truncate(path, maxRecordFileBytes + 1);
      return;
    }
    case "character device":
      execFileSync("mknod", [path, "c", "1", "5"]); // like /dev/zero
      return;
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

const isRoot = process.getuid?.() === 0;
const kinds = [
  "fifo",
  "socket",
  "symlink to /dev/zero",
  "symlink to a valid record outside the directory",
  "dangling symlink",
  "directory",
  "huge sparse file",
  ...(isRoot ? ["character device"] : []),
];

/** Fails the test when `work` takes longer than `ms` instead of hanging the run. */
async function promptly<T>(work: Promise<T>, ms = 3000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("hostile files under record names", () => {
  it.each(kinds)(
    "%s as a pulled record: unreadable, must pull under every policy",
    async (kind) => {
      await plant(kind, join(pulled, storageFileName(imageRef)));
      const other = `sha256:${"b".repeat(64)}`;
      const store = await promptly(FileSystemPullRecordStore.open(root, { durable: false }));
      await store.writePulledRecord(record(other));
      await expect(promptly(store.getPulledRecord(imageRef))).rejects.toMatchObject({
        name: "PullRecordError",
        code: "STORE_IO_ERROR",
        path: join(pulled, storageFileName(imageRef)),
      });
      const listed = await promptly(store.listPulledRecords());
      expect(listed.items.map((r) => r.imageRef)).toEqual([other]);
      // The kubelet's walk skips directories; every other kind is an error of the listing.
      expect(listed.errors.map((e) => e.code)).toEqual(
        kind === "directory" ? [] : ["STORE_IO_ERROR"],
      );
      for (const policy of verificationPolicyNames) {
        const manager = await PullManager.open({
          store,
          policy: createVerificationPolicy({
            policy,
            ...(policy === "NeverVerifyAllowlistedImages"
              ? { allowlist: ["registry.example.com/team/app"] }
              : {}),
          }),
          clock,
        });
        const decision = await promptly(
          manager.mustAttemptImagePull(image, imageRef, () => ({ secrets: [secret] })),
        );
        expect(decision, policy).toEqual({ mustPull: true, reason: "error" });
      }
    },
  );

  it.each(kinds)("%s as an intent: unreadable, reported", async (kind) => {
    await plant(kind, join(pulling, storageFileName(image)));
    const store = await promptly(FileSystemPullRecordStore.open(root, { durable: false }));
    await expect(promptly(store.intentExists(image))).rejects.toMatchObject({
      code: "STORE_IO_ERROR",
    });
    const listed = await promptly(store.listIntents());
    expect(listed.items).toEqual([]);
    expect(listed.errors.length).toBe(kind === "directory" ? 0 : 1);
    // Opening (which migrates) reported it, and a read-only open does not hang either.
    expect(store.openReport.errors.length).toBe(kind === "directory" ? 0 : 1);
    const readOnly = await promptly(FileSystemPullRecordStore.open(root, { readOnly: true }));
    expect((await promptly(readOnly.listIntents())).items).toEqual([]);
  });

  it("a record file that is huge but under the cap is still read (the cap is only a bound)", async () => {
    const store = await FileSystemPullRecordStore.open(root, { durable: false });
    const many = Array.from({ length: 20_000 }, (_, i) => ({ ...secret, uid: `u-${i}` }));
    const big: ImagePulledRecord = {
      ...record(imageRef),
      credentialMapping: new Map([
        [
          "registry.example.com/team/app",
          { kubernetesSecrets: many, kubernetesServiceAccounts: [], nodePodsAccessible: false },
        ],
      ]),
    };
    await store.writePulledRecord(big);
    expect((await store.getPulledRecord(imageRef))?.credentialMapping.size).toBe(1);
  });

  it("a record overwritten by a symlink after a good read is refused on the next read", async () => {
    const store = await FileSystemPullRecordStore.open(root, { durable: false });
    await store.writePulledRecord(record(imageRef));
    expect((await store.getPulledRecord(imageRef))?.imageRef).toBe(imageRef);
    const path = join(pulled, storageFileName(imageRef));
    await rm(path);
    await symlink("/dev/zero", path);
    await expect(store.getPulledRecord(imageRef)).rejects.toMatchObject({
      code: "STORE_IO_ERROR",
    });
    // Writing the record again replaces the link (rename), never writes through it.
    await store.writePulledRecord(record(imageRef));
    expect((await store.getPulledRecord(imageRef))?.imageRef).toBe(imageRef);
  });
});

describe("two writers of one record", () => {
  it("two store instances writing the same records concurrently: whole records, no errors", async () => {
    const a = await FileSystemPullRecordStore.open(root, { durable: false });
    const b = await FileSystemPullRecordStore.open(root, { durable: false });
    const refs = [0, 1, 2].map((i) => `sha256:${String(i).repeat(64)}`);
    const writes: Promise<void>[] = [];
    const failures: unknown[] = [];
    for (let round = 0; round < 150; round++) {
      for (const ref of refs) {
        for (const [store, who] of [
          [a, "a"],
          [b, "b"],
        ] as const) {
          writes.push(
            store.writePulledRecord(record(ref, `${who}-${round}`)).catch((e: unknown) => {
              failures.push(e);
            }),
          );
          writes.push(
            store.writeIntent(`${ref}-image`).catch((e: unknown) => {
              failures.push(e);
            }),
          );
        }
      }
    }
    await Promise.all(writes);
    expect(failures).toEqual([]);
    const listed = await a.listPulledRecords();
    expect(listed.errors).toEqual([]);
    expect(listed.items.map((r) => r.imageRef).sort()).toEqual(refs);
    expect((await a.listIntents()).errors).toEqual([]);
    // Nothing but the record files is left behind.
    expect((await readdir(pulled)).sort()).toEqual(refs.map(storageFileName).sort());
  });
});

describe("abandoned temporaries", () => {
  const hex = "c".repeat(64);
  const deadPid = (() => {
    const child = spawnSync(process.execPath, ["-e", ""]);
    return child.pid as number;
  })();
  const ago = async (path: string, ms: number) => {
    const t = new Date(Date.now() - ms);
    await utimes(path, t, t);
  };

  it("are removed at open when their writer is gone or they are old; others are kept", async () => {
    const files = {
      deadOld: `sha256-${hex}.${deadPid}-0123456789ab.tmp`,
      deadFresh: `sha256-${hex}.${deadPid}-0123456789ac.tmp`,
      liveOld: `sha256-${hex}.${process.pid}-0123456789ad.tmp`,
      liveAncient: `sha256-${hex}.${process.pid}-0123456789ae.tmp`,
      kubelets: `sha256-${hex}.tmp`,
      foreign: "notes.txt",
    };
    for (const [key, name] of Object.entries(files)) {
      const path = join(pulled, name);
      await writeFile(path, "partial");
      if (key === "deadOld" || key === "liveOld" || key === "kubelets" || key === "foreign") {
        await ago(path, staleTemporaryMs.deadWriterMs + 5_000);
      }
      if (key === "liveAncient") await ago(path, staleTemporaryMs.anyWriterMs + 5_000);
    }
    const readOnly = await FileSystemPullRecordStore.open(root, { readOnly: true });
    expect(readOnly.openReport.removedTemporaries).toEqual([]);
    expect((await readdir(pulled)).length).toBe(6);

    const store = await FileSystemPullRecordStore.open(root, { durable: false });
    expect(store.openReport.removedTemporaries).toEqual(
      [join(pulled, files.deadOld), join(pulled, files.liveAncient)].sort(),
    );
    expect((await readdir(pulled)).sort()).toEqual(
      [files.deadFresh, files.liveOld, files.kubelets, files.foreign].sort(),
    );
    // Temporaries are never taken for records, by us or (name ends in .tmp) the kubelet.
    expect(await store.listPulledRecords()).toEqual({ items: [], errors: [] });
  });
});

describe("durability", () => {
  /** Records each FileHandle.sync() with whether the record file existed at that moment. */
  async function spySyncs(
    target: string,
  ): Promise<{ existed: boolean; dir: boolean; names: string[] }[]> {
    const handle = await open(join(root, "probe"), "w");
    const proto = Object.getPrototypeOf(handle) as { sync: () => Promise<void> };
    await handle.close();
    const calls: { existed: boolean; dir: boolean; names: string[] }[] = [];
    const original = proto.sync;
    vi.spyOn(proto, "sync").mockImplementation(async function (this: { fd: number }) {
      const { fstatSync, existsSync, readdirSync } = await import("node:fs");
      calls.push({
        existed: existsSync(target),
        dir: fstatSync(this.fd).isDirectory(),
        names: readdirSync(join(target, "..")),
      });
      return original.call(this);
    });
    return calls;
  }

  it("fsyncs the file before the rename and the directory after it (records and intents)", async () => {
    const store = await FileSystemPullRecordStore.open(root);
    const recordPath = join(pulled, storageFileName(imageRef));
    const calls = await spySyncs(recordPath);
    await store.writePulledRecord(record(imageRef));
    expect(calls.map(({ existed, dir }) => ({ existed, dir }))).toEqual([
      { existed: false, dir: false },
      { existed: true, dir: true },
    ]);
    // The temporary has a name of its own, ending in .tmp so the kubelet skips it,
    // and nothing is left of it once the write is done.
    expect(calls[0]?.names).toEqual([
      expect.stringMatching(
        new RegExp(`^${storageFileName(imageRef)}\\.${process.pid}-[0-9a-f]{12}\\.tmp$`),
      ),
    ]);
    expect(calls[1]?.names).toEqual([storageFileName(imageRef)]);
    calls.length = 0;
    await store.writeIntent(image);
    expect(calls.map((c) => c.dir)).toEqual([false, true]);
    calls.length = 0;
    await store.deleteIntent(image);
    expect(calls.map((c) => c.dir)).toEqual([true]);
    expect(JSON.parse(await readFile(recordPath, "utf8")).imageRef).toBe(imageRef);
  });

  it("durable: false syncs nothing; a non-boolean is refused", async () => {
    const store = await FileSystemPullRecordStore.open(root, { durable: false });
    const calls = await spySyncs(join(pulled, storageFileName(imageRef)));
    await store.writePulledRecord(record(imageRef));
    await store.writeIntent(image);
    expect(calls).toEqual([]);
    await expect(
      FileSystemPullRecordStore.open(root, { durable: "no" as unknown as boolean }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
