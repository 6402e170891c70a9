/**
 * What the playground computes, as plain functions from pasted text to plain
 * JSON-safe results. They run inside the Web Worker (so a hostile paste costs
 * the worker, never the tab) and directly in unit tests. Every answer comes
 * from the packages' public entries; this file only parses the pasted text,
 * maps a library error to the input line it is about, and shapes rows.
 */

import {
  defaultPullPolicy,
  familiarString,
  isImageReferenceError,
  parseNormalizedNamed,
} from "@kubeimg/core/reference";
import { compileRegexp } from "@kubeimg/core/regexp";
import {
  type ContainerRoute,
  compileRouting,
  isRoutingError,
  planPodRouting,
  type RoutingResourceRef,
  routeContainer,
} from "@kubeimg/policy/routing";
import { loadRoutingResources } from "@kubeimg/policy/routing/yaml";
import {
  type ArgoConfigObject,
  compareTagSelections,
  dialectObjectKind,
  explainTagSelection,
  isTagDialectError,
  isTagPolicyError,
  type KargoSubscriptionObject,
  parseImagePolicy,
  readArgoApplication,
  readArgoImageUpdater,
  readKargoWarehouse,
  type TagSelectionPolicy,
  translateFluxToArgo,
  translateFluxToKargo,
} from "@kubeimg/policy/tags";
import { LineCounter, parseAllDocuments } from "yaml";

/** The largest paste the worker reads; past it the answer is an input error, not a slow parse. */
export const MAX_INPUT_CHARS = 2_000_000;

/** One problem with the pasted text, placed on the line it is about. */
export interface InputIssue {
  /** Which input box: `policy`, `tags`, `objects`, `refs`, `crs`, `pod`, `image`. */
  readonly input: string;
  /** 1-based line in that box, when the problem can be placed. */
  readonly line: number | undefined;
  /** The field path, such as `spec.policy.semver.range`. */
  readonly path: string;
  /** The offending value, as text. */
  readonly value: string;
  readonly message: string;
}

// ---------------------------------------------------------------------------
// YAML reading shared by the views

interface ParsedYaml {
  readonly values: unknown[];
  /** The same values with the index of the document each came from. */
  readonly documents: readonly { readonly index: number; readonly value: unknown }[];
  /** Finds the 1-based line of a dotted field path inside document `doc`. */
  lineOf(doc: number, path: string): number | undefined;
}

/**
 * Parses one or more YAML documents. Aliases are capped (an alias bomb is an
 * error, not an explosion), and a syntax error becomes an issue on its line.
 */
