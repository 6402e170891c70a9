/**
 * Kargo v1.11.2 (commit 20c5638): an image subscription of a Warehouse
 * (`spec.subscriptions[].image`) as the user writes it, with what the
 * Warehouse webhook does before the controller ever sees it.
 *
 * Defaults (`ApplySubscriptionDefaults`): strategy `""` → `SemVer`,
 * `strictSemvers` missing → `true`, `discoveryLimit` 0 → 20.
 *
 * Validation (`ValidateSubscription`), every failing check collected in this
 * order, any failure rejects the Warehouse:
 * - `repoURL` non-empty and matching
 *   `^(\w+([\.-]\w+)*(:[\d]+)?/)?(\w+([\.-]\w+)*)(/\w+([\.-]\w+)*)*$`;
 * - the strategy exactly `Digest`, `Lexical`, `NewestBuild` or `SemVer`;
 * - `Digest` needs a `constraint`;
 * - with `SemVer`, a non-empty `constraint` must be a Masterminds constraint;
 * - a `platform` split on `/` (at most three parts) gives at least two;
 * - `discoveryLimit` within 1…100.
 *
 * The field names are v1.11.2's (`api/v1alpha1/zz_subscription_types.go`,
 * generated from `pkg/subscription/schemas/image.json`): the regex lists are
 * `allowTagsRegexes` and `ignoreTagsRegexes` (plural); `allowTags` and
 * `ignoreTags` are the deprecated forms; `cacheByTag` and
 * `insecureSkipTLSVerify` are accepted and do not change the pick. The JSON
 * schema's `platform` pattern (`^\w+/\w+$`) is not what the webhook checks:
 * it runs the Go validation above, which admits `linux/arm64/v8`.
 */
import { strconv } from "@kubeimg/core/internal";
import { parseConstraints } from "../../semver/index.js";
import { TagDialectError } from "../common/errors.js";
import { updaterSemver } from "../common/semver.js";
import { splitPlatform } from "../common/tag-list.js";

/** Kargo's image selection strategies. */
export type KargoStrategy = "SemVer" | "Lexical" | "NewestBuild" | "Digest";

/** An `ImageSubscription` as written (a missing key is Go's zero value). */
export interface KargoImageSubscription {
  readonly repoURL?: string;
  readonly imageSelectionStrategy?: string;
  readonly constraint?: string;
  readonly strictSemvers?: boolean;
  readonly allowTagsRegexes?: readonly string[];
  readonly ignoreTagsRegexes?: readonly string[];
  readonly platform?: string;
  readonly discoveryLimit?: number;
  /** Deprecated; set, it fails selector construction (`UNSUPPORTED_FIELD`). */
  readonly allowTags?: string;
  /** Deprecated; set, it fails selector construction (`UNSUPPORTED_FIELD`). */
  readonly ignoreTags?: readonly string[];
  /** Cache image metadata by tag; does not change the pick. */
  readonly cacheByTag?: boolean;
  /** Skip TLS verification of the registry; does not change the pick. */
  readonly insecureSkipTLSVerify?: boolean;
}

/** A subscription after the webhook's defaults. */
export interface DefaultedKargoSubscription {
  readonly repoURL: string;
  readonly imageSelectionStrategy: string;
  readonly constraint: string;
  readonly strictSemvers: boolean;
  readonly allowTagsRegexes: readonly string[];
  readonly ignoreTagsRegexes: readonly string[];
  readonly platform: string;
  readonly discoveryLimit: number;
  readonly allowTags: string;
  readonly ignoreTags: readonly string[];
}

const strategies: readonly KargoStrategy[] = ["Digest", "Lexical", "NewestBuild", "SemVer"];
const repoURLPattern = /^(\w+([.-]\w+)*(:[\d]+)?\/)?(\w+([.-]\w+)*)(\/\w+([.-]\w+)*)*$/;
const fieldPath = "spec.subscriptions[0].image";

const stringFields = [
  "repoURL",
  "imageSelectionStrategy",
  "constraint",
  "platform",
  "allowTags",
] as const;
const listFields = ["allowTagsRegexes", "ignoreTagsRegexes", "ignoreTags"] as const;
const booleanFields = ["strictSemvers", "cacheByTag", "insecureSkipTLSVerify"] as const;

/**
 * Checks the shape of `sub` (types and unknown fields, as the CRD's schema
 * does) and applies the webhook's defaults. Throws a `TagDialectError`
 * naming the field for a value of the wrong type or an unknown field.
 */
export function defaultKargoSubscription(sub: KargoImageSubscription): DefaultedKargoSubscription {
  if (sub === null || typeof sub !== "object" || Array.isArray(sub)) {
    throw new TagDialectError("config", sub, "must be an image subscription object");
  }
  const known: readonly string[] = [
    ...stringFields,
    ...listFields,
    ...booleanFields,
    "discoveryLimit",
  ];
  for (const key of Object.keys(sub)) {
    if (!known.includes(key)) {
      throw new TagDialectError(
        `config.${key}`,
        (sub as Record<string, unknown>)[key],
        "unknown field",
      );
    }
  }
  for (const key of stringFields) {
    if (sub[key] !== undefined && typeof sub[key] !== "string") {
      throw new TagDialectError(`config.${key}`, sub[key], "must be a string");
    }
  }
  for (const key of listFields) {
    const list = sub[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((x) => typeof x !== "string"))) {
      throw new TagDialectError(`config.${key}`, list, "must be an array of strings");
    }
  }
  for (const key of booleanFields) {
    if (sub[key] !== undefined && typeof sub[key] !== "boolean") {
      throw new TagDialectError(`config.${key}`, sub[key], "must be a boolean");
    }
  }
  if (sub.discoveryLimit !== undefined && !Number.isSafeInteger(sub.discoveryLimit)) {
    throw new TagDialectError("config.discoveryLimit", sub.discoveryLimit, "must be an integer");
  }
  return {
    repoURL: sub.repoURL ?? "",
    imageSelectionStrategy: sub.imageSelectionStrategy || "SemVer",
    constraint: sub.constraint ?? "",
    strictSemvers: sub.strictSemvers ?? true,
    allowTagsRegexes: sub.allowTagsRegexes ?? [],
    ignoreTagsRegexes: sub.ignoreTagsRegexes ?? [],
    platform: sub.platform ?? "",
    discoveryLimit: sub.discoveryLimit || 20,
    allowTags: sub.allowTags ?? "",
    ignoreTags: sub.ignoreTags ?? [],
  };
}

