/**
 * Reads the Argo CD Image Updater and Kargo objects a user keeps in Git — an
 * Argo CD `Application` with the updater's annotations, an `ImageUpdater`
 * (argocd-image-updater.argoproj.io/v1alpha1), a Kargo `Warehouse`
 * (kargo.akuity.io/v1alpha1) — and turns them into the configurations the
 * dialects of `@kubeimg/policy/tags` take.
 *
 * Every field the CRDs define is accepted, even those that do not change
 * which tag is picked (write-back targets, pull secrets); a field they do
 * not define is an error naming its path, because a misspelt
 * `updateStrategy` would otherwise silently fall back to the default and
 * answer for a configuration the user never wrote.
 */

import type { UnknownFieldPolicy } from "@kubeimg/policy/routing";
import type {
  ArgoConfig,
  ArgoUpdateSettings,
  KargoImageSubscription,
  TagInfo,
} from "@kubeimg/policy/tags";
import { parse as parseYaml } from "yaml";
import { CliError } from "../../errors/cli-error.js";
import { readInputFile, readInputFiles } from "../../files/read-file.js";
import { yamlDocuments } from "../../files/yaml-documents.js";
import type { CliIo } from "../../io/io.js";

type Json = Record<string, unknown>;

/** How the loaders treat fields the CRDs do not define (`--validate`). */
export interface DialectLoadOptions {
  readonly unknownFields: UnknownFieldPolicy;
  readonly note: (line: string) => void;
}

/** The file an object came from, with the `--validate` mode in force. */
interface Src {
  readonly name: string;
  readonly options: DialectLoadOptions;
}

function asRecord(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

function fail(file: Src, path: string, problem: string, value?: unknown): never {
  const shown = value === undefined ? "" : ` (got ${JSON.stringify(value)?.slice(0, 80)})`;
  throw new CliError("MISSING_OBJECT", `${file.name}: ${path}: ${problem}${shown}`, file.name);
}

/** Refuses (or, with `--validate=warn`, reports) every key of `value` outside `known`, naming its path. */
function onlyKeys(file: Src, value: Json, known: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    switch (file.options.unknownFields) {
      case "strict":
        fail(file, `${path}.${key}`, "unknown field");
        break;
      case "warn":
        file.options.note(`${file.name}: ${path}.${key}: unknown field, ignored`);
        break;
      default:
        break;
    }
  }
}

function record(file: Src, value: unknown, path: string): Json {
  const r = asRecord(value);
  if (r === undefined) fail(file, path, "must be an object", value);
  return r;
}

function optionalString(file: Src, value: unknown, path: string): string | undefined {
  if (value !== undefined && typeof value !== "string") fail(file, path, "must be a string", value);
  return value as string | undefined;
}

function optionalStrings(file: Src, value: unknown, path: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    fail(file, path, "must be a list of strings", value);
  }
  return value as string[];
}

const OBJECT_KEYS = ["apiVersion", "kind", "metadata", "spec", "status"];

interface Found {
  readonly file: Src;
  readonly index: number;
  readonly value: Json;
}

async function objectsOf(
  names: readonly string[],
  io: CliIo,
  options: DialectLoadOptions,
  match: (apiVersion: string, kind: string) => boolean,
): Promise<Found[]> {
  const found: Found[] = [];
  for (const file of await readInputFiles(names, io)) {
    const src: Src = { name: file.name, options };
    yamlDocuments(file).forEach((doc, index) => {
      const r = asRecord(doc);
      if (r && typeof r.apiVersion === "string" && typeof r.kind === "string") {
        if (match(r.apiVersion, r.kind)) found.push({ file: src, index, value: r });
      }
    });
  }
  return found;
}

const ARGO_PREFIX = "argocd-image-updater.argoproj.io/";

