/**
 * The checks the kuik CRDs add on top of the Go types: OpenAPI limits
 * (`maxItems`, `maxLength`, required fields) and the CEL
 * `x-kubernetes-validations` rules. The API server refuses objects that break
 * them, but kuik's webhook still reads such objects when they exist (older
 * CRD, CRD installed without validation), so they run only in `"crd"` mode.
 */
import { compileRegexp } from "@kubeimg/core/regexp";
import type { RoutingResource } from "./resource-schema.js";

/** One broken CRD rule: where, what was there, and what the rule says. */
export interface CrdViolation {
  readonly path: readonly (string | number)[];
  readonly value: unknown;
  readonly message: string;
}

const maxFilterItems = 16;
const maxRegexLength = 128;
const maxSelectorLength = 512;
const maxUpstreams = 32;

/** Item keys each kind's `spec.filter` items may set (exactly one per item). */
const filterItemKeys: Readonly<Record<RoutingResource["kind"], readonly string[]>> = {
  ClusterImageSetMirror: ["image", "label", "annotation", "namespace"],
  ImageSetMirror: ["image", "label", "annotation"],
  ClusterReplicatedImageSet: ["label", "annotation", "namespace"],
  ReplicatedImageSet: ["label", "annotation"],
};

/** `maxLength` of each filter item key. */
const filterItemMaxLength: Readonly<Record<string, number>> = {
  image: maxRegexLength,
  namespace: maxRegexLength,
  label: maxSelectorLength,
  annotation: maxSelectorLength,
};

function isRegex(pattern: string): boolean {
  try {
    compileRegexp(pattern);
    return true;
  } catch {
    return false;
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function checkFilter(kind: RoutingResource["kind"], raw: unknown, out: CrdViolation[]): void {
  const filter = asRecord(raw);
  if (!filter) return;
  const allowed = filterItemKeys[kind];
  for (const list of ["include", "exclude"] as const) {
    const items = filter[list];
    if (!Array.isArray(items)) continue;
    const base = ["spec", "filter", list];
    if (items.length > maxFilterItems) {
      out.push({
        path: base,
        value: items.length,
        message: `must have at most ${maxFilterItems} items`,
      });
    }
    items.forEach((rawItem, index) => {
      const item = asRecord(rawItem) ?? {};
      const set = allowed.filter((key) => item[key] !== undefined);
      // The replicated kinds' CEL rule refuses `image` items outright.
      const imageRefused = !allowed.includes("image") && item.image !== undefined;
      if (set.length !== 1 || imageRefused) {
        out.push({
          path: [...base, index],
          value: rawItem,
          message: `each filter item must set exactly one of ${allowed.join(", ")}`,
        });
      }
      for (const key of allowed) {
        const v = item[key];
        const max = filterItemMaxLength[key] ?? maxSelectorLength;
        if (typeof v === "string" && v.length > max) {
          out.push({
            path: [...base, index, key],
            value: v,
            message: `must be at most ${max} characters`,
          });
        }
      }
    });
  }
}

function hasItems(raw: unknown): boolean {
  const r = asRecord(raw);
  if (!r) return false;
  return (
    (Array.isArray(r.include) && r.include.length > 0) ||
    (Array.isArray(r.exclude) && r.exclude.length > 0)
  );
}

function checkImageFilter(
  raw: unknown,
  path: readonly (string | number)[],
  out: CrdViolation[],
): void {
  const imageFilter = asRecord(raw);
  if (!imageFilter) return;
  for (const list of ["include", "exclude"] as const) {
    const patterns = imageFilter[list];
    if (!Array.isArray(patterns)) continue;
    if (patterns.length > maxFilterItems) {
      out.push({
        path: [...path, list],
        value: patterns.length,
        message: `must have at most ${maxFilterItems} items`,
      });
    }
    patterns.forEach((pattern, index) => {
      if (typeof pattern !== "string") return;
      if (pattern.length > maxRegexLength) {
        out.push({
          path: [...path, list, index],
          value: pattern,
          message: `must be at most ${maxRegexLength} characters`,
        });
      }
      if (!isRegex(pattern)) {
        out.push({
          path: [...path, list, index],
          value: pattern,
          message: "must be a valid regular expression",
        });
      }
    });
  }
}

/**
 * A mirror's `registry` is joined with its `path` into an image name, so a
 * scheme or a path in it routes to an image no runtime can pull.
 */
function checkMirrorRegistries(mirrors: unknown, out: CrdViolation[]): void {
  if (!Array.isArray(mirrors)) return;
  mirrors.forEach((rawMirror, index) => {
    const registry = asRecord(rawMirror)?.registry;
    if (typeof registry !== "string" || !registry.includes("/")) return;
    out.push({
      path: ["spec", "mirrors", index, "registry"],
      value: registry,
      message: registry.includes("://")
        ? "must be a registry host[:port], without a scheme: drop the scheme"
        : "must be a registry host[:port]; put the repository prefix in the mirror's path",
    });
  });
}

/**
 * Returns the CRD rules `raw` breaks (empty when the API server would accept
 * it). `resource` is the same object already parsed by the lenient schema.
 */
export function crdViolations(raw: unknown, resource: RoutingResource): CrdViolation[] {
  const out: CrdViolation[] = [];
  const spec = asRecord(asRecord(raw)?.spec) ?? {};
  checkFilter(resource.kind, spec.filter, out);
  if (resource.kind === "ClusterImageSetMirror" || resource.kind === "ImageSetMirror") {
    checkImageFilter(spec.imageFilter, ["spec", "imageFilter"], out);
    checkMirrorRegistries(spec.mirrors, out);
    if (hasItems(spec.filter) && hasItems(spec.imageFilter)) {
      out.push({
        path: ["spec"],
        value: { filter: spec.filter, imageFilter: spec.imageFilter },
        message: "filter and imageFilter cannot both have items",
      });
    }
    return out;
  }
  const upstreams = Array.isArray(spec.upstreams) ? spec.upstreams : [];
  if (upstreams.length > maxUpstreams) {
    out.push({
      path: ["spec", "upstreams"],
      value: upstreams.length,
      message: `must have at most ${maxUpstreams} items`,
    });
  }
  upstreams.forEach((rawUpstream, index) => {
    const upstream = asRecord(rawUpstream) ?? {};
    for (const key of ["registry", "path"] as const) {
      if (typeof upstream[key] !== "string") {
        out.push({
          path: ["spec", "upstreams", index, key],
          value: upstream[key],
          message: "is required",
        });
      }
    }
    checkImageFilter(upstream.imageFilter, ["spec", "upstreams", index, "imageFilter"], out);
  });
  return out;
}