function readYaml(text: string, input: string): ParsedYaml | InputIssue {
  if (text.length > MAX_INPUT_CHARS) {
    return tooLarge(input, text.length);
  }
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [];
  for (const doc of list) {
    const err = doc.errors[0];
    if (err !== undefined) {
      return {
        input,
        line: lines.linePos(err.pos[0]).line,
        path: "",
        value: text.slice(err.pos[0], Math.min(err.pos[1], err.pos[0] + 40)),
        message: `YAML: ${err.message.split("\n")[0]}`,
      };
    }
  }
  const values: unknown[] = [];
  const documents: { index: number; value: unknown }[] = [];
  for (const [index, doc] of list.entries()) {
    try {
      const value = doc.toJS({ maxAliasCount: 100 });
      if (value !== null && value !== undefined) {
        values.push(value);
        documents.push({ index, value });
      }
    } catch (error) {
      return {
        input,
        line: undefined,
        path: "",
        value: "",
        message: `YAML: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  return {
    values,
    documents,
    lineOf(index, path) {
      const doc = list[index];
      if (doc === undefined) return undefined;
      const dotted = path.replace(/\[(\d+)\]/g, ".$1");
      const keys =
        dotted === "" ? [] : dotted.split(".").map((k) => (/^\d+$/.test(k) ? Number(k) : k));
      // Walk down as far as the path exists: a missing field is reported on its parent.
      for (let n = keys.length; n >= 0; n--) {
        const node = doc.getIn(keys.slice(0, n), true) as {
          range?: [number, number, number];
        } | null;
        if (node !== null && node !== undefined && typeof node === "object" && node.range) {
          return lines.linePos(node.range[0]).line;
        }
      }
      return undefined;
    },
  };
}

function tooLarge(input: string, size: number): InputIssue {
  return {
    input,
    line: undefined,
    path: "",
    value: `${size} characters`,
    message: `the input is larger than the playground reads (${MAX_INPUT_CHARS} characters)`,
  };
}

function isIssue(x: unknown): x is InputIssue {
  return typeof x === "object" && x !== null && "message" in x && "input" in x;
}

function show(value: unknown): string {
  if (value === undefined) return "(missing)";
  if (typeof value === "string") return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

// ---------------------------------------------------------------------------
// Tags

export type TagsDialect = "flux" | "compare";

export interface TagsInput {
  readonly policy: string;
  readonly tags: string;
  readonly dialect: TagsDialect;
  /**
   * Compare only: an Argo CD `ImageUpdater` or annotated `Application`
   * and/or a Kargo `Warehouse` (YAML documents). A dialect given no object
   * here is translated from the Flux policy.
   */
  readonly objects?: string;
}

export interface TagRow {
  readonly tag: string;
  readonly verdict: string;
  readonly reason: string;
  /** The key ranked (the extract), when the tag passed the filter. */
  readonly key: string | undefined;
  /** The part of the tag the filter pattern matched, as [start, end), and each group. */
  readonly match: readonly {
    readonly name: string;
    readonly start: number;
    readonly end: number;
  }[];
}

export interface ComparePick {
  readonly dialect: string;
  /** Where the dialect's configuration comes from: the pasted object, or the translation. */
  readonly source: string;
  readonly tag: string | undefined;
  readonly outcome: string | undefined;
  readonly message: string | undefined;
  /** What the translation from the Flux policy could not carry over. */
  readonly lost: readonly string[];
}

/** The explain rows sent to the page at most: rendering more would be the page-thread freeze. */
export const MAX_TAG_ROWS = 1000;

export interface TagsResult {
  readonly kind: "tags";
  readonly issues: readonly InputIssue[];
  /** How many tags were explained but not sent (past {@link MAX_TAG_ROWS}). */
  readonly hiddenRows: number;
  readonly selected: string | undefined;
  readonly error: { readonly code: string; readonly message: string } | undefined;
  readonly rows: readonly TagRow[];
  readonly compare:
    | {
        readonly picks: readonly ComparePick[];
        /** Each pair that disagrees, with the first rule that separates them. */
        readonly differences: readonly {
          readonly a: string;
          readonly b: string;
          readonly summary: string;
        }[];
        readonly verdicts: readonly {
          readonly tag: string;
          readonly byDialect: readonly string[];
        }[];
      }
    | undefined;
}

/**
 * Reads a tag list: one tag per line, a JSON array of names, `crane ls`
 * output (lines), or `skopeo list-tags` JSON (`{"Repository", "Tags"}`).
 */
export function readTagList(text: string): readonly string[] | InputIssue {
  if (text.length > MAX_INPUT_CHARS) return tooLarge("tags", text.length);
  const trimmed = text.trim();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (error) {
      return {
        input: "tags",
        line: 1,
        path: "",
        value: trimmed.slice(0, 40),
        message: `JSON: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    const list = Array.isArray(json)
      ? json
      : typeof json === "object" && json !== null
        ? ((json as Record<string, unknown>).Tags ?? (json as Record<string, unknown>).tags)
        : undefined;
    if (!Array.isArray(list)) {
      return {
        input: "tags",
        line: 1,
        path: "Tags",
        value: show(list),
        message: "expected a JSON array of tags, or an object with a Tags array (skopeo list-tags)",
      };
    }
    const bad = list.findIndex((t) => typeof t !== "string");
    if (bad >= 0) {
      return {
        input: "tags",
        line: undefined,
        path: `Tags.${bad}`,
        value: show(list[bad]),
        message: "a tag must be a string",
      };
    }
    return list as string[];
  }
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

function readPolicy(text: string): { policy: TagSelectionPolicy; image: string } | InputIssue {
  const yaml = readYaml(text, "policy");
  if (isIssue(yaml)) return yaml;
  if (yaml.values.length !== 1) {
    return {
      input: "policy",
      line: undefined,
      path: "",
      value: `${yaml.values.length} documents`,
      message: "paste exactly one ImagePolicy",
    };
  }
  try {
    const policy = parseImagePolicy(yaml.values[0]);
    const spec = policy.spec;
    return {
      policy: {
        policy: spec.policy,
        ...(spec.filterTags === undefined ? {} : { filterTags: spec.filterTags }),
      } as TagSelectionPolicy,
      image: spec.imageRepositoryRef.name,
    };
  } catch (error) {
    if (isTagPolicyError(error)) {
      const issue = error.issues[0];
      if (issue !== undefined) {
        return {
          input: "policy",
          line: yaml.lineOf(0, issue.path),
          path: issue.path,
          value: show(issue.value),
          message: issue.message,
        };
      }
      return { input: "policy", line: undefined, path: "", value: "", message: error.message };
    }
    throw error;
  }
}

function matchParts(pattern: string, tag: string): TagRow["match"] {
  if (pattern === "") return [];
  let re: ReturnType<typeof compileRegexp>;
  try {
    re = compileRegexp(pattern);
  } catch {
    return [];
  }
  const idx = re.findStringSubmatchIndex(tag);
  if (idx === null) return [];
  const names = re.subexpNames();
  const parts: { name: string; start: number; end: number }[] = [];
  for (let g = 0; g * 2 < idx.length; g++) {
    const start = idx[g * 2] as number;
    const end = idx[g * 2 + 1] as number;
    if (start < 0) continue;
    parts.push({ name: g === 0 ? "$0" : names[g] || `$${g}`, start, end });
  }
  return parts;
}

interface DialectObjects {
  readonly argo: ArgoConfigObject | undefined;
  readonly kargo: KargoSubscriptionObject | undefined;
}

const objectNames = {
  "argocd-image-updater": "ImageUpdater",
  "argocd-application": "Application",
  "kargo-warehouse": "Warehouse",
} as const;

/**
 * Reads the compare view's native objects: at most one Argo CD
 * configuration (an `ImageUpdater`, or an annotated `Application`) and at
 * most one Kargo `Warehouse`, with the readers the `kubeimg` command uses.
 */
function readDialectObjects(text: string): DialectObjects | InputIssue {
  const none = { argo: undefined, kargo: undefined };
  if (text.trim() === "") return none;
  const yaml = readYaml(text, "objects");
  if (isIssue(yaml)) return yaml;
  let argo: { object: ArgoConfigObject; index: number } | undefined;
  let kargo: { object: KargoSubscriptionObject; index: number } | undefined;
  for (const { index, value } of yaml.documents) {
    const kind = dialectObjectKind(value);
    const line = yaml.lineOf(index, "");
    if (kind === undefined) {
      const v = value as { apiVersion?: unknown; kind?: unknown } | null;
      return {
        input: "objects",
        line: yaml.lineOf(index, "kind"),
        path: "kind",
        value: typeof v === "object" && v !== null ? show(`${v.apiVersion}/${v.kind}`) : show(v),
        message:
          "expected an Argo CD ImageUpdater, an Application with argocd-image-updater.argoproj.io annotations, or a Kargo Warehouse",
      };
    }
    const at = objectNames[kind];
    try {
      if (kind === "kargo-warehouse") {
        if (kargo !== undefined) {
          return { input: "objects", line, path: "", value: at, message: "paste one Warehouse" };
        }
        kargo = { object: readKargoWarehouse(value, { at }), index };
      } else {
        if (argo !== undefined) {
          return {
            input: "objects",
            line,
            path: "",
            value: at,
            message: "paste one Argo CD configuration (an ImageUpdater or an Application)",
          };
        }
        const object =
          kind === "argocd-image-updater"
            ? readArgoImageUpdater(value, { at })
            : readArgoApplication(value, { at });
        argo = { object, index };
      }
    } catch (error) {
      if (!isTagDialectError(error)) throw error;
      const inner = error.path.startsWith(`${at}.`) ? error.path.slice(at.length + 1) : "";
      return {
        input: "objects",
        line: yaml.lineOf(index, inner),
        path: error.path,
        value: show(error.value),
        message: error.message.slice(error.path.length + 2).replace(/ \(got .*\)$/s, ""),
      };
    }
  }
  return { argo: argo?.object, kargo: kargo?.object };
}

/** Runs the Tags view: Flux's selection with a verdict per tag, or the three dialects side by side. */
export function runTags(input: TagsInput): TagsResult {
  const empty = {
    selected: undefined,
    error: undefined,
    rows: [],
    compare: undefined,
    hiddenRows: 0,
  };
  const compare = input.dialect === "compare";
  const issues: InputIssue[] = [];
  // Compare runs without a Flux policy when the objects give the other two.
  const policy = compare && input.policy.trim() === "" ? undefined : readPolicy(input.policy);
  if (isIssue(policy)) issues.push(policy);
  const tags = readTagList(input.tags);
  if (isIssue(tags)) issues.push(tags);
  const objects = compare ? readDialectObjects(input.objects ?? "") : undefined;
  if (isIssue(objects)) issues.push(objects);
  if (isIssue(policy) || isIssue(tags) || isIssue(objects)) {
    return { kind: "tags", issues, ...empty };
  }
  let flux: Omit<TagsResult, "kind" | "issues" | "compare"> = empty;
  if (policy !== undefined) {
    const e = explainTagSelection(tags, policy.policy);
    const pattern = policy.policy.filterTags?.pattern ?? "";
    flux = {
      hiddenRows: Math.max(0, e.tags.length - MAX_TAG_ROWS),
      selected: e.tag,
      error: e.error === undefined ? undefined : { code: e.error.code, message: e.error.message },
      rows: e.tags.slice(0, MAX_TAG_ROWS).map((t) => ({
        tag: t.tag,
        verdict: t.verdict,
        reason: t.reason,
        key: t.key,
        match: t.key === undefined ? [] : matchParts(pattern, t.tag),
      })),
    };
    if (e.error?.input !== undefined && e.error.code === "INVALID_PATTERN") {
      issues.push({
        input: "policy",
        line: undefined,
        path: "spec.filterTags.pattern",
        value: show(e.error.input),
        message: e.error.message,
      });
    }
  }
  if (objects === undefined) return { kind: "tags", issues, ...flux, compare: undefined };
  if (policy === undefined && objects.argo === undefined && objects.kargo === undefined) {
    issues.push({
      input: "policy",
      line: undefined,
      path: "",
      value: "",
      message: "paste an ImagePolicy, or Argo CD / Kargo objects, to compare",
    });
    return { kind: "tags", issues, ...empty };
  }

  const translated = "translated from the Flux ImagePolicy";
  const argo =
    objects.argo === undefined && policy !== undefined
      ? translateFluxToArgo(policy.policy, policy.image)
      : undefined;
  const kargo =
    objects.kargo === undefined && policy !== undefined
      ? translateFluxToKargo(policy.policy, policy.image)
      : undefined;
  const argoConfig = objects.argo?.config ?? argo?.config;
  const kargoConfig = objects.kargo?.subscription ?? kargo?.config;
  const c = compareTagSelections({
    tags: tags.map((name) => ({ name })),
    ...(policy === undefined ? {} : { flux: policy.policy }),
    ...(argoConfig === undefined ? {} : { argocd: argoConfig }),
    ...(kargoConfig === undefined ? {} : { kargo: kargoConfig }),
  });
  const about: Record<string, { source: string; lost: readonly string[] }> = {
    flux: { source: "the ImagePolicy", lost: [] },
    "argocd-image-updater": objects.argo
      ? { source: objects.argo.source, lost: [] }
      : { source: translated, lost: argo?.lost ?? [] },
    kargo: objects.kargo
      ? { source: objects.kargo.source, lost: [] }
      : { source: translated, lost: kargo?.lost ?? [] },
  };
  const picks = c.picks.map((p) => ({
    dialect: p.dialect,
    source: about[p.dialect]?.source ?? "",
    tag: p.tag,
    outcome: p.outcome,
    message: p.message,
    lost: about[p.dialect]?.lost ?? [],
  }));
  const seen = new Set<string>();
  const verdicts: { tag: string; byDialect: string[] }[] = [];
  for (const tag of tags) {
    if (verdicts.length >= MAX_TAG_ROWS) break;
    if (seen.has(tag)) continue;
    seen.add(tag);
    verdicts.push({
      tag,
      byDialect: c.picks.map((p) => {
        const v = p.verdicts.get(tag);
        return v === undefined ? "" : `${v.verdict}: ${v.reason}`;
      }),
    });
  }
  return {
    kind: "tags",
    issues,
    ...flux,
    compare: {
      picks,
      differences: c.differences.map((d) => ({ a: d.a, b: d.b, summary: d.summary })),
      verdicts,
    },
  };
}

// ---------------------------------------------------------------------------
// References

export interface ReferenceRow {
  readonly line: number;
  readonly input: string;
  readonly normalized: string | undefined;
  readonly familiar: string | undefined;
  readonly tag: string | undefined;
  readonly digest: string | undefined;
  readonly pullPolicy: string | undefined;
  /** The exact error Go's distribution/reference reports, with its stable code. */
  readonly error: { readonly code: string; readonly message: string } | undefined;
}

export interface ReferencesResult {
  readonly kind: "references";
  readonly issues: readonly InputIssue[];
  readonly rows: readonly ReferenceRow[];
}

/** The rows shown at most; a longer paste is answered for its first lines. */
export const MAX_REFERENCE_ROWS = 2000;

/** Runs the References view: one row per non-empty line. */
export function runReferences(text: string): ReferencesResult {
  if (text.length > MAX_INPUT_CHARS) {
    return { kind: "references", issues: [tooLarge("refs", text.length)], rows: [] };
  }
  const rows: ReferenceRow[] = [];
  const issues: InputIssue[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length && rows.length < MAX_REFERENCE_ROWS; i++) {
    const raw = (lines[i] as string).trim();
    if (raw === "" || raw.startsWith("#")) continue;
    try {
      const named = parseNormalizedNamed(raw);
      rows.push({
        line: i + 1,
        input: raw,
        normalized: named.string,
        familiar: familiarString(named),
        tag: named.tag,
        digest: named.digest,
        pullPolicy: defaultPullPolicy(raw),
        error: undefined,
      });
    } catch (error) {
      if (!isImageReferenceError(error)) throw error;
      rows.push({
        line: i + 1,
        input: raw,
        normalized: undefined,
        familiar: undefined,
        tag: undefined,
        digest: undefined,
        pullPolicy: undefined,
        error: { code: error.code, message: error.message },
      });
      issues.push({
        input: "refs",
        line: i + 1,
        path: "",
        value: JSON.stringify(raw),
        message: error.message,
      });
    }
  }
  return { kind: "references", issues, rows };
}

/** Exposed for the unit tests: whether the YAML reader refuses an alias bomb. */
export function yamlProblem(text: string): InputIssue | undefined {
  const r = readYaml(text, "policy");
  return isIssue(r) ? r : undefined;
}

// ---------------------------------------------------------------------------
// Routing

export interface RoutingInput {
  /** kuik CRs, several YAML documents. */
  readonly crs: string;
  /** `image`: route one image; `pod`: plan a pasted Pod. */
  readonly mode: "image" | "pod";
  readonly image: string;
  readonly namespace: string;
  /** `Always`, `IfNotPresent`, `Never`, or "" for the API server's default. */
  readonly pullPolicy: string;
  readonly pod: string;
}

export interface AlternativeRow {
  readonly image: string;
  readonly source: string;
  /** The CR the entry comes from, `Kind/namespace/name`. */
  readonly resource: string;
  /** The sort key, shown as `(crPriority, kindRank, entryPriority, entryIndex)`. */
  readonly key: string;
  readonly why: string;
  readonly secret: string;
}

export interface ContainerRow {
  readonly container: string;
  readonly image: string;
  readonly status: "routed" | "skipped";
  readonly skipReason: string | undefined;
  readonly normalized: string | undefined;
  readonly probed: boolean;
  readonly alternatives: readonly AlternativeRow[];
}

export interface ResourceRow {
  readonly resource: string;
  readonly applied: boolean;
  readonly why: string;
}

export interface RoutingResult {
  readonly kind: "routing";
  readonly issues: readonly InputIssue[];
  readonly error: string | undefined;
  readonly containers: readonly ContainerRow[];
  /** Every CR and whether it contributed an entry to some container. */
  readonly resources: readonly ResourceRow[];
}

function refName(r: RoutingResourceRef): string {
  return r.namespace === undefined ? `${r.kind}/${r.name}` : `${r.kind}/${r.namespace}/${r.name}`;
}

function containerRow(route: ContainerRoute): ContainerRow {
  if (route.status === "skipped") {
    return {
      container: route.container,
      image: route.image,
      status: "skipped",
      skipReason: route.skipReason,
      normalized: undefined,
      probed: false,
      alternatives: [],
    };
  }
  return {
    container: route.container,
    image: route.image,
    status: "routed",
    skipReason: undefined,
    normalized: route.normalized,
    probed: route.probed,
    alternatives: route.alternatives.map((a) => {
      const k = a.reason.key;
      const key = `(${k.crPriority}, ${k.kindRank}, ${k.entryPriority}, ${k.entryIndex})`;
      const secret =
        a.credentialSecret === undefined
          ? ""
          : `${a.credentialSecret.namespace ?? ""}${a.credentialSecret.namespace ? "/" : ""}${a.credentialSecret.name}`;
      const r = a.reason;
      if (r.source === "original") {
        return {
          image: a.image,
          source: "original",
          resource: "",
          key,
          why: r.pinnedFirst
            ? "the image as written, pinned first by imagePullPolicy Always"
            : "the image as written",
          secret,
        };
      }
      if (r.source === "upstream") {
        return {
          image: a.image,
          source: "upstream",
          resource: refName(r.resource),
          key,
          why: r.matched
            ? `upstream ${r.upstreamIndex}: its imageFilter matched the image`
            : `upstream ${r.upstreamIndex}: a sibling upstream matched, so every upstream of the set is an alternative`,
          secret,
        };
      }
      return {
        image: a.image,
        source: "mirror",
        resource: refName(r.resource),
        key,
        why: `mirror ${r.mirrorIndex} of ${r.mirrorOf}`,
        secret,
      };
    }),
  };
}

function routingIssue(
  input: string,
  error: unknown,
  yaml: ParsedYaml | undefined,
): InputIssue | undefined {
  if (!isRoutingError(error)) return undefined;
  const path = error.path ?? "";
  return {
    input,
    line: yaml === undefined ? undefined : yaml.lineOf(error.document ?? 0, path),
    path,
    value: error.value === undefined ? "" : show(error.value),
    message: error.message,
  };
}

/** Runs the Routing view: kuik's ordered alternatives for an image or each container of a Pod. */
export function runRouting(input: RoutingInput): RoutingResult {
  const fail = (issues: InputIssue[], error?: string): RoutingResult => ({
    kind: "routing",
    issues,
    error,
    containers: [],
    resources: [],
  });
  const crYaml = readYaml(input.crs, "crs");
  if (isIssue(crYaml)) return fail([crYaml]);
  let resources: ReturnType<typeof loadRoutingResources>;
  try {
    resources = loadRoutingResources(input.crs);
  } catch (error) {
    const issue = routingIssue("crs", error, crYaml);
    if (issue === undefined) throw error;
    return fail([issue]);
  }
  const routing = compileRouting(resources);
  let containers: ContainerRow[];
  let namespace = input.namespace;
  const issues: InputIssue[] = [];
  let error: string | undefined;
  if (input.mode === "pod") {
    const podYaml = readYaml(input.pod, "pod");
    if (isIssue(podYaml)) return fail([podYaml]);
    try {
      const plan = planPodRouting(routing, podYaml.values[0], { namespace: input.namespace });
      namespace = plan.namespace;
      containers = plan.containers.map(containerRow);
      if (plan.skipReason !== undefined) error = `the Pod is left alone: ${plan.skipReason}`;
      if (plan.error !== undefined) error = plan.error.message;
    } catch (e) {
      const issue = routingIssue("pod", e, podYaml);
      if (issue === undefined) throw e;
      return fail([issue]);
    }
  } else {
    try {
      const route = routeContainer(routing, {
        pod: { namespace, labels: {}, annotations: {} },
        container: {
          name: "container",
          image: input.image.trim(),
          ...(input.pullPolicy === "" ? {} : { imagePullPolicy: input.pullPolicy }),
        },
      });
      containers = [containerRow(route)];
    } catch (e) {
      if (!isRoutingError(e)) throw e;
      containers = [];
      error = e.message;
      issues.push({
        input: "image",
        line: undefined,
        path: e.path ?? "",
        value: show(e.value),
        message: e.message,
      });
    }
  }
  const used = new Set(containers.flatMap((c) => c.alternatives.map((a) => a.resource)));
  const problems = new Map(routing.problems.map((p) => [refName(p.resource), p.message]));
  const rows: ResourceRow[] = resources.map((r) => {
    const ns = (r.metadata as { namespace?: string }).namespace;
    const name = refName({
      kind: r.kind,
      name: r.metadata.name,
      ...(r.kind === "ImageSetMirror" || r.kind === "ReplicatedImageSet"
        ? { namespace: ns ?? "" }
        : {}),
    });
    if (used.has(name))
      return { resource: name, applied: true, why: "contributed the entries marked with it" };
    const problem = problems.get(name);
    if (problem !== undefined)
      return { resource: name, applied: false, why: `kuik ignores it: ${problem}` };
    if ((r.kind === "ImageSetMirror" || r.kind === "ReplicatedImageSet") && ns !== namespace) {
      return {
        resource: name,
        applied: false,
        why: `it lives in namespace ${JSON.stringify(ns ?? "")}, the Pod in ${JSON.stringify(namespace)}`,
      };
    }
    return {
      resource: name,
      applied: false,
      why: "its filter (image or Pod selector) does not match, or no container was routed",
    };
  });
  return { kind: "routing", issues, error, containers, resources: rows };
}