/** Reads one `commonUpdateSettings` into the fields that decide the pick. */
function updateSettings(file: Src, value: unknown, path: string): ArgoUpdateSettings | undefined {
  if (value === undefined) return undefined;
  const r = record(file, value, path);
  onlyKeys(
    file,
    r,
    ["updateStrategy", "forceUpdate", "allowTags", "ignoreTags", "pullSecret", "platforms"],
    path,
  );
  if (r.forceUpdate !== undefined && typeof r.forceUpdate !== "boolean") {
    fail(file, `${path}.forceUpdate`, "must be a boolean", r.forceUpdate);
  }
  optionalString(file, r.pullSecret, `${path}.pullSecret`);
  const updateStrategy = optionalString(file, r.updateStrategy, `${path}.updateStrategy`);
  const allowTags = optionalString(file, r.allowTags, `${path}.allowTags`);
  const ignoreTags = optionalStrings(file, r.ignoreTags, `${path}.ignoreTags`);
  const platforms = optionalStrings(file, r.platforms, `${path}.platforms`);
  return {
    ...(updateStrategy !== undefined ? { updateStrategy } : {}),
    ...(allowTags !== undefined ? { allowTags } : {}),
    ...(ignoreTags !== undefined ? { ignoreTags } : {}),
    ...(platforms !== undefined ? { platforms } : {}),
  };
}

function checkWriteBack(file: Src, value: unknown, path: string): void {
  if (value === undefined) return;
  const r = record(file, value, path);
  onlyKeys(file, r, ["method", "gitConfig"], path);
  optionalString(file, r.method, `${path}.method`);
  if (r.gitConfig !== undefined) {
    const git = record(file, r.gitConfig, `${path}.gitConfig`);
    onlyKeys(file, git, ["repository", "branch", "writeBackTarget"], `${path}.gitConfig`);
    for (const key of ["repository", "branch", "writeBackTarget"]) {
      optionalString(file, git[key], `${path}.gitConfig.${key}`);
    }
  }
}

function checkManifestTargets(file: Src, value: unknown, path: string): void {
  if (value === undefined) return;
  const r = record(file, value, path);
  onlyKeys(file, r, ["helm", "kustomize"], path);
  if (r.helm !== undefined) {
    const helm = record(file, r.helm, `${path}.helm`);
    onlyKeys(file, helm, ["name", "tag", "spec"], `${path}.helm`);
    for (const key of ["name", "tag", "spec"])
      optionalString(file, helm[key], `${path}.helm.${key}`);
  }
  if (r.kustomize !== undefined) {
    const k = record(file, r.kustomize, `${path}.kustomize`);
    onlyKeys(file, k, ["name"], `${path}.kustomize`);
    optionalString(file, k.name, `${path}.kustomize.name`);
  }
}

/** The Argo CD configuration found, with where it came from. */
export interface LoadedArgo {
  readonly config: ArgoConfig;
  /** `Application ns/name` or `ImageUpdater ns/name alias`. */
  readonly source: string;
  /** The image, when the object names it (the ImageUpdater's `imageName`, tag included). */
  readonly image: string | undefined;
}

/** Reads an `ImageUpdater` down to the image `alias` (default: the first image of the first ref). */
function readImageUpdater(found: Found, alias: string | undefined): LoadedArgo {
  const { file } = found;
  const root = `ImageUpdater[${found.index}]`;
  onlyKeys(file, found.value, OBJECT_KEYS, root);
  const spec = record(file, found.value.spec, `${root}.spec`);
  onlyKeys(
    file,
    spec,
    ["namespace", "commonUpdateSettings", "writeBackConfig", "applicationRefs"],
    `${root}.spec`,
  );
  optionalString(file, spec.namespace, `${root}.spec.namespace`);
  const top = updateSettings(file, spec.commonUpdateSettings, `${root}.spec.commonUpdateSettings`);
  checkWriteBack(file, spec.writeBackConfig, `${root}.spec.writeBackConfig`);
  if (!Array.isArray(spec.applicationRefs) || spec.applicationRefs.length === 0) {
    fail(file, `${root}.spec.applicationRefs`, "must be a non-empty list", spec.applicationRefs);
  }
  let chosen: LoadedArgo | undefined;
  spec.applicationRefs.forEach((refValue: unknown, r: number) => {
    const at = `${root}.spec.applicationRefs[${r}]`;
    const ref = record(file, refValue, at);
    onlyKeys(
      file,
      ref,
      ["namePattern", "labelSelectors", "commonUpdateSettings", "writeBackConfig", "images"],
      at,
    );
    optionalString(file, ref.namePattern, `${at}.namePattern`);
    if (ref.labelSelectors !== undefined) {
      const sel = record(file, ref.labelSelectors, `${at}.labelSelectors`);
      onlyKeys(file, sel, ["matchLabels", "matchExpressions"], `${at}.labelSelectors`);
    }
    const middle = updateSettings(file, ref.commonUpdateSettings, `${at}.commonUpdateSettings`);
    checkWriteBack(file, ref.writeBackConfig, `${at}.writeBackConfig`);
    if (!Array.isArray(ref.images) || ref.images.length === 0) {
      fail(file, `${at}.images`, "must be a non-empty list", ref.images);
    }
    ref.images.forEach((imageValue: unknown, i: number) => {
      const ip = `${at}.images[${i}]`;
      const image = record(file, imageValue, ip);
      onlyKeys(file, image, ["alias", "imageName", "commonUpdateSettings", "manifestTargets"], ip);
      const imageAlias = optionalString(file, image.alias, `${ip}.alias`) ?? "";
      const imageName = image.imageName;
      if (typeof imageName !== "string" || imageName === "") {
        fail(file, `${ip}.imageName`, "is required", imageName);
      }
      const own = updateSettings(file, image.commonUpdateSettings, `${ip}.commonUpdateSettings`);
      checkManifestTargets(file, image.manifestTargets, `${ip}.manifestTargets`);
      if (chosen === undefined && (alias === undefined || alias === imageAlias)) {
        const meta = asRecord(found.value.metadata);
        chosen = {
          config: {
            alias: imageAlias,
            imageName,
            settings: {
              ...(top ? { spec: top } : {}),
              ...(middle ? { applicationRef: middle } : {}),
              ...(own ? { image: own } : {}),
            },
          },
          source: `ImageUpdater ${meta?.namespace ?? "default"}/${meta?.name ?? "?"} image ${imageAlias}`,
          image: imageName,
        };
      }
    });
  });
  if (chosen === undefined)
    fail(file, `${root}.spec.applicationRefs`, `no image with alias ${JSON.stringify(alias)}`);
  return chosen;
}

