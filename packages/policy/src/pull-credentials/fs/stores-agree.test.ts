/**
 * Differential property: random sequences of manager operations give the
 * same decisions, intent counts and stored records whichever store is used
 * (in-memory, caches small enough to lose authority, the filesystem store
 * with and without a cache), across restarts.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CachedPullRecordStore,
  createVerificationPolicy,
  MemoryPullRecordStore,
  PullManager,
  type PullRecordStore,
} from "../index.js";
import { pulledRecordToJson } from "../schema.js";
import { FileSystemPullRecordStore } from "./index.js";

const images = ["nginx", "nginx:1.25", "registry.example.com/team/app:1", "Bad:Image:Name"];
const refs = ["sha256:a", "sha256:b"];
const secrets = [0, 1, 2, 3].map((i) => ({
  uid: `u${i % 3}`,
  namespace: `ns${i % 2}`,
  name: "cred",
  credentialHash: i === 3 ? "" : `h${i % 2}`,
}));

const pulledOp = fc.record({
  kind: fc.constant("pulled" as const),
  image: fc.constantFrom(...images),
  ref: fc.constantFrom(...refs),
  creds: fc.oneof(
    fc.constant(null),
    fc.constant({ nodePodsAccessible: true }),
    fc.record({ kubernetesSecrets: fc.subarray(secrets, { minLength: 1 }) }),
    fc.constant({ kubernetesServiceAccounts: [{ uid: "sa", namespace: "ns0", name: "default" }] }),
  ),
});

const checkOp = fc.record({
  kind: fc.constant("check" as const),
  image: fc.constantFrom(...images),
  ref: fc.constantFrom(...refs),
  secrets: fc.subarray(secrets),
  sa: fc.boolean(),
});

const op = fc.oneof(
  fc.record({ kind: fc.constant("intent" as const), image: fc.constantFrom(...images) }),
  { weight: 3, arbitrary: pulledOp },
  fc.record({ kind: fc.constant("failed" as const), image: fc.constantFrom(...images) }),
  { weight: 3, arbitrary: checkOp },
  fc.record({ kind: fc.constant("restart" as const) }),
  fc.record({ kind: fc.constant("prune" as const), keep: fc.subarray(refs) }),
  fc.record({ kind: fc.constant("tick" as const) }),
);

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

interface Variant {
  readonly name: string;
  open(): Promise<{ view: PullRecordStore; base: PullRecordStore }>;
}

async function run(ops: readonly Op[], variant: Variant, policy: string): Promise<unknown[]> {
  let t = Date.UTC(2025, 0, 1);
  const clock = { now: () => t };
  const verification = createVerificationPolicy({ policy });
  let { view, base } = await variant.open();
  let manager = await PullManager.open({ store: view, policy: verification, clock });
  const log: unknown[] = [];
  for (const o of ops) {
    switch (o.kind) {
      case "intent":
        await manager.recordPullIntent(o.image);
        break;
      case "pulled":
        log.push((await manager.recordImagePulled(o.image, o.ref, o.creds)).recorded);
        break;
      case "failed":
        await manager.recordImagePullFailed(o.image);
        break;
      case "check": {
        const d = await manager.mustAttemptImagePull(o.image, o.ref, () => ({
          secrets: o.secrets,
          serviceAccount: o.sa ? { uid: "sa", namespace: "ns0", name: "default" } : null,
        }));
        log.push([d.mustPull, d.reason]);
        break;
      }
      case "restart":
        ({ view, base } = await variant.open());
        manager = await PullManager.open({ store: view, policy: verification, clock });
        break;
      case "prune":
        await manager.pruneUnknownRecords(o.keep, new Date(t));
        break;
      case "tick":
        t += 1000;
        break;
    }
    log.push(images.map((i) => manager.intentCount(i)));
  }
  const records = (await base.listPulledRecords()).items.map(pulledRecordToJson);
  const intents = (await base.listIntents()).items.map((i) => i.image);
  log.push(
    records.sort((a, b) => (a.imageRef < b.imageRef ? -1 : 1)),
    intents.sort(),
  );
  return log;
}

describe("every store gives the same answers", () => {
  it("memory, small caches, filesystem ± cache", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 8, maxLength: 40 }),
        fc.constantFrom("NeverVerifyPreloadedImages", "AlwaysVerify"),
        async (ops, policy) => {
          const memory = new MemoryPullRecordStore();
          const small = new MemoryPullRecordStore();
          const root = await mkdtemp(join(tmpdir(), "kubeimg-agree-"));
          try {
            const variants: Variant[] = [
              { name: "memory", open: async () => ({ view: memory, base: memory }) },
              {
                name: "cache capacity 1",
                open: async () => ({
                  view: await CachedPullRecordStore.create(small, {
                    intentsCapacity: 1,
                    pulledRecordsCapacity: 1,
                  }),
                  base: small,
                }),
              },
              {
                name: "fs + cache",
                open: async () => {
                  const fs = await FileSystemPullRecordStore.open(root);
                  return { view: await CachedPullRecordStore.create(fs), base: fs };
                },
              },
            ];
            const [expected, ...others] = await Promise.all(
              variants.map((v) => run(ops, v, policy)),
            );
            for (const got of others) expect(got).toEqual(expected);
          } finally {
            await rm(root, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
