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
 *
 * The fields and their checks are those of the pinned releases: Argo CD
 * Image Updater v1.3.0's `ImageUpdater` CRD
 * (`config/crd/bases/argocd-image-updater.argoproj.io_imageupdaters.yaml`:
 * required fields, the alias pattern, the `manifestTargets`,
 * `imagesVerification`, `pullRequest` and `useAnnotations` rules) and its
 * annotation names (`pkg/argocd/annotations.go`); Kargo v1.11.2's Warehouse
 * (`api/v1alpha1/warehouse_types.go`: one top-level key per subscription,
 * any other key than `git`, `image`, `chart` being a generic subscription)
 * and image subscription (`api/v1alpha1/zz_subscription_types.go`, whose
 * regex lists are `allowTagsRegexes`/`ignoreTagsRegexes`).
 *
 * The API server applies the CRD's defaults when it stores an
 * `ImageUpdater`, and the updater reads the stored object: every
 * `commonUpdateSettings` that is present gets `updateStrategy: semver`
 * unless it names one. So a level that sets only `allowTags` also resets
 * the strategy an outer level chose; the reader applies that default too.
 */

import { strings } from "@kubeimg/core/internal";
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

/** `images[].alias` (the CRD's pattern). */
const ALIAS_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9-._]*$/;
/** `writeBackConfig.method` (the CRD's pattern). */
const METHOD_PATTERN = /^(argocd|git|git:[a-zA-Z0-9][a-zA-Z0-9-._/:]*)$/;
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

  required(value: unknown, path: string): void {
    if (value === undefined) this.fail(path, "is required");
  }

  /** `imagesVerification`: `enabled` (default true) needs a `cosignKey`. */
  imagesVerification(value: unknown, path: string): void {
    if (value === undefined) return;
    const r = this.record(value, path);
    this.onlyKeys(r, ["enabled", "cosignKey"], path);
    this.boolean(r.enabled, `${path}.enabled`);
    if (r.cosignKey !== undefined) {
      const key = this.record(r.cosignKey, `${path}.cosignKey`);
      this.onlyKeys(key, ["key", "secretName"], `${path}.cosignKey`);
      for (const k of ["key", "secretName"]) {
        this.required(key[k], `${path}.cosignKey.${k}`);
        this.string(key[k], `${path}.cosignKey.${k}`);
      }
    } else if (r.enabled !== false) {
      this.fail(
        `${path}.cosignKey`,
        "is required when verification is enabled (enabled defaults to true)",
      );
    }
  }

  /** `commonUpdateSettings`, reduced to the fields that decide the pick, with the CRD's default strategy. */
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
    // The CRD defaults updateStrategy to "semver" wherever the object is present.
    const updateStrategy = this.string(r.updateStrategy, `${path}.updateStrategy`) ?? "semver";
    const allowTags = this.string(r.allowTags, `${path}.allowTags`);
    const ignoreTags = this.strings(r.ignoreTags, `${path}.ignoreTags`);
    const platforms = this.strings(r.platforms, `${path}.platforms`);
    return {
      updateStrategy,
      ...(allowTags !== undefined ? { allowTags } : {}),
      ...(ignoreTags !== undefined ? { ignoreTags } : {}),
      ...(platforms !== undefined ? { platforms } : {}),
    };
  }

  writeBack(value: unknown, path: string): void {
    if (value === undefined) return;
    const r = this.record(value, path);
    this.onlyKeys(r, ["method", "gitConfig"], path);
    const method = this.string(r.method, `${path}.method`);
    if (method !== undefined && !METHOD_PATTERN.test(method)) {
      this.fail(`${path}.method`, `must match ${METHOD_PATTERN.source}`, method);
    }
    if (r.gitConfig === undefined) return;
    const git = this.record(r.gitConfig, `${path}.gitConfig`);
    const keys = ["repository", "branch", "writeBackTarget"];
    this.onlyKeys(git, [...keys, "pullRequest"], `${path}.gitConfig`);
    for (const key of keys) this.string(git[key], `${path}.gitConfig.${key}`);
    if (git.pullRequest === undefined) return;
    const at = `${path}.gitConfig.pullRequest`;
    const pr = this.record(git.pullRequest, at);
    this.onlyKeys(pr, ["github", "gitlab"], at);
    for (const provider of ["github", "gitlab"]) {
      // The CRD defines no field inside either provider.
      if (pr[provider] !== undefined)
        this.onlyKeys(this.record(pr[provider], `${at}.${provider}`), [], `${at}.${provider}`);
    }
    if ((pr.github === undefined) === (pr.gitlab === undefined)) {
      this.fail(at, "must set exactly one of github or gitlab", pr);
    }
  }

  manifestTargets(value: unknown, path: string): void {
    if (value === undefined) return;
    const r = this.record(value, path);
    this.onlyKeys(r, ["helm", "kustomize", "plugin"], path);
    if (r.helm !== undefined) {
      const helm = this.record(r.helm, `${path}.helm`);
      this.onlyKeys(helm, ["name", "tag", "spec"], `${path}.helm`);
      for (const key of ["name", "tag", "spec"]) this.string(helm[key], `${path}.helm.${key}`);
    }
    if (r.kustomize !== undefined) {
      const k = this.record(r.kustomize, `${path}.kustomize`);
      this.onlyKeys(k, ["name"], `${path}.kustomize`);
      this.required(k.name, `${path}.kustomize.name`);
      this.string(k.name, `${path}.kustomize.name`);
    }
    if (r.plugin !== undefined) {
      const plugin = this.record(r.plugin, `${path}.plugin`);
      this.onlyKeys(plugin, ["name", "tag", "spec"], `${path}.plugin`);
      for (const key of ["name", "tag", "spec"]) {
        const text = this.string(plugin[key], `${path}.plugin.${key}`);
        if (text !== undefined && (text.length < 1 || text.length > 253)) {
          this.fail(`${path}.plugin.${key}`, "must be 1 to 253 characters", text);
        }
      }
      if (plugin.spec === undefined && plugin.name === undefined) {
        this.fail(`${path}.plugin`, "must set spec or name", plugin);
      }
    }
    const set = ["helm", "kustomize", "plugin"].filter((k) => r[k] !== undefined).length;
    if (set !== 1) this.fail(path, "must set exactly one of helm, kustomize or plugin", r);
  }

  /** A Kubernetes `LabelSelector`. */
  labelSelector(value: unknown, path: string): void {
    if (value === undefined) return;
    const selector = this.record(value, path);
    this.onlyKeys(selector, ["matchLabels", "matchExpressions"], path);
    if (selector.matchLabels !== undefined) {
      const labels = this.record(selector.matchLabels, `${path}.matchLabels`);
      for (const [k, v] of Object.entries(labels)) this.string(v, `${path}.matchLabels.${k}`);
    }
    if (selector.matchExpressions === undefined) return;
    const list = selector.matchExpressions;
    if (!Array.isArray(list)) this.fail(`${path}.matchExpressions`, "must be a list", list);
    list.forEach((e: unknown, i: number) => {
      const at = `${path}.matchExpressions[${i}]`;
      const r = this.record(e, at);
      this.onlyKeys(r, ["key", "operator", "values"], at);
      for (const k of ["key", "operator"]) {
        this.required(r[k], `${at}.${k}`);
        this.string(r[k], `${at}.${k}`);
      }
      this.strings(r.values, `${at}.values`);
    });
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
    ["commonUpdateSettings", "writeBackConfig", "applicationRefs", "imagesVerification"],
    `${root}.spec`,
  );
  const top = read.updateSettings(spec.commonUpdateSettings, `${root}.spec.commonUpdateSettings`);
  read.writeBack(spec.writeBackConfig, `${root}.spec.writeBackConfig`);
  read.imagesVerification(spec.imagesVerification, `${root}.spec.imagesVerification`);
  const refs = spec.applicationRefs;
  if (!Array.isArray(refs) || refs.length === 0) {
    read.fail(`${root}.spec.applicationRefs`, "must be a non-empty list", refs);
  }
  let chosen: ArgoConfigObject | undefined;
  let annotationsRef: string | undefined;
  refs.forEach((refValue: unknown, n: number) => {
    const at = `${root}.spec.applicationRefs[${n}]`;
    const ref = read.record(refValue, at);
    read.onlyKeys(
      ref,
      [
        "namePattern",
        "labelSelectors",
        "useAnnotations",
        "imagesVerification",
        "commonUpdateSettings",
        "writeBackConfig",
        "images",
      ],
      at,
    );
    read.required(ref.namePattern, `${at}.namePattern`);
    read.string(ref.namePattern, `${at}.namePattern`);
    read.labelSelector(ref.labelSelectors, `${at}.labelSelectors`);
    read.boolean(ref.useAnnotations, `${at}.useAnnotations`);
    read.imagesVerification(ref.imagesVerification, `${at}.imagesVerification`);
    const middle = read.updateSettings(ref.commonUpdateSettings, `${at}.commonUpdateSettings`);
    read.writeBack(ref.writeBackConfig, `${at}.writeBackConfig`);
    // With useAnnotations the updater reads the Application's annotations and
    // ignores this ref's images and settings; without, it needs images.
    const useAnnotations = ref.useAnnotations === true;
    if (useAnnotations) annotationsRef ??= `${at}.useAnnotations`;
    const images = ref.images ?? [];
    if (!Array.isArray(images) || (!useAnnotations && images.length === 0)) {
      read.fail(
        `${at}.images`,
        "must be a non-empty list unless useAnnotations is true",
        ref.images,
      );
    }
    images.forEach((imageValue: unknown, i: number) => {
      const ip = `${at}.images[${i}]`;
      const image = read.record(imageValue, ip);
      read.onlyKeys(
        image,
        ["alias", "imageName", "commonUpdateSettings", "manifestTargets", "imagesVerification"],
        ip,
      );
      read.required(image.alias, `${ip}.alias`);
      const alias = read.string(image.alias, `${ip}.alias`) as string;
      if (!ALIAS_PATTERN.test(alias)) {
        read.fail(`${ip}.alias`, `must match ${ALIAS_PATTERN.source}`, alias);
      }
      read.required(image.imageName, `${ip}.imageName`);
      const imageName = read.string(image.imageName, `${ip}.imageName`) as string;
      const own = read.updateSettings(image.commonUpdateSettings, `${ip}.commonUpdateSettings`);
      read.manifestTargets(image.manifestTargets, `${ip}.manifestTargets`);
      read.imagesVerification(image.imagesVerification, `${ip}.imagesVerification`);
      if (useAnnotations) return;
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
    if (annotationsRef !== undefined && options.alias === undefined) {
      read.fail(
        annotationsRef,
        "reads the image list from the Application's annotations: read the Application",
        true,
      );
    }
    read.fail(`${root}.spec.applicationRefs`, "has no image with that alias", options.alias);
  }
  return chosen;
}

/** The application-wide annotations v1.3.0 reads (`pkg/argocd/annotations.go`). */
const APP_ANNOTATIONS = [
  "image-list",
  "update-strategy",
  "allow-tags",
  "ignore-tags",
  "force-update",
  "pull-secret",
  "write-back-method",
  "git-branch",
  "git-repository",
  "write-back-target",
];
/** The per-image annotations, each as `<alias>.<name>`. */
const ALIAS_ANNOTATIONS = [
  "update-strategy",
  "allow-tags",
  "ignore-tags",
  "force-update",
  "pull-secret",
  "platforms",
  "helm.image-name",
  "helm.image-tag",
  "helm.image-spec",
  "kustomize.image-name",
];

/** The aliases of an `image-list` value, as the updater splits it. */
function imageListAliases(list: string): Set<string> {
  const aliases = new Set<string>();
  for (const piece of list.split(",")) {
    const entry = strings.TrimSpace(piece);
    const eq = entry.indexOf("=");
    if (eq >= 0) aliases.add(strings.TrimSpace(entry.slice(0, eq)));
  }
  return aliases;
}

/**
 * Reads the `argocd-image-updater.argoproj.io/` annotations of an Argo CD
 * `Application` (the other annotations and the spec are Argo CD's, not the
 * updater's, and are left alone). An annotation of the updater's prefix
 * that v1.3.0 does not read — a misspelt name, or `<alias>.…` for an alias
 * the image list does not have — is an unknown field. Throws a
 * {@link TagDialectError} for it (unless told otherwise), and for an
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
  const mine: Record<string, unknown> = Object.create(null);
  for (const [key, text] of Object.entries(annotations)) {
    if (!key.startsWith(ARGO_GROUP)) continue;
    if (typeof text !== "string") {
      read.fail(`${root}.metadata.annotations.${key}`, "must be a string", text);
    }
    own[key] = text;
    mine[key] = text;
  }
  const list = own[`${ARGO_GROUP}image-list`];
  const aliases = list === undefined ? undefined : imageListAliases(list);
  const known = Object.keys(own).filter((key) => {
    const name = key.slice(ARGO_GROUP.length);
    if (APP_ANNOTATIONS.includes(name)) return true;
    return ALIAS_ANNOTATIONS.some((suffix) => {
      const alias = name.slice(0, -suffix.length - 1);
      return (
        name.endsWith(`.${suffix}`) && alias !== "" && (aliases === undefined || aliases.has(alias))
      );
    });
  });
  read.onlyKeys(mine, known, `${root}.metadata.annotations`);
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
  "cacheByTag",
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
  if (spec.interval !== undefined) {
    const interval = read.string(spec.interval, `${root}.spec.interval`) as string;
    if (!/^([0-9]+(\.[0-9]+)?(s|m|h))+$/.test(interval)) {
      read.fail(`${root}.spec.interval`, "must be a duration such as 5m0s", interval);
    }
  }
  const policy = read.string(spec.freightCreationPolicy, `${root}.spec.freightCreationPolicy`);
  if (policy !== undefined && policy !== "Automatic" && policy !== "Manual") {
    read.fail(`${root}.spec.freightCreationPolicy`, "must be Automatic or Manual", policy);
  }
  read.string(spec.shard, `${root}.spec.shard`);
  if (spec.freightCreationCriteria !== undefined) {
    const at = `${root}.spec.freightCreationCriteria`;
    const criteria = read.record(spec.freightCreationCriteria, at);
    read.onlyKeys(criteria, ["expression"], at);
    read.string(criteria.expression, `${at}.expression`);
  }
  // Each subscription has exactly one top-level key: git, image, chart, or
  // the type of a generic subscription.
  subs.forEach((s: unknown, i: number) => {
    const sub = read.record(s, `${root}.spec.subscriptions[${i}]`);
    const keys = Object.keys(sub);
    if (keys.length !== 1) {
      read.fail(
        `${root}.spec.subscriptions[${i}]`,
        `must have exactly one top-level field, has ${keys.length}`,
        keys,
      );
    }
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
  for (const key of ["strictSemvers", "insecureSkipTLSVerify", "cacheByTag"]) {
    read.boolean(image[key], `${path}.${key}`);
  }
  if (image.discoveryLimit !== undefined && !Number.isInteger(image.discoveryLimit)) {
    read.fail(`${path}.discoveryLimit`, "must be an integer", image.discoveryLimit);
  }
  const subscription: Record<string, unknown> = Object.create(null);
  for (const key of KARGO_IMAGE_KEYS) {
    if (image[key] !== undefined) subscription[key] = image[key];
  }
  return {
    subscription: { ...subscription } as KargoImageSubscription,
    source: `Warehouse ${name} subscription ${at}`,
  };
}