/**
 * Returns the one Argo CD Image Updater configuration of the files: an
 * `ImageUpdater` (the image `alias`, or the first), or else an Argo CD
 * `Application` carrying `argocd-image-updater.argoproj.io/` annotations.
 * Undefined when the files hold neither.
 */
export async function loadArgoConfig(
  names: readonly string[],
  io: CliIo,
  alias: string | undefined,
  options: DialectLoadOptions,
): Promise<LoadedArgo | undefined> {
  const updaters = await objectsOf(
    names,
    io,
    options,
    (api, kind) => api.startsWith(ARGO_PREFIX) && kind === "ImageUpdater",
  );
  if (updaters.length > 1) {
    throw new CliError(
      "USAGE",
      `${names.join(", ")}: ${updaters.length} ImageUpdaters found; give one file with one`,
    );
  }
  if (updaters[0]) return readImageUpdater(updaters[0], alias);
  const apps = (
    await objectsOf(
      names,
      io,
      options,
      (api, kind) => api.startsWith("argoproj.io/") && kind === "Application",
    )
  ).filter((a) =>
    Object.keys(asRecord(asRecord(a.value.metadata)?.annotations) ?? {}).some((k) =>
      k.startsWith(ARGO_PREFIX),
    ),
  );
  if (apps.length > 1) {
    throw new CliError(
      "USAGE",
      `${names.join(", ")}: ${apps.length} annotated Applications found; give one`,
    );
  }
  const app = apps[0];
  if (app === undefined) return undefined;
  const meta = record(app.file, app.value.metadata, `Application[${app.index}].metadata`);
  const annotations = record(
    app.file,
    meta.annotations,
    `Application[${app.index}].metadata.annotations`,
  );
  const own: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(annotations)) {
    if (!key.startsWith(ARGO_PREFIX)) continue;
    if (typeof value !== "string")
      fail(app.file, `metadata.annotations.${key}`, "must be a string", value);
    own[key] = value;
  }
  return {
    config: { annotations: own },
    source: `Application ${meta.namespace ?? "default"}/${meta.name ?? "?"}`,
    image: undefined,
  };
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

/** The Kargo subscription found, with where it came from. */
export interface LoadedKargo {
  readonly subscription: KargoImageSubscription;
  readonly source: string;
}

/**
 * Returns the image subscription of the files' Kargo `Warehouse`: the
 * `index`-th subscription (which must be an image one), or the first image
 * subscription. Undefined when the files hold no Warehouse.
 */
