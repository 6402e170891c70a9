/**
 * One case, answered by the same library calls as the command that answers
 * it by hand: `kubeimg tags` (Flux, `--dialect argocd|kargo`), `kubeimg
 * route --check` (with the listed alternatives unavailable), `kubeimg route
 * --node-config` and `kubeimg pull-check`. Nothing is decided here; the
 * explain trace is built only for a case that fails or is new.
 */
import { isAbsolute, join } from "node:path";
import { defaultPullPolicy, safeParseNormalizedNamed } from "@kubeimg/core/reference";
import { type AvailabilityChecker, resolveFirstAvailable } from "@kubeimg/policy/availability";
import {
  createVerificationPolicy,
  MemoryPullRecordStore,
  PullManager,
  type PullRecordStore,
} from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
import {
  type ContainerRoute,
  finalContainerImage,
  parseRoutingPod,
  type RouteContainerInput,
  routeContainer,
} from "@kubeimg/policy/routing";
import { explainTagSelection, safeSelectLatestTag } from "@kubeimg/policy/tags";
import { selectArgoTag } from "@kubeimg/policy/tags/argocd";
import { needsTagMetadata, type TagInfo } from "@kubeimg/policy/tags/dialects";
import { selectKargoTag } from "@kubeimg/policy/tags/kargo";
import {
  kubeletRoot,
  parseSecretFlag,
  parseServiceAccountFlag,
  REASON_TEXT,
} from "../commands/pull-check/pull-check.js";
import { refuseInvalidAlternatives } from "../commands/route/alternatives.js";
import { keyText, whyText } from "../commands/route/describe.js";
import { explainRoute } from "../commands/route/explain.js";
import { nodePlan, renderNodePlan } from "../commands/route/node-config.js";
import { readTagInfoFile } from "../commands/tags/dialect-load.js";
import { argoMayNeedMetadata, DIALECT_NOTHING_FOUND } from "../commands/tags/dialect-run.js";
import { readTagsFile } from "../commands/tags/load.js";
import { NOTHING_FOUND } from "../commands/tags/tags.js";
import { readInputFile } from "../files/read-file.js";
import { yamlDocuments } from "../files/yaml-documents.js";
import { colorsFor } from "../output/color.js";
import { type LoadedPolicy, PolicyRefError, type TestEnvironment } from "./environment.js";
import type { CaseKind } from "./spec.js";
import { failAt, type TestCase, type TestFile } from "./test-file.js";

type Json = Record<string, unknown>;

/** Lists a repository's tags live, for `registry: true` (the CLI passes the registry options). */
export type ListTags = (request: {
  readonly dialect: "flux" | "argocd" | "kargo";
  readonly image: string;
  readonly exclusionList: readonly string[] | undefined;
  readonly insecure: boolean;
  readonly needsMetadata: boolean;
}) => Promise<readonly TagInfo[]>;

/** What a case's evaluation gives the runner. */
export interface CaseAnswer {
  /** What the library answered, for output and comparison. */
  readonly actual: Json;
  /** What `--update` writes into `expect`. */
  readonly recorded: Json;
  /** One row per expected field that differs. */
  readonly mismatches: readonly Mismatch[];
  /** The decision's trace, built on demand. */
  readonly explain: () => Promise<readonly string[]> | readonly string[];
}

