/**
 * Conformance handler for `pullmanager` (FORMAT.md in the suite folder).
 *
 * Every scenario runs against several storage stacks and must pass on each:
 * plain in-memory, the LRU cache over in-memory, and the cache over the
 * filesystem store in a fresh temporary kubelet root; `store: "fs"` scenarios
 * run on the filesystem store alone and under the cache.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pullCredentials } from "@kubeimg/policy/internal";
import {
  CachedPullRecordStore,
  createVerificationPolicy,
  type ImagePullCredentialsInput,
  MemoryPullRecordStore,
  type MetricsRecorder,
  type PullDecision,
  PullManager,
  type PullRecordStore,
  pullManagerMetrics,
  type RuntimeImage,
} from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore, storageFileName } from "@kubeimg/policy/pull-credentials/fs";
import { jsonEqual } from "../compare.js";
import type { SuiteHandler, Vector, VectorOutcome } from "../types.js";

const {
  decodeIntentFile,
  decodePulledRecordFile,
  encodeIntentFile,
  encodePulledRecordFile,
  parseImagePullCredentials,
  pulledRecordFromJson,
  pulledRecordToJson,
  mergeCredentials,
} = pullCredentials;

type Json = unknown;
type Step = { op: string } & Record<string, Json>;

interface Config {
  policy?: string;
  allowlist?: string[];
  time?: string;
  storage?: { pulled?: Json[]; pulling?: string[] };
  runtimeImages?: Record<string, string>;
  rawFiles?: Record<string, string>;
}

/** Bytes no decoder accepts: what `corrupt*` steps leave behind. */
const garbage = '{"kind":"ImagePulledRecord","apiVersion":"kubelet.config.k8s.io/v1beta1",broken';

interface Stack {
  readonly name: string;
  /** The storage itself, below any cache: what the checks read. */
  readonly base: PullRecordStore;
  /** Opens the store a new manager uses (the fs store migrates; the cache warms up). */
  open(): Promise<PullRecordStore>;
  corruptRecord(imageRef: string): Promise<void>;
  corruptIntent(image: string): Promise<void>;
  readRaw(path: string): Promise<string | null>;
  dispose(): Promise<void>;
}

async function memoryStack(cached: boolean): Promise<Stack> {
  const base = new MemoryPullRecordStore();
  return {
    name: cached ? "cached-memory" : "memory",
    base,
    open: async () => (cached ? CachedPullRecordStore.create(base) : base),
    corruptRecord: async (ref) => base.putRawPulledRecord(ref, garbage),
    corruptIntent: async (image) => base.putRawIntent(image, garbage),
    readRaw: async () => {
      throw new Error("readRawFile needs the filesystem store");
    },
    dispose: async () => undefined,
  };
}

