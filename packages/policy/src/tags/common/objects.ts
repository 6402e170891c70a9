/**
 * From the objects a user keeps in Git to the configurations the Argo CD
 * Image Updater and Kargo dialects take: which reader an object is for, and
 * the reading context both readers share (`argocd/objects.ts` reads an
 * `ImageUpdater` or an annotated `Application`, `kargo/objects.ts` a
 * `Warehouse`).
 *
 * Pure, so the `kubeimg` command and a browser page read the same objects
 * the same way; finding the objects among files stays with the caller.
 *
 * Every field the CRDs define is accepted, even those that do not change
 * which tag is picked (write-back targets, pull secrets); a field they do
 * not define is refused with its path, because a misspelt `updateStrategy`
 * would otherwise silently fall back to the default and answer for a
 * configuration the user never wrote. Callers may ask to be told instead
 * (`unknownFields: "warn"`) or to ignore it, as `kubectl --validate` does.
 */

import { closestName } from "../../objects/edit-distance.js";
import type { UnknownFieldPolicy } from "../../objects/unknown-fields.js";
import { TagDialectError } from "./errors.js";

/** A JSON object as the readers see it. */
export type Json = Record<string, unknown>;

/** Which reader an object is for, as {@link dialectObjectKind} tells. */
export type DialectObjectKind = "argocd-image-updater" | "argocd-application" | "kargo-warehouse";

/** How the readers treat fields the CRDs do not define. */
export interface DialectObjectOptions {
  /** `strict` (the default) refuses, `warn` reports through `onUnknownField`, `ignore` drops. */
  readonly unknownFields?: UnknownFieldPolicy;
  /**
   * Told the path of each unknown field when `unknownFields` is `warn`, with
   * the known field probably meant when one is close.
   */
  readonly onUnknownField?: (path: string, suggestion?: string) => void;
  /**
   * The name the object's paths start with (default: its kind, as in
   * `ImageUpdater.spec.applicationRefs[0]`); a caller reading several
   * documents passes `ImageUpdater[2]` to say which.
   */
  readonly at?: string;
}

/** The annotation prefix and API group of the Argo CD Image Updater. */
export const ARGO_GROUP = "argocd-image-updater.argoproj.io/";

const OBJECT_KEYS = ["apiVersion", "kind", "metadata", "spec", "status"];

export function asRecord(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

/**
 * Says which reader `value` is for: an `ImageUpdater` of the updater's API
 * group, an `argoproj.io` `Application` with at least one
 * `argocd-image-updater.argoproj.io/` annotation, a Kargo `Warehouse`; or
 * undefined for anything else (a Flux object, an Application the updater
 * does not manage).
 */
export function dialectObjectKind(value: unknown): DialectObjectKind | undefined {
  const r = asRecord(value);
  if (r === undefined || typeof r.apiVersion !== "string" || typeof r.kind !== "string") {
    return undefined;
  }
  if (r.apiVersion.startsWith(ARGO_GROUP) && r.kind === "ImageUpdater") {
    return "argocd-image-updater";
  }
  if (r.apiVersion === "kargo.akuity.io/v1alpha1" && r.kind === "Warehouse") {
    return "kargo-warehouse";
  }
  if (r.apiVersion.startsWith("argoproj.io/") && r.kind === "Application") {
    const annotations = asRecord(asRecord(r.metadata)?.annotations);
    if (annotations && Object.keys(annotations).some((k) => k.startsWith(ARGO_GROUP))) {
      return "argocd-application";
    }
  }
  return undefined;
}

/** The reading context: the unknown-field policy in force. */
export class Reader {
  constructor(protected readonly options: DialectObjectOptions) {}

  fail(path: string, problem: string, value?: unknown, suggestion?: string): never {
    throw new TagDialectError(path, value, problem, suggestion);
  }

  /**
   * Refuses (or reports, or drops) every key of `value` outside `known`,
   * naming the known key closest to a misspelt one.
   */
  onlyKeys(value: Json, known: readonly string[], path: string): void {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const policy = this.options.unknownFields ?? "strict";
      if (policy === "ignore") continue;
      const suggestion = closestName(key, known);
      if (policy === "strict") {
        const hint = suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`;
        this.fail(`${path}.${key}`, `unknown field${hint}`, value[key], suggestion);
      }
      this.options.onUnknownField?.(`${path}.${key}`, suggestion);
    }
  }

  record(value: unknown, path: string): Json {
    const r = asRecord(value);
    if (r === undefined) this.fail(path, "must be an object", value);
    return r;
  }

  string(value: unknown, path: string): string | undefined {
    if (value !== undefined && typeof value !== "string") {
      this.fail(path, "must be a string", value);
    }
    return value as string | undefined;
  }

  strings(value: unknown, path: string): string[] | undefined {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
      this.fail(path, "must be a list of strings", value);
    }
    return value as string[];
  }

  boolean(value: unknown, path: string): void {
    if (value !== undefined && typeof value !== "boolean") {
      this.fail(path, "must be a boolean", value);
    }
  }

  required(value: unknown, path: string): void {
    if (value === undefined) this.fail(path, "is required");
  }

  /** Checks `apiVersion`, `kind` and `metadata`; returns `namespace/name` for the source. */
  object(value: unknown, root: string): { readonly r: Json; readonly name: string } {
    const r = this.record(value, root);
    this.onlyKeys(r, OBJECT_KEYS, root);
    const meta = r.metadata === undefined ? {} : this.record(r.metadata, `${root}.metadata`);
    const namespace = this.string(meta.namespace, `${root}.metadata.namespace`) ?? "default";
    const name = this.string(meta.name, `${root}.metadata.name`) ?? "?";
    return { r, name: `${namespace}/${name}` };
  }
}
