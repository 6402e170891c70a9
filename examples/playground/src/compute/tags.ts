/**
 * The Tags view: Flux's selection with a verdict per tag, and the compare
 * dialect (Flux beside Argo CD Image Updater and Kargo, from pasted objects
 * or translated from the ImagePolicy).
 */

import { compileRegexp } from "@kubeimg/core/regexp";
import {
  explainTagSelection,
  parseImagePolicy,
  TagPolicyError,
  type TagSelectionPolicy,
} from "@kubeimg/policy/tags";
import {
  type ArgoConfigObject,
  readArgoApplication,
  readArgoImageUpdater,
} from "@kubeimg/policy/tags/argocd";
import {
  compareTagSelections,
  dialectObjectKind,
  TagDialectError,
  translateFluxToArgo,
  translateFluxToKargo,
} from "@kubeimg/policy/tags/dialects";
import { type KargoSubscriptionObject, readKargoWarehouse } from "@kubeimg/policy/tags/kargo";
import { type InputIssue, isIssue, MAX_INPUT_CHARS, readYaml, show, tooLarge } from "./input.js";

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
    if (error instanceof TagPolicyError) {
      const issue = error.issues[0];
      if (issue !== undefined) {
        return {
          input: "policy",
          line: yaml.lineOf(0, issue.path),
          path: issue.path,
          value: show(issue.value),
          ...(issue.suggestion === undefined
            ? { message: issue.message }
            : { message: "unknown field", suggestion: issue.suggestion }),
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
      if (!(error instanceof TagDialectError)) throw error;
      const inner = error.path.startsWith(`${at}.`) ? error.path.slice(at.length + 1) : "";
      return {
        input: "objects",
        line: yaml.lineOf(index, inner),
        path: error.path,
        value: show(error.value),
        ...(error.suggestion === undefined
          ? {
              message: error.message.slice(error.path.length + 2).replace(/ \(got .*\)$/s, ""),
            }
          : { message: "unknown field", suggestion: error.suggestion }),
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