async function fsStack(
  cached: boolean,
  rawFiles: Record<string, string> | undefined,
): Promise<Stack> {
  const root = await mkdtemp(join(tmpdir(), "kubeimg-pullmanager-"));
  const managerDir = join(root, "image_manager");
  for (const [path, content] of Object.entries(rawFiles ?? {})) {
    const file = join(managerDir, path);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, content, { mode: 0o600 });
  }
  let base = await FileSystemPullRecordStore.open(root);
  const file = (dir: "pulled" | "pulling", key: string) =>
    join(managerDir, dir, storageFileName(key));
  return {
    name: cached ? "cached-fs" : "fs",
    get base() {
      return base;
    },
    open: async () => {
      base = await FileSystemPullRecordStore.open(root);
      return cached ? CachedPullRecordStore.create(base) : base;
    },
    corruptRecord: (ref) => writeFile(file("pulled", ref), garbage),
    corruptIntent: (image) => writeFile(file("pulling", image), garbage),
    readRaw: async (path) => {
      try {
        return await readFile(join(managerDir, path), "utf8");
      } catch (error) {
        if ((error as { code?: string }).code === "ENOENT") return null;
        throw error;
      }
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

function runtimeImagesOf(map: Record<string, string> | undefined): RuntimeImage[] {
  const byId = new Map<string, { repoTags: string[]; repoDigests: string[] }>();
  for (const [name, id] of Object.entries(map ?? {})) {
    const entry = byId.get(id) ?? { repoTags: [], repoDigests: [] };
    (name.includes("@") ? entry.repoDigests : entry.repoTags).push(name);
    byId.set(id, entry);
  }
  return [...byId].map(([id, e]) => ({ id, ...e }));
}

function canonicalDecision(d: PullDecision) {
  return { mustPull: d.mustPull, reason: d.reason ?? null, error: d.error !== undefined };
}

async function runScenario(vector: Vector, stack: Stack): Promise<VectorOutcome> {
  const config = (vector.config ?? {}) as Config;
  const policy = createVerificationPolicy({
    policy: config.policy,
    allowlist: config.allowlist,
    // The release FORMAT.md names: the vectors keep testing v1.35.
    kubelet: "1.35",
  });
  let now = new Date(config.time ?? "2025-01-01T00:00:00Z");
  const clock = { now: () => now.getTime() };
  const checks = new Map<string, number>();
  const metrics: MetricsRecorder = {
    incrementCounter: (name, labels) => {
      if (name !== pullManagerMetrics.mustPullChecks.name) return;
      const result = labels.result ?? "";
      checks.set(result, (checks.get(result) ?? 0) + 1);
    },
    setGauge: () => undefined,
  };

  for (const record of config.storage?.pulled ?? []) {
    await stack.base.writePulledRecord(pulledRecordFromJson(record));
  }
  for (const image of config.storage?.pulling ?? []) await stack.base.writeIntent(image);

  const open = async (runtime: Record<string, string> | undefined) => {
    const images = runtimeImagesOf(runtime);
    return PullManager.open({
      store: await stack.open(),
      policy,
      clock,
      metrics,
      images: { listImages: async () => images },
    });
  };
  let manager = await open(config.runtimeImages);

  const steps = (vector.steps ?? []) as Step[];
  for (const [index, step] of steps.entries()) {
    const fail = (expected: Json, got: Json): VectorOutcome => ({
      ok: false,
      expected: { stack: stack.name, step: index, op: step.op, expect: expected },
      got,
    });
    const check = (got: Json): VectorOutcome | undefined =>
      "expect" in step && !jsonEqual(step.expect, got) ? fail(step.expect, got) : undefined;
    let problem: VectorOutcome | undefined;
    switch (step.op) {
      case "recordPullIntent":
        await manager.recordPullIntent(step.image as string);
        break;
      case "recordImagePulled":
        await manager.recordImagePulled(
          step.image as string,
          step.imageRef as string,
          (step.credentials ?? null) as ImagePullCredentialsInput | null,
        );
        break;
      case "recordImagePullFailed":
        await manager.recordImagePullFailed(step.image as string);
        break;
      case "mustAttemptImagePull": {
        let requested = false;
        const decision = await manager.mustAttemptImagePull(
          step.image as string,
          step.imageRef as string,
          async () => {
            requested = true;
            if (step.credentialsError === true) throw new Error("credential lookup failed");
            return {
              secrets: (step.secrets ?? []) as never[],
              serviceAccount: (step.serviceAccount ?? null) as never,
            };
          },
        );
        const got = { ...canonicalDecision(decision), requested };
        const want = {
          mustPull: "expect" in step ? step.expect : got.mustPull,
          reason: "expectReason" in step ? step.expectReason : got.reason,
          error: "expectError" in step ? step.expectError === true : got.error,
          requested:
            "expectCredentialsRequested" in step ? step.expectCredentialsRequested : requested,
        };
        if (!jsonEqual(want, got)) problem = fail(want, got);
        break;
      }
      case "restart":
        manager = await open(step.runtimeImages as Record<string, string> | undefined);
        break;
      case "setTime":
        now = new Date(step.time as string);
        break;
      case "pruneUnknownRecords":
        await manager.pruneUnknownRecords(
          step.imageList as string[],
          new Date(step.until as string),
        );
        break;
      case "getPulledRecord": {
        let got: Json;
        try {
          const record = await stack.base.getPulledRecord(step.imageRef as string);
          got = record === undefined ? null : pulledRecordToJson(record);
        } catch (error) {
          got = `unreadable: ${String(error)}`;
        }
        problem = check(got);
        break;
      }
      case "listPulledRecords": {
        const { items } = await stack.base.listPulledRecords();
        problem = check(items.map((r) => r.imageRef).sort());
        break;
      }
      case "listIntents": {
        const { items } = await stack.base.listIntents();
        problem = check(items.map((i) => i.image).sort());
        break;
      }
      case "intentCount":
        problem = check(manager.intentCount(step.image as string));
        break;
      case "corruptPulledRecord":
        await stack.corruptRecord(step.imageRef as string);
        break;
      case "corruptIntent":
        await stack.corruptIntent(step.image as string);
        break;
      case "mustPullChecks":
        problem = check(Object.fromEntries(checks));
        break;
      case "storageKey": {
        problem = check(storageFileName(step.of as string));
        break;
      }
      case "readRawFile":
        problem = check(await stack.readRaw(step.path as string));
        break;
      default:
        problem = runPureStep(step, check, fail);
    }
    if (problem) return problem;
  }
  return { ok: true };
}

function runPureStep(
  step: Step,
  check: (got: Json) => VectorOutcome | undefined,
  fail: (expected: Json, got: Json) => VectorOutcome,
): VectorOutcome | undefined {
  switch (step.op) {
    case "mergeCredentials": {
      const record = pulledRecordFromJson(step.record);
      const creds = parseImagePullCredentials(step.credentials as ImagePullCredentialsInput | null);
      const result = mergeOf(record, step.imageKey as string, creds, new Date(step.now as string));
      return check(result);
    }
    case "decodeFile": {
      try {
        const content = step.content as string;
        if (step.kind === "intent") {
          const d = decodeIntentFile(content);
          return check({ ...d, object: { image: d.object.image } });
        }
        const d = decodePulledRecordFile(content);
        return check({ ...d, object: pulledRecordToJson(d.object) });
      } catch (error) {
        const code = (error as { code?: string }).code;
        if ("expectError" in step && code === step.expectError) return undefined;
        if (!("expect" in step) && !("expectError" in step)) return undefined;
        return fail(step.expect ?? { error: step.expectError }, { error: code ?? String(error) });
      }
    }
    case "encodeFile":
      return check(
        step.kind === "intent"
          ? encodeIntentFile({ image: (step.object as { image: string }).image })
          : encodePulledRecordFile(pulledRecordFromJson(step.object)),
      );
    default:
      return fail("a known op", step.op);
  }
}

function mergeOf(...args: Parameters<typeof mergeCredentials>) {
  const { changed, record } = mergeCredentials(...args);
  return { changed, record: pulledRecordToJson(record) };
}

async function runConfigError(vector: Vector): Promise<VectorOutcome> {
  const config = (vector.config ?? {}) as Config;
  let got: Json;
  try {
    createVerificationPolicy({
      policy: config.policy,
      allowlist: config.allowlist,
      // The release FORMAT.md names: the vectors keep testing v1.35.
      kubelet: "1.35",
    });
    got = { built: true };
  } catch (error) {
    got = { error: (error as { code?: string }).code ?? String(error) };
  }
  return { ok: jsonEqual({ error: vector.error }, got), expected: { error: vector.error }, got };
}

const handler: SuiteHandler = {
  async run(vector) {
    if ("error" in vector) return runConfigError(vector);
    const fs = vector.store === "fs";
    const config = (vector.config ?? {}) as Config;
    const stacks = fs
      ? [() => fsStack(false, config.rawFiles), () => fsStack(true, config.rawFiles)]
      : [() => memoryStack(false), () => memoryStack(true), () => fsStack(true, undefined)];
    for (const make of stacks) {
      const stack = await make();
      try {
        const outcome = await runScenario(vector, stack);
        if (!outcome.ok) return outcome;
      } finally {
        await stack.dispose();
      }
    }
    return { ok: true };
  },
};

export default handler;
