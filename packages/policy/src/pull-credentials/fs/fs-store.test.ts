import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CachedPullRecordStore } from "../cached-store.js";
import type { MetricsRecorder } from "../metrics.js";
import { describeStoreContract } from "../store-contract.test-support.js";
import { FileSystemPullRecordStore, storageFileName } from "./index.js";

const garbage = "\u0000 not a record";

async function fixture(cached: boolean) {
  const root = await mkdtemp(join(tmpdir(), "kubeimg-fs-contract-"));
  const open = async () => {
    const fs = await FileSystemPullRecordStore.open(root);
    return cached ? CachedPullRecordStore.create(fs) : fs;
  };
  const file = (dir: string, key: string) => join(root, "image_manager", dir, storageFileName(key));
  return {
    store: await open(),
    reopen: open,
    corruptIntent: (image: string) => writeFile(file("pulling", image), garbage),
    corruptRecord: (ref: string) => writeFile(file("pulled", ref), garbage),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

describeStoreContract("FileSystemPullRecordStore", () => fixture(false));
describeStoreContract("CachedPullRecordStore over FileSystemPullRecordStore", () => fixture(true));

describe("FileSystemPullRecordStore on disk", () => {
  it("creates 0700 directories and 0600 files named sha256-<hex>, leaving no .tmp behind", async () => {
    const root = await mkdtemp(join(tmpdir(), "kubeimg-fs-"));
    try {
      const store = await FileSystemPullRecordStore.open(root);
      await store.writeIntent("nginx:1.25");
      for (const dir of ["pulling", "pulled"]) {
        expect((await stat(join(root, "image_manager", dir))).mode & 0o777).toBe(0o700);
      }
      const names = await readdir(join(root, "image_manager", "pulling"));
      expect(names).toEqual([storageFileName("nginx:1.25")]);
      const s = await stat(join(root, "image_manager", "pulling", names[0] as string));
      expect(s.mode & 0o777).toBe(0o600);
      expect(
        await readFile(join(root, "image_manager", "pulling", names[0] as string), "utf8"),
      ).toBe(
        '{"kind":"ImagePullIntent","apiVersion":"kubelet.config.k8s.io/v1beta1","image":"nginx:1.25"}\n',
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("reports the on-disk gauges after writes and deletes", async () => {
    const root = await mkdtemp(join(tmpdir(), "kubeimg-fs-"));
    const gauges = new Map<string, number>();
    const metrics: MetricsRecorder = {
      incrementCounter: () => undefined,
      setGauge: (name, value) => gauges.set(name, value),
    };
    try {
      const store = await FileSystemPullRecordStore.open(root, { metrics });
      await store.writeIntent("a");
      await store.writeIntent("b");
      await store.writePulledRecord({
        lastUpdatedTime: new Date(0),
        imageRef: "r",
        credentialMapping: new Map(),
      });
      await store.deleteIntent("a");
      expect(Object.fromEntries(gauges)).toEqual({
        kubelet_imagemanager_ondisk_pullintents: 1,
        kubelet_imagemanager_ondisk_pulledrecords: 1,
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("read-only: reads older files as they are, creates and rewrites nothing", async () => {
    const root = await mkdtemp(join(tmpdir(), "kubeimg-fs-"));
    try {
      const empty = await FileSystemPullRecordStore.open(root, { readOnly: true });
      expect(await empty.listPulledRecords()).toEqual({ items: [], errors: [] });
      expect(await readdir(root)).toEqual([]);
      const alpha =
        '{"kind":"ImagePullIntent","apiVersion":"kubelet.config.k8s.io/v1alpha1","image":"nginx"}';
      const writable = await FileSystemPullRecordStore.open(root);
      await writeFile(join(writable.pullingDir, storageFileName("nginx")), alpha);
      const store = await FileSystemPullRecordStore.open(root, { readOnly: true });
      expect(await store.intentExists("nginx")).toBe(true);
      expect(await readFile(join(store.pullingDir, storageFileName("nginx")), "utf8")).toBe(alpha);
      await expect(store.writeIntent("x")).rejects.toMatchObject({ code: "STORE_IO_ERROR" });
      await expect(store.deleteIntent("nginx")).rejects.toMatchObject({ code: "STORE_IO_ERROR" });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("FileSystemPullRecordStore migration walk order", () => {
  const alphaIntent = (image: string) =>
    JSON.stringify({
      kind: "ImagePullIntent",
      apiVersion: "kubelet.config.k8s.io/v1alpha1",
      image,
    });
  const betaIntent = (image: string) =>
    JSON.stringify({ kind: "ImagePullIntent", apiVersion: "kubelet.config.k8s.io/v1beta1", image });
  const alphaRecord = (imageRef: string) =>
    JSON.stringify({
      kind: "ImagePulledRecord",
      apiVersion: "kubelet.config.k8s.io/v1alpha1",
      lastUpdatedTime: "2025-01-01T00:00:00Z",
      imageRef,
    });
  const betaRecord = (imageRef: string) =>
    JSON.stringify({
      kind: "ImagePulledRecord",
      apiVersion: "kubelet.config.k8s.io/v1beta1",
      lastUpdatedTime: "2025-01-01T00:00:00Z",
      imageRef,
    });

  // `sha256-0` sorts before every hex name, so its rewrite lands on the file named
  // for its content before the walk reaches that (misnamed) file.
  const cases = [
    {
      name: "an older intent's rewrite replaces an unread misnamed intent",
      dir: "pulling",
      files: (first: string) => ({
        "sha256-0": alphaIntent(first),
        [storageFileName(first)]: alphaIntent("other:1"),
      }),
      first: "reg.io/team/app@sha256:abc",
      list: (s: FileSystemPullRecordStore) =>
        s.listIntents().then((r) => r.items.map((i) => i.image)),
    },
    {
      name: "an older intent's rewrite replaces an unread current-version misnamed intent",
      dir: "pulling",
      files: (first: string) => ({
        "sha256-0": alphaIntent(first),
        [storageFileName(first)]: betaIntent("other:1"),
      }),
      first: "nginx:1.25",
      list: (s: FileSystemPullRecordStore) =>
        s.listIntents().then((r) => r.items.map((i) => i.image)),
    },
    {
      name: "an older record's rewrite replaces an unread misnamed record",
      dir: "pulled",
      files: (first: string) => ({
        "sha256-0": alphaRecord(first),
        [storageFileName(first)]: betaRecord("sha256:other"),
      }),
      first: "sha256:1111",
      list: (s: FileSystemPullRecordStore) =>
        s.listPulledRecords().then((r) => r.items.map((i) => i.imageRef)),
    },
  ];

  it.each(cases)("$name", async ({ dir, files, first, list }) => {
    const root = await mkdtemp(join(tmpdir(), "kubeimg-fs-walk-"));
    try {
      await FileSystemPullRecordStore.open(root);
      const folder = join(root, "image_manager", dir);
      for (const [name, content] of Object.entries(files(first))) {
        await writeFile(join(folder, name), content);
      }
      const store = await FileSystemPullRecordStore.open(root);
      // The misnamed file was overwritten before it was read: its content is gone,
      // and the original older-version file is left behind beside the rewrite.
      expect((await list(store)).sort()).toEqual([first, first]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("FileSystemPullRecordStore listing order", () => {
  it("walks file names in Go's byte order, not JavaScript's UTF-16 order", async () => {
    // "\uFF01" < "😀" in UTF-8 bytes (EF… < F0…), the other way round in UTF-16 (FF01 > D83D).
    const root = await mkdtemp(join(tmpdir(), "kubeimg-fs-order-"));
    try {
      await FileSystemPullRecordStore.open(root);
      const folder = join(root, "image_manager", "pulling");
      const intent = (image: string) =>
        JSON.stringify({
          kind: "ImagePullIntent",
          apiVersion: "kubelet.config.k8s.io/v1beta1",
          image,
        });
      await writeFile(join(folder, "sha256-\u{1F600}"), intent("emoji:1"));
      await writeFile(join(folder, "sha256-\uFF01"), intent("fullwidth:1"));
      const store = await FileSystemPullRecordStore.open(root);
      expect((await store.listIntents()).items.map((i) => i.image)).toEqual([
        "fullwidth:1",
        "emoji:1",
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
