/**
 * Argo CD Image Updater v1.3.0 (commit 098b544): from what a user writes — an
 * `ImageUpdater` resource, or an Application's `argocd-image-updater.argoproj.io/…`
 * annotations — to the settings of the one image it selects for.
 *
 * Annotations (`pkg/argocd/annotations.go`):
 * 1. `image-list` is required, split on `,`, each entry trimmed, empty ones
 *    skipped; none left is an error.
 * 2. An entry with `=` splits at the first `=` into alias and image (both
 *    trimmed; an empty image is an error). So `web=nginx:>=1.0, <2.0` is two
 *    entries, the second being `<2.0`.
 * 3. Per aliased entry, in list order: its `<alias>.update-strategy`,
 *    `.allow-tags`, `.ignore-tags`, `.force-update`, `.pull-secret`,
 *    `.platforms`, and its manifest targets (`.helm.image-name|image-tag|image-spec`,
 *    `.kustomize.image-name`: both kinds at once is an error).
 * 4. Then the application-wide keys (no `platforms` there).
 * Only the first image of the list is selected for; its own settings win over
 * the application-wide ones key by key, as the resource form's levels do.
 */
import { strconv, strings } from "@kubeimg/core/internal";
import { TagDialectError } from "../common/errors.js";

/** The annotation prefix of every Argo CD Image Updater key. */
export const ARGOCD_ANNOTATION_PREFIX = "argocd-image-updater.argoproj.io";

/** One level of `commonUpdateSettings`: a key that is present is set, even to `""` or `[]`. */
export interface ArgoUpdateSettings {
  readonly updateStrategy?: string;
  readonly allowTags?: string;
  readonly ignoreTags?: readonly string[];
  readonly platforms?: readonly string[];
}

/** The `ImageUpdater` resource form, reduced to the one image selected for. */
export interface ArgoImageUpdaterConfig {
  /** `images[].alias`; absent means `""`. */
  readonly alias?: string;
  /** `images[].imageName`: its tag part is the version constraint. */
  readonly imageName: string;
  /** `spec`, `applicationRefs[]` and `images[]` `commonUpdateSettings`, later levels winning key by key. */
  readonly settings?: {
    readonly spec?: ArgoUpdateSettings;
    readonly applicationRef?: ArgoUpdateSettings;
    readonly image?: ArgoUpdateSettings;
  };
}

/** The annotation form: an Application's annotations. */
export interface ArgoAnnotationsConfig {
  readonly annotations: Readonly<Record<string, string>>;
}

/** Either form of an Argo CD Image Updater configuration. */
export type ArgoConfig = ArgoImageUpdaterConfig | ArgoAnnotationsConfig;

/** The image and settings the updater ends up with. */
export interface ArgoImageSettings {
  readonly alias: string;
  readonly image: string;
  readonly settings: ArgoUpdateSettings;
  /** Quirks of the reading that may surprise (a constraint cut at a comma). */
  readonly notes: readonly string[];
}

/** A configuration error Argo CD reports (the Application is skipped). */
export interface ArgoConfigFailure {
  readonly message: string;
}

const settingKeys = ["updateStrategy", "allowTags", "ignoreTags", "platforms"] as const;

/** The Application's namespace/name in Argo CD's messages (the suite's fixed `argocd/app`). */
const appName = "argocd/app";

/**
 * Reads either configuration form. Returns the first image's settings, or
 * the error Argo CD reports for the annotations. Throws a
 * {@link TagDialectError} for input of the wrong shape.
 */
export function readArgoConfig(config: ArgoConfig): ArgoImageSettings | ArgoConfigFailure {
  if (config === null || typeof config !== "object") {
    throw new TagDialectError("config", config, "must be an object");
  }
  if ("annotations" in config) {
    onlyKeys(config, ["annotations"], "config");
    return readAnnotations(config.annotations);
  }
  onlyKeys(config, ["alias", "imageName", "settings"], "config");
  const { alias = "", imageName, settings } = config;
  if (typeof alias !== "string")
    throw new TagDialectError("config.alias", alias, "must be a string");
  if (typeof imageName !== "string") {
    throw new TagDialectError("config.imageName", imageName, "must be a string");
  }
  let merged: ArgoUpdateSettings = {};
  if (settings !== undefined) {
    if (settings === null || typeof settings !== "object") {
      throw new TagDialectError("config.settings", settings, "must be an object");
    }
    onlyKeys(settings, ["spec", "applicationRef", "image"], "config.settings");
    for (const level of ["spec", "applicationRef", "image"] as const) {
      const value = settings[level];
      if (value !== undefined)
        merged = mergeSettings(merged, checkSettings(value, `config.settings.${level}`));
    }
  }
  return { alias, image: imageName, settings: merged, notes: [] };
}

/** Later wins key by key; a key that is present is set, even to `""` or `[]`. */
export function mergeSettings(
  base: ArgoUpdateSettings,
  over: ArgoUpdateSettings,
): ArgoUpdateSettings {
  const out: Record<string, unknown> = Object.create(null);
  for (const key of settingKeys) {
    const value = over[key] !== undefined ? over[key] : base[key];
    if (value !== undefined) out[key] = value;
  }
  return out as ArgoUpdateSettings;
}

function checkSettings(value: unknown, path: string): ArgoUpdateSettings {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TagDialectError(path, value, "must be an object");
  }
  const record = value as Record<string, unknown>;
  onlyKeys(record, settingKeys, path);
  for (const key of ["updateStrategy", "allowTags"] as const) {
    if (record[key] !== undefined && typeof record[key] !== "string") {
      throw new TagDialectError(`${path}.${key}`, record[key], "must be a string");
    }
  }
  for (const key of ["ignoreTags", "platforms"] as const) {
    const list = record[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((x) => typeof x !== "string"))) {
      throw new TagDialectError(`${path}.${key}`, list, "must be an array of strings");
    }
  }
  return value as ArgoUpdateSettings;
}

