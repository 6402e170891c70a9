/**
 * From the objects a user keeps in Git to the configurations the Argo CD
 * Image Updater and Kargo dialects take: an `ImageUpdater`
 * (argocd-image-updater.argoproj.io), an Argo CD `Application` carrying the
 * updater's annotations, a Kargo `Warehouse` (kargo.akuity.io/v1alpha1).
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

import type { UnknownFieldPolicy } from "../objects/unknown-fields.js";
import type { ArgoConfig, ArgoUpdateSettings } from "./argocd/config.js";
import { TagDialectError } from "./dialect/errors.js";
import type { KargoImageSubscription } from "./kargo/subscription.js";

type Json = Record<string, unknown>;

/** Which reader an object is for, as {@link dialectObjectKind} tells. */
export type DialectObjectKind = "argocd-image-updater" | "argocd-application" | "kargo-warehouse";

/** How the readers treat fields the CRDs do not define. */
export interface DialectObjectOptions {
  /** `strict` (the default) refuses, `warn` reports through `onUnknownField`, `ignore` drops. */
  readonly unknownFields?: UnknownFieldPolicy;
  /** Told the path of each unknown field when `unknownFields` is `warn`. */
  readonly onUnknownField?: (path: string) => void;
  /**
   * The name the object's paths start with (default: its kind, as in
   * `ImageUpdater.spec.applicationRefs[0]`); a caller reading several
   * documents passes `ImageUpdater[2]` to say which.
   */
  readonly at?: string;
}

/** An Argo CD Image Updater configuration read from an object. */
export interface ArgoConfigObject {
  readonly config: ArgoConfig;
  /** `ImageUpdater <namespace>/<name> image <alias>` or `Application <namespace>/<name>`. */
  readonly source: string;
  /** The image, when the object names it (the ImageUpdater's `imageName`, tag included). */
  readonly image: string | undefined;
}

/** A Kargo image subscription read from a Warehouse. */
export interface KargoSubscriptionObject {
  readonly subscription: KargoImageSubscription;
  /** `Warehouse <namespace>/<name> subscription <index>`. */
  readonly source: string;
}

const ARGO_GROUP = "argocd-image-updater.argoproj.io/";
const OBJECT_KEYS = ["apiVersion", "kind", "metadata", "spec", "status"];

