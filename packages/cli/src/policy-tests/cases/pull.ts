/** `pull` and `pullCheck` cases: the node's pull path (`kubeimg route --node-config`) and the kubelet's decision (`kubeimg pull-check`). */
import { isAbsolute, join } from "node:path";
import { safeParseNormalizedNamed } from "@kubeimg/core/reference";
import {
  createVerificationPolicy,
  kubeletReleases,
  MemoryPullRecordStore,
  PullManager,
  type PullRecordStore,
} from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
import { finalContainerImage } from "@kubeimg/policy/routing";
import {
  kubeletRoot,
  parseSecretFlag,
  parseServiceAccountFlag,
  REASON_TEXT,
} from "../../commands/pull-check/pull-check.js";
import { nodePlan, renderNodePlan } from "../../commands/route/node-config.js";
import {
  at,
  type CaseAnswer,
  type CaseContext,
  compareFields,
  type Json,
  plain,
  requireExpectKeys,
} from "../case-support.js";
import { failAt, type TestCase } from "../test-file.js";
import { resolveWinner, routeInput } from "./route.js";

function canonical(image: string): string {
  const parsed = safeParseNormalizedNamed(image);
  return parsed.success ? parsed.data.toString() : image;
}

export async function evaluatePull(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
  requireExpectKeys(c, tc, false, ["image", "endpoints"]);
  const input = await routeInput(c, tc);
  const loaded = await at(c, tc, [], () => c.env.routing(false));
  const node = await at(c, tc, [], () => c.env.node());
  const plan = nodePlan(loaded.routing, input, node, new Map(), c.upstream);
  const { winner, index } = await resolveWinner(c, tc, plan.route);
  // The image the Pod ends with, found among the planned alternatives.
  const final = canonical(finalContainerImage(plan.route, winner));
  const chosen =
    (index >= 0 && plan.route.status === "routed" && plan.route.probed
      ? plan.alternatives[index]
      : undefined) ?? plan.alternatives.find((a) => canonical(a.image) === final);
  const actual: Json = {
    image: chosen?.image ?? final,
    endpoints: chosen?.endpoints.map((e) => e.endpoint) ?? [],
    ...(chosen?.error ? { error: chosen.error.code } : {}),
  };
  return {
    actual,
    recorded: { image: actual.image, endpoints: actual.endpoints },
    mismatches: compareFields(tc.expect, actual),
    upstream:
      node.runtime === "containerd"
        ? { containerd: c.upstream.containerd }
        : { "containers-image": c.upstream["containers-image"] },
    explain: () =>
      renderNodePlan(plan, plain)
        .split("\n")
        .filter((l) => l.trim() !== ""),
  };
}

export async function evaluatePullCheck(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
  requireExpectKeys(c, tc, false, ["mustPull", "reason"]);
  const input = tc.input;
  const field = (name: string) => ["cases", tc.index, "pullCheck", name];
  const image = input.image as string;
  const parsed = safeParseNormalizedNamed(image);
  if (!parsed.success)
    failAt(c.test, field("image"), `${JSON.stringify(image)}: ${parsed.error.message}`);
  const flag = <T>(name: string, f: () => T): T => {
    try {
      return f();
    } catch (error) {
      failAt(c.test, field(name), (error as Error).message.replace(/^--[a-z-]+ /, ""));
    }
  };
  const secrets = ((input.secrets ?? []) as string[]).map((s) =>
    flag("secrets", () => parseSecretFlag(s)),
  );
  const serviceAccount =
    input.serviceAccount === undefined
      ? null
      : flag("serviceAccount", () => parseServiceAccountFlag(input.serviceAccount as string));
  const policy = flag("policy", () =>
    createVerificationPolicy({
      ...(input.policy === undefined ? {} : { policy: input.policy as string }),
      allowlist: (input.allowlist ?? []) as string[],
      kubelet: c.upstream.kubelet,
      ...(input.allowlistMatching === undefined
        ? {}
        : { allowlistMatching: input.allowlistMatching as "v1.35" | "v1.36" }),
    }),
  );
  let store: PullRecordStore;
  if (input.kubeletDir === undefined) store = new MemoryPullRecordStore();
  else {
    const dir = input.kubeletDir as string;
    const root = await kubeletRoot(isAbsolute(dir) ? dir : c.env.path(dir), c.env.io);
    store = await FileSystemPullRecordStore.open(
      isAbsolute(root) ? root : join(c.env.io.cwd, root),
      { readOnly: true },
    );
  }
  const manager = await PullManager.open({ store, policy, clock: { now: Date.now } });
  const decision = await manager.mustAttemptImagePull(
    image,
    (input.imageRef ?? "") as string,
    () => ({
      secrets,
      serviceAccount,
    }),
  );
  const actual: Json = { mustPull: decision.mustPull, reason: decision.reason ?? "none" };
  return {
    actual,
    recorded: actual,
    mismatches: compareFields(tc.expect, actual),
    upstream: { kubelet: c.upstream.kubelet },
    explain: () => [
      `kubelet ${c.upstream.kubelet}: decided as that release does (--upstream kubelet=${kubeletReleases.join("|")})`,
      `policy ${policy.name}: ${decision.mustPull ? "must pull" : "uses the image on the node"}`,
      decision.reason === undefined ? "the image is not on the node" : REASON_TEXT[decision.reason],
    ],
  };
}
