/**
 * Writes `fixtures/kubelet/image_manager/` for the demo: drives kubeimg's
 * pull-credential manager over the filesystem store (the kubelet's on-disk
 * format) through the pulls of `kubelet-scenario.ts`. Run it again after
 * changing the scenario:
 *
 *     pnpm exec tsx --conditions=@kubeimg/source examples/demo/scripts/make-kubelet-fixture.ts
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  createVerificationPolicy,
  hashCredential,
  PullManager,
} from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
import { IMAGES, RECORDED_AT, TEAM_A_SECRET } from "../kubelet-scenario.js";

const root = fileURLToPath(new URL("../fixtures/kubelet/", import.meta.url));
rmSync(`${root}image_manager`, { recursive: true, force: true });
const store = await FileSystemPullRecordStore.open(root);
const manager = await PullManager.open({
  store,
  policy: createVerificationPolicy({ policy: "AlwaysVerify" }),
  clock: { now: () => RECORDED_AT.getTime() },
});

const { namespace, name, uid, credential } = TEAM_A_SECRET;
const teamA = { namespace, name, uid, credentialHash: await hashCredential(credential) };

await manager.recordPullIntent(IMAGES.privateApp.image);
await manager.recordImagePulled(IMAGES.privateApp.image, IMAGES.privateApp.ref, {
  kubernetesSecrets: [teamA],
});
await manager.recordPullIntent(IMAGES.publicNginx.image);
await manager.recordImagePulled(IMAGES.publicNginx.image, IMAGES.publicNginx.ref, {
  nodePodsAccessible: true,
});
await manager.recordPullIntent(IMAGES.inFlight.image);
console.log(`wrote ${root}image_manager`);