/**
 * Returns the webhook's field errors for `sub` (Kubernetes' `field.Error`
 * texts), empty when it admits it.
 */
export function validateKargoSubscription(sub: DefaultedKargoSubscription): string[] {
  const errors: string[] = [];
  const invalid = (field: string, value: string | number, detail?: string) =>
    errors.push(
      `${fieldPath}.${field}: Invalid value: ${typeof value === "string" ? strconv.Quote(value) : String(value)}${detail === undefined ? "" : `: ${detail}`}`,
    );
  if (sub.repoURL.length < 1) invalid("repoURL", sub.repoURL, "must have a minimum length of 1");
  if (!repoURLPattern.test(sub.repoURL))
    invalid("repoURL", sub.repoURL, "must be a valid image repository URL");
  if (!(strategies as readonly string[]).includes(sub.imageSelectionStrategy)) {
    errors.push(
      `${fieldPath}.imageSelectionStrategy: Unsupported value: ${strconv.Quote(sub.imageSelectionStrategy)}: supported values: ${strategies.map((s) => `"${s}"`).join(", ")}`,
    );
  }
  if (sub.imageSelectionStrategy === "Digest" && sub.constraint === "") {
    invalid("constraint", "", "must be set when imageSelectionStrategy is Digest");
  }
  if (sub.imageSelectionStrategy === "SemVer" && sub.constraint !== "") {
    try {
      parseConstraints(sub.constraint, updaterSemver);
    } catch {
      invalid("constraint", sub.constraint);
    }
  }
  if (sub.platform !== "" && !splitPlatform(sub.platform).valid) {
    invalid("platform", sub.platform, "must be in format <os>/<arch>");
  }
  if (sub.discoveryLimit < 1) invalid("discoveryLimit", sub.discoveryLimit, "must be >= 1");
  if (sub.discoveryLimit > 100) invalid("discoveryLimit", sub.discoveryLimit, "must be <= 100");
  return errors;
}

/** A repository as go-containerregistry's `name.NewRepository` reads it. */
interface GgcrRepository {
  /** The registry, Docker Hub's aliases resolved to `index.docker.io`. */
  readonly registry: string;
  /** `RepositoryStr()`: with `library/` for a one-part Docker Hub name. */
  readonly repository: string;
}

const dockerHub = "index.docker.io";

/**
 * go-containerregistry's `name.ParseReference` with weak validation, for a
 * name without a digest (the webhook's pattern admits none): an optional tag
 * after the last `:` that no `/` follows, then the part before the first `/`
 * is a registry when it holds `.` or `:`, and the repository must be 2 to 255
 * characters of `a-z0-9_-./`.
 */
function ggcrParse(name: string): GgcrRepository | undefined {
  let base = name;
  const colon = name.lastIndexOf(":");
  if (colon >= 0 && !name.slice(colon + 1).includes("/")) {
    if (!/^[A-Za-z0-9_.-]{1,128}$/.test(name.slice(colon + 1))) return undefined;
    base = name.slice(0, colon);
  }
  if (base === "") return undefined;
  const slash = base.indexOf("/");
  let registry = "";
  let repository = base;
  if (slash >= 0 && /[.:]/.test(base.slice(0, slash))) {
    registry = base.slice(0, slash);
    repository = base.slice(slash + 1);
  }
  if (repository.length < 2 || repository.length > 255 || !/^[a-z0-9_\-./]*$/.test(repository)) {
    return undefined;
  }
  if (registry !== "" && !/^[A-Za-z0-9_.-]*(:\d*)?$/.test(registry)) return undefined;
  if (registry === "" || registry === "docker.io") registry = dockerHub;
  if (registry === dockerHub && !repository.includes("/")) repository = `library/${repository}`;
  return { registry, repository };
}

/**
 * The URL Kargo's repository client parses for `repoURL`, or `undefined` when
 * go-containerregistry rejects it (`INVALID_REPO_URL`). Kargo first
 * normalizes (`urls.NormalizeImage`): lower-cased and trimmed, parsed, and
 * rewritten as `registry/repository`, Docker Hub's as the bare repository
 * without `library/`; a URL that does not parse is kept as written. Then it
 * parses the result again. So `GHCR.io/Acme/App` works, while
 * `docker.io/library/x` normalizes to the one-character `x` and fails.
 * Called on a `repoURL` that passed the webhook's pattern (ASCII), where
 * Go's Unicode lower-casing and its removal of unprintable runes change
 * nothing more.
 */
export function kargoRepositoryURL(repoURL: string): {
  readonly url: string;
  readonly ok: boolean;
} {
  const parsed = ggcrParse(repoURL.toLowerCase().trim());
  let url = repoURL;
  if (parsed !== undefined) {
    const { registry, repository } = parsed;
    url =
      registry === dockerHub || registry === "registry-1.docker.io"
        ? repository.startsWith("library/")
          ? repository.slice("library/".length)
          : repository
        : `${registry}/${repository}`;
  }
  return { url, ok: ggcrParse(url) !== undefined };
}
