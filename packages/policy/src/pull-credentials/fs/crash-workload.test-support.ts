/**
 * The workload of the crash test, shared by the child process that runs it
 * (and is killed with SIGKILL) and by the parent that checks the storage it
 * left behind. Pull `i` uses a fixed image, imageRef and secret, so the
 * parent can tell which record entries a pull may legitimately have written.
 */
import { openSync, writeSync } from "node:fs";
import {
  CachedPullRecordStore,
  createVerificationPolicy,
  type ImagePullSecret,
  PullManager,
} from "../index.js";
import { FileSystemPullRecordStore } from "./fs-store.js";

/** The pod image string pull `i` uses (seven repositories, some familiar). */
export function crashImage(i: number): string {
  const repo = i % 7;
  return repo < 2 ? `app-${repo}:v${i % 3}` : `registry.example.com/team/app-${repo}:v${i % 3}`;
}

/** The normalized name `crashImage(i)` is recorded under. */
export function crashImageKey(i: number): string {
  const repo = i % 7;
  return repo < 2 ? `docker.io/library/app-${repo}` : `registry.example.com/team/app-${repo}`;
}

/** The imageRef pull `i` lands on (five images, so records are merged into). */
export function crashImageRef(i: number): string {
  return `sha256:${String(i % 5).repeat(64)}`;
}

/** The secret pull `i` authenticates with (unique coordinates and hash). */
export function crashSecret(i: number): ImagePullSecret {
  return { uid: `uid-${i}`, namespace: `ns-${i % 3}`, name: "cred", credentialHash: `hash-${i}` };
}

/** The secret a later pod presents with the same hash under other coordinates (write-while-matching). */
export function crashAliasSecret(i: number): ImagePullSecret {
  return { uid: `alias-${i}`, namespace: "other", name: "cred", credentialHash: `hash-${i}` };
}

/** Pull `i` fails (credentials rejected) when this is true; its secret must never be recorded. */
export function crashPullFails(i: number): boolean {
  return i % 4 === 3;
}

/**
 * Runs the workload until killed: two workers share one manager over the
 * cached filesystem store under `root`; each step is journaled (synchronous
 * append) before it starts and after it completes.
 */
export async function runCrashWorkload(root: string, journalPath: string): Promise<never> {
  const journalFd = openSync(journalPath, "a");
  const journal = (line: string) => writeSync(journalFd, `${line}\n`);
  let errors = 0;
  const store = await CachedPullRecordStore.create(await FileSystemPullRecordStore.open(root));
  const manager = await PullManager.open({
    store,
    policy: createVerificationPolicy({ policy: "NeverVerifyPreloadedImages" }),
    clock: { now: Date.now },
    // Every store error the manager swallows is journaled: with no hostile file in the
    // directory there must be none, even with another process writing the same records.
    onError: () => journal(`error ${errors++}`),
  });
  journal("ready");
  const worker = async (first: number) => {
    for (let i = first; ; i += 2) {
      const image = crashImage(i);
      const ref = crashImageRef(i);
      journal(`intent ${i}`);
      await manager.recordPullIntent(image);
      if (crashPullFails(i)) {
        journal(`failed ${i}`);
        await manager.recordImagePullFailed(image);
        continue;
      }
      journal(`pulled ${i}`);
      const outcome = await manager.recordImagePulled(image, ref, {
        kubernetesSecrets: [crashSecret(i)],
      });
      journal(outcome.recorded ? `recorded ${i}` : `unrecorded ${i}`);
      if (i % 3 === 0) {
        journal(`alias ${i}`);
        await manager.mustAttemptImagePull(image, ref, () => ({ secrets: [crashAliasSecret(i)] }));
        journal(`aliased ${i}`);
      }
    }
  };
  await Promise.all([worker(0), worker(1)]);
  throw new Error("unreachable");
}