/** An expected field and what was found instead. */
export interface Mismatch {
  readonly field: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/** The context of one case's evaluation. */
export interface CaseContext {
  readonly test: TestFile;
  readonly env: TestEnvironment;
  readonly offline: boolean;
  readonly listTags: ListTags | undefined;
}

const plain = colorsFor(
  { stdout: { write() {} }, stderr: { write() {} }, env: {}, cwd: "/", fetch: globalThis.fetch },
  { noColor: true },
);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function compareFields(expect: Json | undefined, actual: Json): Mismatch[] {
  if (expect === undefined) return [];
  return Object.entries(expect)
    .filter(([field, want]) => !same(want, actual[field]))
    .map(([field, want]) => ({ field, expected: want, actual: actual[field] ?? null }));
}

/** Runs `f`, turning a missing object into an error at the case's field `at`. */
async function at<T>(
  c: CaseContext,
  tc: TestCase,
  field: readonly (string | number)[],
  f: () => Promise<T> | T,
): Promise<T> {
  try {
    return await f();
  } catch (error) {
    if (error instanceof PolicyRefError) {
      failAt(c.test, ["cases", tc.index, tc.kind, ...field], error.message);
    }
    throw error;
  }
}

function requireExpectKeys(
  c: CaseContext,
  tc: TestCase,
  exactlyOne: boolean,
  keys: readonly string[],
): void {
  if (tc.expect === undefined) return;
  const given = keys.filter((k) => k in (tc.expect as Json));
  if (given.length === 0 || (exactlyOne && given.length > 1)) {
    failAt(
      c.test,
      ["cases", tc.index, "expect"],
      exactlyOne
        ? `give exactly one of ${keys.join(", ")}`
        : `give at least one of ${keys.join(", ")}`,
    );
  }
}

async function selectTags(c: CaseContext, tc: TestCase, loaded: LoadedPolicy): Promise<TagInfo[]> {
  const input = tc.input;
  const sources = ["tags", "tagsFile", "registry"].filter(
    (k) => input[k] !== undefined && input[k] !== false,
  );
  if (sources.length !== 1) {
    failAt(
      c.test,
      ["cases", tc.index, "select"],
      "give exactly one of tags, tagsFile or registry: true",
    );
  }
  const metadata = (input.metadata ?? {}) as Record<string, Partial<TagInfo>>;
  let tags: TagInfo[];
  if (input.registry === true) {
    if (c.offline) {
      failAt(
        c.test,
        ["cases", tc.index, "select", "registry"],
        "lists tags live, which --offline refuses",
      );
    }
    if (c.listTags === undefined) {
      failAt(
        c.test,
        ["cases", tc.index, "select", "registry"],
        "lists tags live: pass listTags to runPolicyTests",
      );
    }
    const request =
      loaded.dialect === "flux"
        ? {
            image: loaded.repository?.image,
            exclusionList: loaded.repository?.exclusionList,
            insecure: loaded.repository?.insecure === true,
            needsMetadata: false,
          }
        : loaded.dialect === "argocd"
          ? {
              image: loaded.loaded.image,
              exclusionList: undefined,
              insecure: false,
              needsMetadata: argoMayNeedMetadata(loaded.loaded),
            }
          : {
              image: loaded.loaded.subscription.repoURL,
              exclusionList: undefined,
              insecure: false,
              needsMetadata: needsTagMetadata({
                dialect: "kargo",
                subscription: loaded.loaded.subscription,
              }),
            };
    const image = request.image;
    if (image === undefined) {
      failAt(
        c.test,
        ["cases", tc.index, "select", "registry"],
        "the policy names no repository to list (for Flux, add its ImageRepository to the resources)",
      );
    }
    tags = [...(await c.listTags({ ...request, image, dialect: loaded.dialect }))];
  } else if (input.tagsFile !== undefined) {
    const name = c.env.path(input.tagsFile as string);
    tags =
      loaded.dialect === "flux"
        ? (await readTagsFile(name, c.env.io)).map((t) => ({ name: t }))
        : await readTagInfoFile(name, c.env.io);
  } else {
    tags = (input.tags as string[]).map((name) => ({ name }));
  }
  const names = new Set(tags.map((t) => t.name));
  for (const tag of Object.keys(metadata)) {
    if (!names.has(tag)) {
      failAt(
        c.test,
        ["cases", tc.index, "select", "metadata", tag],
        "is not one of the case's tags",
      );
    }
  }
  return Object.keys(metadata).length === 0
    ? tags
    : tags.map((t) => (metadata[t.name] === undefined ? t : { ...t, ...metadata[t.name] }));
}

async function evaluateSelect(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
  requireExpectKeys(c, tc, true, ["tag", "none", "error"]);
  const input = tc.input;
  const loaded = await at(c, tc, ["policy"], () =>
    c.env.policy(
      input.policy as string,
      input.image as string | undefined,
      input.subscription as number | undefined,
    ),
  );
  if (input.image !== undefined && loaded.dialect !== "argocd") {
    failAt(
      c.test,
      ["cases", tc.index, "select", "image"],
      "is an Argo CD ImageUpdater alias; this policy is not one",
    );
  }
  if (input.subscription !== undefined && loaded.dialect !== "kargo") {
    failAt(
      c.test,
      ["cases", tc.index, "select", "subscription"],
      "is a Kargo Warehouse index; this policy is not one",
    );
  }
  const tags = await selectTags(c, tc, loaded);
  let tag: string | undefined;
  let code: string | undefined;
  let nothing = false;
  let explain: () => readonly string[];
  if (loaded.dialect === "flux") {
    const names = tags.map((t) => t.name);
    const r = safeSelectLatestTag(names, loaded.policy.spec);
    if (r.success) tag = r.tag;
    else {
      code = r.error.code;
      nothing = NOTHING_FOUND.has(code);
    }
    explain = () => {
      const e = explainTagSelection(names, loaded.policy.spec);
      return [
        ...(e.error ? [`${e.error.code}: ${e.error.message}`] : []),
        ...e.tags.map((t) => `${t.tag} (${t.verdict}): ${t.reason}`),
      ];
    };
  } else {
    const select = (explainIt: boolean) =>
      loaded.dialect === "argocd"
        ? selectArgoTag(loaded.loaded.config, tags, { explain: explainIt })
        : selectKargoTag(loaded.loaded.subscription, tags, { explain: explainIt });
    const s = select(false);
    tag = s.tag;
    code = s.outcome?.code;
    nothing = code !== undefined && DIALECT_NOTHING_FOUND.has(code);
    explain = () => {
      const e = select(true);
      return [
        `${loaded.loaded.source}`,
        ...(e.outcome ? [`${e.outcome.code}: ${e.outcome.message}`] : []),
        ...e.notes.map((n) => `note: ${n}`),
        ...e.tags.map((t) => `${t.tag} (${t.verdict}): ${t.reason}`),
      ];
    };
  }
  const recorded: Json = tag !== undefined ? { tag } : nothing ? { none: true } : { error: code };
  const actual: Json = {
    tag: tag ?? null,
    outcome: code ?? null,
    none: tag === undefined && nothing,
  };
  const shown = tag ?? `none (${code})`;
  const mismatches: Mismatch[] = [];
  const expect = tc.expect;
  if (expect?.tag !== undefined && expect.tag !== tag) {
    mismatches.push({ field: "tag", expected: expect.tag, actual: shown });
  }
  if (expect?.none === true && !(tag === undefined && nothing)) {
    mismatches.push({
      field: "none",
      expected: true,
      actual: tag !== undefined ? `tag ${tag}` : `error ${code}`,
    });
  }
  if (expect?.error !== undefined && expect.error !== code) {
    mismatches.push({
      field: "error",
      expected: expect.error,
      actual: tag !== undefined ? `tag ${tag}` : code,
    });
  }
  return { actual, recorded, mismatches, explain };
}

const PLAIN_ANSWERS: AvailabilityChecker = { check: async () => ({ available: true }) };

function checkerFor(unavailable: readonly string[]): AvailabilityChecker {
  if (unavailable.length === 0) return PLAIN_ANSWERS;
  const down = new Set(unavailable);
  return {
    check: async (image) =>
      down.has(image)
        ? { available: false, reason: "listed in unavailable", retryable: false }
        : { available: true },
  };
}

/** The routing input of a route or pull case, as `kubeimg route` builds it from its flags. */
async function routeInput(c: CaseContext, tc: TestCase): Promise<RouteContainerInput> {
  const input = tc.input;
  let namespace = input.namespace as string | undefined;
  let labels = (input.labels ?? {}) as Record<string, string>;
  let annotations = (input.annotations ?? {}) as Record<string, string>;
  let image = input.image as string | undefined;
  let containerName = input.container as string | undefined;
  let pullPolicy = input.pullPolicy as string | undefined;
  if (input.pod !== undefined) {
    const file = await readInputFile(c.env.path(input.pod as string), c.env.io);
    const docs = yamlDocuments(file, { version: "1.1" });
    const pod = await at(c, tc, ["pod"], () => {
      if (docs.length !== 1)
        throw new PolicyRefError(
          `${file.name}: must hold one Pod (found ${docs.length} documents)`,
        );
      try {
        return parseRoutingPod(docs[0]);
      } catch (error) {
        throw new PolicyRefError(`${file.name}: ${(error as Error).message}`);
      }
    });
    const containers = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
    const container =
      containerName === undefined
        ? containers[0]
        : containers.find((x) => x.name === containerName);
    if (container === undefined) {
      failAt(
        c.test,
        ["cases", tc.index, tc.kind, containerName === undefined ? "pod" : "container"],
        `${file.name} has no container${containerName === undefined ? "" : ` named ${JSON.stringify(containerName)}`} (found: ${containers.map((x) => x.name).join(", ") || "none"})`,
      );
    }
    namespace ??= pod.metadata.namespace || undefined;
    labels = { ...(pod.metadata.labels ?? {}), ...labels };
    annotations = { ...(pod.metadata.annotations ?? {}), ...annotations };
    image ??= container.image;
    containerName = container.name;
    pullPolicy ??= container.imagePullPolicy;
  }
  if (image === undefined || image === "") {
    failAt(c.test, ["cases", tc.index, tc.kind], "needs image (or a pod whose container has one)");
  }
  const parsed = safeParseNormalizedNamed(image);
  if (!parsed.success) {
    failAt(
      c.test,
      ["cases", tc.index, tc.kind, "image"],
      `${JSON.stringify(image)}: ${parsed.error.message}`,
    );
  }
  const toMap = (record: Record<string, string>) => {
    // As `kubeimg route --label`: a key `__proto__` is just a key.
    const out = Object.create(null) as Record<string, string>;
    for (const [k, v] of Object.entries(record)) {
      Object.defineProperty(out, k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return {
    pod: {
      namespace: namespace ?? "default",
      labels: toMap(labels),
      annotations: toMap(annotations),
    },
    container: {
      name: containerName ?? "app",
      image,
      imagePullPolicy: pullPolicy ?? defaultPullPolicy(image),
    },
  };
}

async function resolveWinner(c: CaseContext, tc: TestCase, route: ContainerRoute) {
  const unavailable = (tc.input.unavailable ?? []) as string[];
  const listed = route.status === "routed" ? route.alternatives.map((a) => a.image) : [];
  unavailable.forEach((image, i) => {
    if (!listed.includes(image)) {
      failAt(
        c.test,
        ["cases", tc.index, tc.kind, "unavailable", i],
        `${JSON.stringify(image)} is not one of the alternatives (${listed.join(", ") || "none: the container is not routed"})`,
      );
    }
  });
  if (route.status !== "routed" || route.alternatives.length === 0) {
    return { winner: undefined, index: -1 };
  }
  refuseInvalidAlternatives(route.alternatives);
  const result = await resolveFirstAvailable(route.alternatives, checkerFor(unavailable));
  return { winner: result.winner, index: result.index };
}

function routeTrace(route: ContainerRoute): string[] {
  if (route.status !== "routed") return [`the webhook skips the container: ${route.skipReason}`];
  return [
    `the webhook ${route.probed ? "probes" : "does not probe (fewer than two)"} ${route.alternatives.length} alternative(s), in order:`,
    ...route.alternatives.map(
      (a, i) => `${i + 1}. ${a.image}  key ${keyText(a.reason)}  ${whyText(a.reason)}`,
    ),
  ];
}

async function evaluateRoute(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
  requireExpectKeys(c, tc, false, ["image", "alternatives"]);
  const input = await routeInput(c, tc);
  const loaded = await at(c, tc, [], () => c.env.routing(true));
  const route = routeContainer(loaded.routing, input);
  const { winner } = await resolveWinner(c, tc, route);
  const image = finalContainerImage(route, winner);
  const alternatives = route.status === "routed" ? route.alternatives.map((a) => a.image) : [];
  const actual: Json = { image, alternatives };
  return {
    actual,
    recorded: actual,
    mismatches: compareFields(tc.expect, actual),
    explain: () => [
      ...routeTrace(route),
      ...(winner ? [`first available: ${winner.image}`] : []),
      ...explainRoute(loaded.resources, loaded.routing, input, route, {
        config: loaded.config,
        discardAlternativeMode: "kuik",
      }).map((e) => `${e.resource} ${e.entry}: ${e.result}: ${e.why}`),
    ],
  };
}

function canonical(image: string): string {
  const parsed = safeParseNormalizedNamed(image);
  return parsed.success ? parsed.data.toString() : image;
}

async function evaluatePull(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
  requireExpectKeys(c, tc, false, ["image", "endpoints"]);
  const input = await routeInput(c, tc);
  const loaded = await at(c, tc, [], () => c.env.routing(false));
  const node = await at(c, tc, [], () => c.env.node());
  const plan = nodePlan(loaded.routing, input, node, new Map());
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
    explain: () =>
      renderNodePlan(plan, plain)
        .split("\n")
        .filter((l) => l.trim() !== ""),
  };
}

async function evaluatePullCheck(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
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
      allowlistMatching: (input.allowlistMatching ?? "v1.35") as "v1.35" | "v1.36",
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
    explain: () => [
      `policy ${policy.name}: ${decision.mustPull ? "must pull" : "uses the image on the node"}`,
      decision.reason === undefined ? "the image is not on the node" : REASON_TEXT[decision.reason],
    ],
  };
}

const EVALUATORS: Record<CaseKind, (c: CaseContext, tc: TestCase) => Promise<CaseAnswer>> = {
  select: evaluateSelect,
  route: evaluateRoute,
  pull: evaluatePull,
  pullCheck: evaluatePullCheck,
};

/** Answers one case with the library, compared with its `expect`. */
export function evaluateCase(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
  return EVALUATORS[tc.kind](c, tc);
}
