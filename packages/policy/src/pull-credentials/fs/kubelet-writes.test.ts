/**
 * The directory a sequence of writes and deletes leaves, against answers
 * recorded from the file level of the kubelet's `fsPullRecordsAccessor`
 * (v1.35 `writeFile`, `Delete*`, `cacheFilename`), built in Go and run over
 * generated starting directories: records, garbage, the kubelet's stale
 * `<name>.tmp` left by an interrupted write, our own temporaries, foreign
 * names and sub-directories. The kubelet writes `<name>` through
 * `<name>.tmp`, so once it has written `<name>` no `<name>.tmp` remains.
 */
import { readFileSync } from "node:fs";
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileSystemPullRecordStore, storageFileName } from "./index.js";

interface Entry {
  readonly name: string;
  readonly content: string;
  readonly kind?: "dir";
  readonly mode?: number;
}
interface Recorded {
  readonly scenario: {
    readonly pulling: readonly Entry[];
    readonly pulled: readonly Entry[];
    readonly ops: readonly { readonly op: string; readonly key: string }[];
  };
  readonly want: {
    readonly pulling: readonly Entry[];
    readonly pulled: readonly Entry[];
    readonly errors: readonly boolean[];
  };
}

const recorded: Recorded[] = readFileSync(
  new URL("./testdata/kubelet-writes.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as Recorded);

const lastUpdatedTime = new Date("2025-01-02T03:04:05Z");
const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function list(dir: string): Promise<Entry[]> {
  const out: Entry[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const s = await lstat(join(dir, name));
    out.push(
      s.isDirectory()
        ? { name, content: "", kind: "dir", mode: s.mode & 0o777 }
        : { name, content: await readFile(join(dir, name), "utf8"), mode: s.mode & 0o777 },
    );
  }
  return out;
}

describe("FileSystemPullRecordStore leaves the directory as the kubelet's writes do", () => {
  it("has the recorded scenarios, most with a stale kubelet temporary", () => {
    expect(recorded).toHaveLength(16);
    const kubeletTemporary = /^sha256-[0-9a-f]{64}\.tmp$/;
    const stale = recorded.filter(({ scenario }) =>
      [...scenario.pulling, ...scenario.pulled].some((e) => kubeletTemporary.test(e.name)),
    );
    expect(stale.length).toBeGreaterThanOrEqual(12);
  });

  it.each(recorded.map((r, i) => [i, r] as const))(
    "scenario %i",
    async (_i, { scenario, want }) => {
      const root = await mkdtemp(join(tmpdir(), "kubeimg-kubelet-writes-"));
      roots.push(root);
      const dirs = {
        pulling: join(root, "image_manager", "pulling"),
        pulled: join(root, "image_manager", "pulled"),
      };
      for (const kind of ["pulling", "pulled"] as const) {
        await mkdir(dirs[kind], { recursive: true, mode: 0o700 });
        for (const entry of scenario[kind]) {
          const path = join(dirs[kind], entry.name);
          if (entry.kind === "dir") {
            await mkdir(path, { mode: 0o700 });
          } else {
            await writeFile(path, entry.content);
            await chmod(path, entry.mode ?? 0o600);
          }
        }
      }
      const store = await FileSystemPullRecordStore.open(root, { durable: false });
      const errors: boolean[] = [];
      for (const { op, key } of scenario.ops) {
        const run = {
          writeIntent: () => store.writeIntent(key),
          writePulled: () =>
            store.writePulledRecord({
              imageRef: key,
              lastUpdatedTime,
              credentialMapping: new Map(),
            }),
          deleteIntent: () => store.deleteIntent(key),
          deletePulled: () => store.deletePulledRecord(key),
        }[op];
        if (run === undefined) throw new Error(`unknown op ${op}`);
        errors.push(
          await run().then(
            () => false,
            () => true,
          ),
        );
      }
      expect({
        pulling: await list(dirs.pulling),
        pulled: await list(dirs.pulled),
        errors,
      }).toEqual(want);
    },
  );
});

describe("a kubelet's temporary", () => {
  it("is consumed by a write of its record, in both directories, and kept beside other names", async () => {
    const root = await mkdtemp(join(tmpdir(), "kubeimg-kubelet-tmp-"));
    roots.push(root);
    const store = await FileSystemPullRecordStore.open(root, { durable: true });
    const image = "nginx:1.25";
    const imageRef = `sha256:${"a".repeat(64)}`;
    const other = storageFileName("busybox");
    await writeFile(join(store.pullingDir, `${storageFileName(image)}.tmp`), '{"kind":"Ima');
    await writeFile(join(store.pullingDir, `${other}.tmp`), "someone else's");
    await writeFile(join(store.pulledDir, `${storageFileName(imageRef)}.tmp`), "");
    await store.writeIntent(image);
    await store.writePulledRecord({ imageRef, lastUpdatedTime, credentialMapping: new Map() });
    expect((await readdir(store.pullingDir)).sort()).toEqual(
      [storageFileName(image), `${other}.tmp`].sort(),
    );
    expect(await readdir(store.pulledDir)).toEqual([storageFileName(imageRef)]);
    // A delete leaves it, as the kubelet's delete does.
    await writeFile(join(store.pullingDir, `${storageFileName(image)}.tmp`), "again");
    await store.deleteIntent(image);
    expect(await readdir(store.pullingDir)).toContain(`${storageFileName(image)}.tmp`);
  });
});