export async function loadKargoSubscription(
  names: readonly string[],
  io: CliIo,
  index: number | undefined,
  options: DialectLoadOptions,
): Promise<LoadedKargo | undefined> {
  const found = await objectsOf(
    names,
    io,
    options,
    (api, kind) => api === "kargo.akuity.io/v1alpha1" && kind === "Warehouse",
  );
  if (found.length > 1) {
    throw new CliError("USAGE", `${names.join(", ")}: ${found.length} Warehouses found; give one`);
  }
  const warehouse = found[0];
  if (warehouse === undefined) return undefined;
  const { file } = warehouse;
  const root = `Warehouse[${warehouse.index}]`;
  onlyKeys(file, warehouse.value, OBJECT_KEYS, root);
  const spec = record(file, warehouse.value.spec, `${root}.spec`);
  onlyKeys(
    file,
    spec,
    ["shard", "interval", "freightCreationPolicy", "subscriptions", "freightCreationCriteria"],
    `${root}.spec`,
  );
  const subs = spec.subscriptions;
  if (!Array.isArray(subs) || subs.length === 0) {
    fail(file, `${root}.spec.subscriptions`, "must be a non-empty list", subs);
  }
  subs.forEach((s: unknown, i: number) => {
    const sub = record(file, s, `${root}.spec.subscriptions[${i}]`);
    onlyKeys(file, sub, ["git", "image", "chart"], `${root}.spec.subscriptions[${i}]`);
  });
  let at: number;
  if (index !== undefined) {
    if (index >= subs.length || asRecord(subs[index])?.image === undefined) {
      fail(file, `${root}.spec.subscriptions[${index}]`, "is not an image subscription");
    }
    at = index;
  } else {
    at = subs.findIndex((s: unknown) => asRecord(s)?.image !== undefined);
    if (at < 0) fail(file, `${root}.spec.subscriptions`, "has no image subscription");
  }
  const path = `${root}.spec.subscriptions[${at}].image`;
  const image = record(file, asRecord(subs[at])?.image, path);
  onlyKeys(file, image, KARGO_IMAGE_KEYS, path);
  for (const key of ["repoURL", "imageSelectionStrategy", "constraint", "allowTags", "platform"]) {
    optionalString(file, image[key], `${path}.${key}`);
  }
  for (const key of ["allowTagsRegexes", "ignoreTagsRegexes", "ignoreTags"]) {
    optionalStrings(file, image[key], `${path}.${key}`);
  }
  for (const key of ["strictSemvers", "insecureSkipTLSVerify"]) {
    if (image[key] !== undefined && typeof image[key] !== "boolean") {
      fail(file, `${path}.${key}`, "must be a boolean", image[key]);
    }
  }
  if (image.discoveryLimit !== undefined && !Number.isInteger(image.discoveryLimit)) {
    fail(file, `${path}.discoveryLimit`, "must be an integer", image.discoveryLimit);
  }
  const { insecureSkipTLSVerify: _tls, ...subscription } = image;
  const meta = asRecord(warehouse.value.metadata);
  return {
    subscription: subscription as KargoImageSubscription,
    source: `Warehouse ${meta?.namespace ?? "default"}/${meta?.name ?? "?"} subscription ${at}`,
  };
}

/**
 * Returns the tags of a tags file with their metadata: a JSON/YAML list
 * whose entries are tag names or `TagInfo` objects (`name`, `created`,
 * `digest`, `platforms`), a registry `tags/list` answer, or one tag per line.
 */
export async function readTagInfoFile(name: string, io: CliIo): Promise<TagInfo[]> {
  const file = await readInputFile(name, io);
  const src: Src = { name, options: { unknownFields: "strict", note: () => {} } };
  if (!/\.(ya?ml|json)$/i.test(name)) {
    return file.text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== "")
      .map((tag) => ({ name: tag }));
  }
  yamlDocuments(file);
  const value: unknown = parseYaml(file.text);
  const list = Array.isArray(value) ? value : asRecord(value)?.tags;
  if (!Array.isArray(list)) {
    fail(src, "(top)", 'expected a list of tags, or an object whose "tags" is a list');
  }
  // Objects are checked field by field by the dialects themselves (path `tags[i].…`).
  return list.map((entry: unknown, i: number) => {
    if (typeof entry === "string") return { name: entry };
    if (asRecord(entry) === undefined)
      fail(src, `tags[${i}]`, "must be a tag or a TagInfo object", entry);
    return entry as TagInfo;
  });
}