function onlyKeys(value: object, known: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw new TagDialectError(
        `${path}.${key}`,
        (value as Record<string, unknown>)[key],
        "unknown field",
      );
    }
  }
}

function readAnnotations(annotations: unknown): ArgoImageSettings | ArgoConfigFailure {
  if (annotations === null || typeof annotations !== "object" || Array.isArray(annotations)) {
    throw new TagDialectError("config.annotations", annotations, "must be an object of strings");
  }
  const map = annotations as Record<string, unknown>;
  for (const [key, value] of Object.entries(map)) {
    if (typeof value !== "string") {
      throw new TagDialectError(
        `config.annotations[${JSON.stringify(key)}]`,
        value,
        "must be a string",
      );
    }
  }
  const get = (key: string): string | undefined =>
    Object.hasOwn(map, `${ARGOCD_ANNOTATION_PREFIX}/${key}`)
      ? (map[`${ARGOCD_ANNOTATION_PREFIX}/${key}`] as string)
      : undefined;
  const listKey = `${ARGOCD_ANNOTATION_PREFIX}/image-list`;
  const list = get("image-list");
  if (list === undefined) return { message: `${listKey} annotation not found on app ${appName}` };
  const images: { alias: string; image: string; settings: ArgoUpdateSettings }[] = [];
  for (const raw of list.split(",")) {
    const entry = strings.TrimSpace(raw);
    if (entry === "") continue;
    const eq = entry.indexOf("=");
    if (eq < 0) {
      images.push({ alias: "", image: entry, settings: {} });
      continue;
    }
    const alias = strings.TrimSpace(entry.slice(0, eq));
    const image = strings.TrimSpace(entry.slice(eq + 1));
    if (image === "")
      return { message: `empty image name in ${listKey} annotation on app ${appName}` };
    let settings: ArgoUpdateSettings = {};
    if (alias !== "") {
      const read = readSettingAnnotations(get, `${alias}.`, true);
      if ("message" in read) {
        return {
          message: `parse common update settings for alias ${strconv.Quote(alias)}: ${read.message}`,
        };
      }
      settings = read;
      const targets = manifestTargetProblem(get, alias);
      if (targets !== undefined) {
        return { message: `parse manifest targets for alias ${strconv.Quote(alias)}: ${targets}` };
      }
    }
    images.push({ alias, image, settings });
  }
  const first = images[0];
  if (first === undefined) return { message: `${listKey} annotation is empty on app ${appName}` };
  const appWide = readSettingAnnotations(get, "", false);
  if ("message" in appWide) return appWide;
  // An entry that starts like a constraint is what is left of one cut at its comma.
  const notes = images
    .slice(1)
    .filter((img) => img.alias === "" && /^[<>=!~^0-9*]/.test(img.image))
    .map(
      (img) =>
        `image-list is split on commas first: ${JSON.stringify(img.image)} became an image of its own, so it is no part of the first image's constraint`,
    );
  return {
    alias: first.alias,
    image: first.image,
    settings: mergeSettings(appWide, first.settings),
    notes,
  };
}

/** Reads one set of setting annotations (`<prefix>update-strategy`, …), as Argo CD trims and keeps them. */
function readSettingAnnotations(
  get: (key: string) => string | undefined,
  prefix: string,
  withPlatforms: boolean,
): ArgoUpdateSettings | ArgoConfigFailure {
  const out: Record<string, unknown> = Object.create(null);
  const strategy = trimmed(get(`${prefix}update-strategy`));
  if (strategy) out.updateStrategy = strategy;
  const force = get(`${prefix}force-update`);
  if (force !== undefined && strconv.ParseBool(strings.TrimSpace(force)) === undefined) {
    return {
      message: `error parsing force update settings: strconv.ParseBool: parsing ${strconv.Quote(strings.TrimSpace(force))}: invalid syntax`,
    };
  }
  const allow = trimmed(get(`${prefix}allow-tags`));
  if (allow) out.allowTags = allow;
  const ignore = get(`${prefix}ignore-tags`);
  // Empty pieces are kept: they ignore the empty tag only.
  if (ignore !== undefined) out.ignoreTags = ignore.split(",").map((p) => strings.TrimSpace(p));
  if (withPlatforms) {
    const platforms = get(`${prefix}platforms`)
      ?.split(",")
      .map((p) => strings.TrimSpace(p))
      .filter((p) => p !== "");
    if (platforms !== undefined && platforms.length > 0) out.platforms = platforms;
  }
  return out as ArgoUpdateSettings;
}

function manifestTargetProblem(
  get: (key: string) => string | undefined,
  alias: string,
): string | undefined {
  const set = (key: string) => (trimmed(get(`${alias}.${key}`)) ?? "") !== "";
  const helm = set("helm.image-name") || set("helm.image-tag") || set("helm.image-spec");
  return helm && set("kustomize.image-name")
    ? `both helm and kustomize manifest targets configured for alias ${strconv.Quote(alias)}`
    : undefined;
}

/** Go's `strings.TrimSpace` of an annotation that may be absent (JavaScript's `trim` also strips U+FEFF and keeps U+0085). */
function trimmed(value: string | undefined): string | undefined {
  return value === undefined ? undefined : strings.TrimSpace(value);
}
