/**
 * The Argo CD Image Updater's objects read into the dialect's configuration:
 * an `ImageUpdater` (argocd-image-updater.argoproj.io) or an Argo CD
 * `Application` carrying the updater's annotations.
 *
 * The fields and their checks are those of v1.3.0's `ImageUpdater` CRD
 * (`config/crd/bases/argocd-image-updater.argoproj.io_imageupdaters.yaml`:
 * required fields, the alias pattern, the `manifestTargets`,
 * `imagesVerification`, `pullRequest` and `useAnnotations` rules) and its
 * annotation names (`pkg/argocd/annotations.go`).
 *
 * The API server applies the CRD's defaults when it stores an
 * `ImageUpdater`, and the updater reads the stored object: every
 * `commonUpdateSettings` that is present gets `updateStrategy: semver`
 * unless it names one. So a level that sets only `allowTags` also resets
 * the strategy an outer level chose; the reader applies that default too.
 */

import { strings } from "@kubeimg/core/internal";
import { ARGO_GROUP, type DialectObjectOptions, Reader } from "../common/objects.js";
import type { ArgoConfig, ArgoUpdateSettings } from "./config.js";

/** An Argo CD Image Updater configuration read from an object. */
export interface ArgoConfigObject {
  readonly config: ArgoConfig;
  /** `ImageUpdater <namespace>/<name> image <alias>` or `Application <namespace>/<name>`. */
  readonly source: string;
  /** The image, when the object names it (the ImageUpdater's `imageName`, tag included). */
  readonly image: string | undefined;
}

/** `images[].alias` (the CRD's pattern). */
const ALIAS_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9-._]*$/;
/** `writeBackConfig.method` (the CRD's pattern). */
const METHOD_PATTERN = /^(argocd|git|git:[a-zA-Z0-9][a-zA-Z0-9-._/:]*)$/;
/** The reading context with the checks of the `ImageUpdater` CRD. */
class ArgoReader extends Reader {
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
  const read: ArgoReader = new ArgoReader(options);
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
  const read: ArgoReader = new ArgoReader(options);
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