function asRecord(value: unknown): Json | undefined {
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
class Reader {
  constructor(private readonly options: DialectObjectOptions) {}

  fail(path: string, problem: string, value?: unknown): never {
    throw new TagDialectError(path, value, problem);
  }

  /** Refuses (or reports, or drops) every key of `value` outside `known`. */
  onlyKeys(value: Json, known: readonly string[], path: string): void {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const policy = this.options.unknownFields ?? "strict";
      if (policy === "strict") this.fail(`${path}.${key}`, "unknown field", value[key]);
      if (policy === "warn") this.options.onUnknownField?.(`${path}.${key}`);
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

  /** `commonUpdateSettings`, reduced to the fields that decide the pick. */
  updateSettings(value: unknown, path: string): ArgoUpdateSettings | undefined {
    if (value === undefined) return undefined;
    const r = this.record(value, path);
    this.onlyKeys(
      r,
      ["updateStrategy", "forceUpdate", "allowTags", "ignoreTags", "pullSecret", "platforms"],
      path,
    );
    this.boolean(r.forceUpdate, `${path}.forceUpdate`);
    this.string(r.pullSecret, `${path}.pullSecret`);
    const updateStrategy = this.string(r.updateStrategy, `${path}.updateStrategy`);
    const allowTags = this.string(r.allowTags, `${path}.allowTags`);
    const ignoreTags = this.strings(r.ignoreTags, `${path}.ignoreTags`);
    const platforms = this.strings(r.platforms, `${path}.platforms`);
    return {
      ...(updateStrategy !== undefined ? { updateStrategy } : {}),
      ...(allowTags !== undefined ? { allowTags } : {}),
      ...(ignoreTags !== undefined ? { ignoreTags } : {}),
      ...(platforms !== undefined ? { platforms } : {}),
    };
  }

  writeBack(value: unknown, path: string): void {
    if (value === undefined) return;
    const r = this.record(value, path);
    this.onlyKeys(r, ["method", "gitConfig"], path);
    this.string(r.method, `${path}.method`);
    if (r.gitConfig === undefined) return;
    const git = this.record(r.gitConfig, `${path}.gitConfig`);
    const keys = ["repository", "branch", "writeBackTarget"];
    this.onlyKeys(git, keys, `${path}.gitConfig`);
    for (const key of keys) this.string(git[key], `${path}.gitConfig.${key}`);
  }

  manifestTargets(value: unknown, path: string): void {
    if (value === undefined) return;
    const r = this.record(value, path);
    this.onlyKeys(r, ["helm", "kustomize"], path);
    if (r.helm !== undefined) {
      const helm = this.record(r.helm, `${path}.helm`);
      this.onlyKeys(helm, ["name", "tag", "spec"], `${path}.helm`);
      for (const key of ["name", "tag", "spec"]) this.string(helm[key], `${path}.helm.${key}`);
    }
    if (r.kustomize !== undefined) {
      const k = this.record(r.kustomize, `${path}.kustomize`);
      this.onlyKeys(k, ["name"], `${path}.kustomize`);
      this.string(k.name, `${path}.kustomize.name`);
    }
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

/**
 * Reads an `ImageUpdater` down to one image: the one whose `alias` is
 * `options.alias`, or the first image of the first application ref. Every
 * ref and image is checked, not only the one chosen. Throws a
 * {@link TagDialectError} naming the path and value of a field of the wrong
 * shape, an unknown field (unless told otherwise), or a missing alias.
 */
export function readArgoImageUpdater(
  value: unknown,
  options: DialectObjectOptions & { readonly alias?: string } = {},
): ArgoConfigObject {
  const read: Reader = new Reader(options);
  const root = options.at ?? "ImageUpdater";
  const { r, name } = read.object(value, root);
  const spec = read.record(r.spec, `${root}.spec`);
  read.onlyKeys(
    spec,
    ["namespace", "commonUpdateSettings", "writeBackConfig", "applicationRefs"],
    `${root}.spec`,
  );
  read.string(spec.namespace, `${root}.spec.namespace`);
  const top = read.updateSettings(spec.commonUpdateSettings, `${root}.spec.commonUpdateSettings`);
  read.writeBack(spec.writeBackConfig, `${root}.spec.writeBackConfig`);
  const refs = spec.applicationRefs;
  if (!Array.isArray(refs) || refs.length === 0) {
    read.fail(`${root}.spec.applicationRefs`, "must be a non-empty list", refs);
  }
  let chosen: ArgoConfigObject | undefined;
  refs.forEach((refValue: unknown, n: number) => {
    const at = `${root}.spec.applicationRefs[${n}]`;
    const ref = read.record(refValue, at);
    read.onlyKeys(
      ref,
      ["namePattern", "labelSelectors", "commonUpdateSettings", "writeBackConfig", "images"],
      at,
    );
    read.string(ref.namePattern, `${at}.namePattern`);
    if (ref.labelSelectors !== undefined) {
      const selector = read.record(ref.labelSelectors, `${at}.labelSelectors`);
      read.onlyKeys(selector, ["matchLabels", "matchExpressions"], `${at}.labelSelectors`);
    }
    const middle = read.updateSettings(ref.commonUpdateSettings, `${at}.commonUpdateSettings`);
    read.writeBack(ref.writeBackConfig, `${at}.writeBackConfig`);
    const images = ref.images;
    if (!Array.isArray(images) || images.length === 0) {
      read.fail(`${at}.images`, "must be a non-empty list", images);
    }
    images.forEach((imageValue: unknown, i: number) => {
      const ip = `${at}.images[${i}]`;
      const image = read.record(imageValue, ip);
      read.onlyKeys(image, ["alias", "imageName", "commonUpdateSettings", "manifestTargets"], ip);
      const alias = read.string(image.alias, `${ip}.alias`) ?? "";
      const imageName = image.imageName;
      if (typeof imageName !== "string" || imageName === "") {
        read.fail(`${ip}.imageName`, "is required", imageName);
      }
      const own = read.updateSettings(image.commonUpdateSettings, `${ip}.commonUpdateSettings`);
      read.manifestTargets(image.manifestTargets, `${ip}.manifestTargets`);
      if (chosen !== undefined || (options.alias !== undefined && options.alias !== alias)) return;
      chosen = {
        config: {
          alias,
          imageName,
          settings: {
            ...(top ? { spec: top } : {}),
            ...(middle ? { applicationRef: middle } : {}),
            ...(own ? { image: own } : {}),
          },
        },
        source: `ImageUpdater ${name} image ${alias}`,
        image: imageName,
      };
    });
  });
  if (chosen === undefined) {
    read.fail(`${root}.spec.applicationRefs`, "has no image with that alias", options.alias);
  }
  return chosen;
}

/**
 * Reads the `argocd-image-updater.argoproj.io/` annotations of an Argo CD
 * `Application` (the other annotations and the spec are Argo CD's, not the
 * updater's, and are left alone). Throws a {@link TagDialectError} for an
 * annotation whose value is not a string.
 */
export function readArgoApplication(
  value: unknown,
  options: DialectObjectOptions = {},
): ArgoConfigObject {
  const read: Reader = new Reader(options);
  const root = options.at ?? "Application";
  const { r, name } = read.object(value, root);
  const meta = read.record(r.metadata, `${root}.metadata`);
  const annotations = read.record(meta.annotations, `${root}.metadata.annotations`);
  const own: Record<string, string> = Object.create(null);
  for (const [key, text] of Object.entries(annotations)) {
    if (!key.startsWith(ARGO_GROUP)) continue;
    if (typeof text !== "string") {
      read.fail(`${root}.metadata.annotations.${key}`, "must be a string", text);
    }
    own[key] = text;
  }
  return { config: { annotations: own }, source: `Application ${name}`, image: undefined };
}

const KARGO_IMAGE_KEYS = [
  "repoURL",
  "imageSelectionStrategy",
  "strictSemvers",
  "constraint",
  "allowTags",
  "allowTagsRegexes",
  "ignoreTags",
  "ignoreTagsRegexes",
  "platform",
  "insecureSkipTLSVerify",
  "discoveryLimit",
];

/**
 * Reads the image subscription of a Kargo `Warehouse`: subscription
 * `options.subscription` (which must be an image one), or the first image
 * subscription. The webhook's defaults and validation are the dialect's
 * (`selectKargoTag`), not done here. Throws a {@link TagDialectError} for a
 * field of the wrong shape, an unknown field (unless told otherwise), or
 * no image subscription.
 */
export function readKargoWarehouse(
  value: unknown,
  options: DialectObjectOptions & { readonly subscription?: number } = {},
): KargoSubscriptionObject {
  const read: Reader = new Reader(options);
  const root = options.at ?? "Warehouse";
  const { r, name } = read.object(value, root);
  const spec = read.record(r.spec, `${root}.spec`);
  read.onlyKeys(
    spec,
    ["shard", "interval", "freightCreationPolicy", "subscriptions", "freightCreationCriteria"],
    `${root}.spec`,
  );
  const subs = spec.subscriptions;
  if (!Array.isArray(subs) || subs.length === 0) {
    read.fail(`${root}.spec.subscriptions`, "must be a non-empty list", subs);
  }
  subs.forEach((s: unknown, i: number) => {
    const sub = read.record(s, `${root}.spec.subscriptions[${i}]`);
    read.onlyKeys(sub, ["git", "image", "chart"], `${root}.spec.subscriptions[${i}]`);
  });
  const wanted = options.subscription;
  const at =
    wanted === undefined
      ? subs.findIndex((s: unknown) => asRecord(s)?.image !== undefined)
      : wanted;
  if (wanted !== undefined && (at >= subs.length || asRecord(subs[at])?.image === undefined)) {
    read.fail(`${root}.spec.subscriptions[${wanted}]`, "is not an image subscription");
  }
  if (at < 0) read.fail(`${root}.spec.subscriptions`, "has no image subscription");
  const path = `${root}.spec.subscriptions[${at}].image`;
  const image = read.record(asRecord(subs[at])?.image, path);
  read.onlyKeys(image, KARGO_IMAGE_KEYS, path);
  for (const key of ["repoURL", "imageSelectionStrategy", "constraint", "allowTags", "platform"]) {
    read.string(image[key], `${path}.${key}`);
  }
  for (const key of ["allowTagsRegexes", "ignoreTagsRegexes", "ignoreTags"]) {
    read.strings(image[key], `${path}.${key}`);
  }
  for (const key of ["strictSemvers", "insecureSkipTLSVerify"]) {
    read.boolean(image[key], `${path}.${key}`);
  }
  if (image.discoveryLimit !== undefined && !Number.isInteger(image.discoveryLimit)) {
    read.fail(`${path}.discoveryLimit`, "must be an integer", image.discoveryLimit);
  }
  const subscription: Record<string, unknown> = Object.create(null);
  for (const key of KARGO_IMAGE_KEYS) {
    if (key !== "insecureSkipTLSVerify" && image[key] !== undefined) subscription[key] = image[key];
  }
  return {
    subscription: { ...subscription } as KargoImageSubscription,
    source: `Warehouse ${name} subscription ${at}`,
  };
}
