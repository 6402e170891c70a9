/**
 * The tag-selection objects users keep in Git, read from YAML text: Flux's
 * `ImagePolicy` and `ImageRepository`, the Argo CD Image Updater's
 * `ImageUpdater` and an Argo CD `Application` carrying its annotations, and
 * Kargo's `Warehouse`. Each is read by the reader its subpath offers
 * (`parseImagePolicy`, `readArgoImageUpdater`, `readKargoWarehouse`, …);
 * this module adds the documents, the kinds and the positions.
 */
import type { Document, LineCounter as YamlLineCounter } from "yaml";
import { isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments } from "#yaml";
import type { UnknownFieldPolicy } from "../../objects/unknown-fields.js";
import {
  boundedValues,
  DEFAULT_MAX_EXPANDED_NODES,
  describeYamlProblem,
  syntaxWhere,
  type YamlPosition,
} from "../../objects/yaml-documents.js";
import {
  type ArgoConfigObject,
  readArgoApplication,
  readArgoImageUpdater,
} from "../argocd/objects.js";
import { TagDialectError } from "../common/errors.js";
import { asRecord, dialectObjectKind } from "../common/objects.js";
import { TagPolicyError } from "../flux/errors.js";
import type { ImagePolicy } from "../flux/image-policy-schema.js";
import type { ImageRepository } from "../flux/image-repository-schema.js";
import { parseImagePolicy, parseImageRepository } from "../flux/objects.js";
import { type KargoSubscriptionObject, readKargoWarehouse } from "../kargo/objects.js";
import { TagObjectError, type TagObjectErrorCode } from "./errors.js";

/**
 * The kinds {@link loadTagObjects} reads.
 *
 * @inline
 */
export type TagObjectKind =
  | "ImagePolicy"
  | "ImageRepository"
  | "ImageUpdater"
  | "Application"
  | "Warehouse";

/**
 * Where an object was found, as `select` and `onSkipped` see it.
 *
 * @inline
 */
export interface TagObjectPlace {
  /** 0-based index of the YAML document (a `kind: List` document's items share it). */
  readonly document: number;
  readonly apiVersion: unknown;
  readonly kind: unknown;
  /** `metadata.name`, when it is a string. */
  readonly name: string | undefined;
  /** `metadata.namespace`, when it is a string. */
  readonly namespace: string | undefined;
}

/**
 * An unknown field reported under `unknownFields: "warn"`.
 *
 * @inline
 */
export interface TagObjectWarning {
  /** `document N: ` and the reader's sentence, with the known field probably meant. */
  readonly message: string;
  readonly document: number;
  readonly kind: TagObjectKind;
  readonly path: string;
  readonly suggestion?: string;
}

/**
 * One object read, typed by its kind: a Flux object validated and
 * converted to v1; for the Argo CD and Kargo objects the configuration their
 * tag selection takes (one `ImageUpdater` image, one `Warehouse`
 * subscription).
 */
export type TagObject = {
  readonly document: number;
  readonly name: string | undefined;
  readonly namespace: string | undefined;
} & (
  | { readonly kind: "ImagePolicy"; readonly object: ImagePolicy }
  | { readonly kind: "ImageRepository"; readonly object: ImageRepository }
  | { readonly kind: "ImageUpdater" | "Application"; readonly object: ArgoConfigObject }
  | { readonly kind: "Warehouse"; readonly object: KargoSubscriptionObject }
);

/** Options of {@link loadTagObjects}. */
export interface LoadTagObjectsOptions {
  /**
   * Fields the objects' CRDs do not define: `"strict"` (default) refuses
   * them (`UNKNOWN_FIELD`, with the closest known field), `"warn"` drops
   * them and calls `onWarning`, `"ignore"` drops them quietly.
   */
  readonly unknownFields?: UnknownFieldPolicy;
  /** Called for each unknown field under `unknownFields: "warn"`. */
  readonly onWarning?: (warning: TagObjectWarning) => void;
  /**
   * Documents of other kinds (a Deployment in the same file, an Application
   * the updater does not manage): `"error"` (default) refuses them with
   * `UNKNOWN_KIND`, `"ignore"` skips them (`onSkipped` hears of each).
   */
  readonly otherKinds?: "error" | "ignore";
  /**
   * Which objects of the accepted kinds to read (default: all). The others
   * are skipped unread, so an object the caller does not want cannot fail
   * the load; `onSkipped` hears of each.
   */
  readonly select?: (place: TagObjectPlace & { readonly kind: TagObjectKind }) => boolean;
  /** Called for each document skipped, by `otherKinds: "ignore"` or by `select`. */
  readonly onSkipped?: (place: TagObjectPlace) => void;
  /** The `ImageUpdater` image to read, by alias (default: each one's first image). */
  readonly alias?: string;
  /** The `Warehouse` subscription to read, by index (default: each one's first image subscription). */
  readonly subscription?: number;
  /** Most YAML nodes one document may hold once aliases are expanded (default 1,000,000); more is `YAML_TOO_LARGE`. */
  readonly maxExpandedNodes?: number;
}

const FLUX_GROUP = "image.toolkit.fluxcd.io/";

/** What an `UNKNOWN_KIND` error lists as accepted. */
const ACCEPTED_KINDS =
  "image.toolkit.fluxcd.io ImagePolicy and ImageRepository (v1, v1beta2, v1beta1), " +
  "argocd-image-updater.argoproj.io ImageUpdater, argoproj.io Application with " +
  "argocd-image-updater.argoproj.io/ annotations, kargo.akuity.io/v1alpha1 Warehouse";

const INVALID: Record<TagObjectKind, TagObjectErrorCode> = {
  ImagePolicy: "INVALID_IMAGE_POLICY",
  ImageRepository: "INVALID_IMAGE_REPOSITORY",
  ImageUpdater: "INVALID_IMAGE_UPDATER",
  Application: "INVALID_APPLICATION",
  Warehouse: "INVALID_WAREHOUSE",
};

/** Which reader `value` is for; Flux objects by group, so a wrong version is worded by Flux's reader. */
function tagObjectKind(value: unknown): TagObjectKind | undefined {
  const r = asRecord(value);
  if (
    typeof r?.apiVersion === "string" &&
    r.apiVersion.startsWith(FLUX_GROUP) &&
    (r.kind === "ImagePolicy" || r.kind === "ImageRepository")
  ) {
    return r.kind;
  }
  switch (dialectObjectKind(value)) {
    case "argocd-image-updater":
      return "ImageUpdater";
    case "argocd-application":
      return "Application";
    case "kargo-warehouse":
      return "Warehouse";
    default:
      return undefined;
  }
}

function placeOf(value: unknown, document: number): TagObjectPlace {
  const r = asRecord(value);
  const meta = asRecord(r?.metadata);
  return {
    document,
    apiVersion: r?.apiVersion,
    kind: r?.kind,
    name: typeof meta?.name === "string" ? meta.name : undefined,
    namespace: typeof meta?.namespace === "string" ? meta.namespace : undefined,
  };
}

/** A path as the readers write it (`spec.a.0.b`, `Kind[2].spec.a[0].b`), as segments. */
function pathSegments(path: string): string[] {
  return path
    .replace(/^[A-Za-z]+\[\d+\]\.?/, "")
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter((s) => s !== "");
}

/**
 * Returns the position of the deepest node of `path` present in the
 * document (a map key where the path names one, so an unknown field points
 * at its own line). Keys holding dots (annotation names) are matched by
 * joining segments.
 */
function positionOf(
  document: Document.Parsed,
  base: readonly string[],
  path: string,
  lineCounter: YamlLineCounter,
): YamlPosition | undefined {
  const segments = [...base, ...pathSegments(path)];
  let node: unknown = document.contents;
  let offset = (node as { range?: [number] } | null)?.range?.[0];
  for (let i = 0; i < segments.length; ) {
    if (isMap(node)) {
      const pairs = node.items;
      let found = false;
      for (let j = i; j < segments.length && !found; j++) {
        const key = segments.slice(i, j + 1).join(".");
        const pair = pairs.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key);
        if (pair !== undefined) {
          offset = (pair.key as { range?: [number] }).range?.[0] ?? offset;
          node = pair.value;
          i = j + 1;
          found = true;
        }
      }
      if (!found) break;
    } else if (isSeq(node)) {
      const item: unknown = node.items[Number(segments[i])];
      if (item === undefined || item === null || typeof item !== "object") break;
      offset = (item as { range?: [number] }).range?.[0] ?? offset;
      node = item;
      i++;
    } else break;
  }
  return offset === undefined ? undefined : lineCounter.linePos(offset);
}

/**
 * Returns every tag-selection object of a YAML text, typed by kind and
 * validated by its reader: Flux `ImagePolicy` and `ImageRepository` (v1,
 * v1beta2, v1beta1, converted to v1 with the CRD defaults), Argo CD Image
 * Updater `ImageUpdater` and annotated Argo CD `Application`, Kargo
 * `Warehouse`. Several documents separated by `---`, empty documents
 * skipped, `kind: List` expanded, scalars read as YAML 1.1 as kubectl does.
 * Throws a {@link TagObjectError} whose message starts with the document,
 * line and column: `INVALID_YAML`, `YAML_TOO_LARGE`, `UNKNOWN_KIND` (with
 * the kinds accepted), `UNKNOWN_FIELD` (with the value found and the field
 * probably meant) or `INVALID_<KIND>` (the reader's error as `cause`).
 *
 * @example
 * ```ts
 * import { resolveImagePolicy } from "@kubeimg/policy/tags";
 * import { loadTagObjects } from "@kubeimg/policy/tags/yaml";
 *
 * const objects = loadTagObjects(`
 * apiVersion: image.toolkit.fluxcd.io/v1
 * kind: ImageRepository
 * metadata: { name: podinfo }
 * spec: { image: ghcr.io/stefanprodan/podinfo, exclusionList: ["^.*-rc$"] }
 * ---
 * apiVersion: image.toolkit.fluxcd.io/v1
 * kind: ImagePolicy
 * metadata: { name: podinfo }
 * spec:
 *   imageRepositoryRef: { name: podinfo }
 *   policy: { semver: { range: 5.x } }
 * `);
 * const policy = objects.find((o) => o.kind === "ImagePolicy")?.object;
 * const repository = objects.find((o) => o.kind === "ImageRepository")?.object;
 * if (policy === undefined || repository === undefined) throw new Error("missing");
 * const resolution = await resolveImagePolicy({
 *   spec: policy.spec,
 *   image: repository.spec.image,
 *   exclusionList: repository.spec.exclusionList,
 *   tagLister: { listTags: async () => ["5.1.0", "5.2.0-rc", "5.1.2"] },
 * });
 * console.log(resolution.tag); // 5.1.2
 * ```
 */
export function loadTagObjects(text: string, options: LoadTagObjectsOptions = {}): TagObject[] {
  const lineCounter = new LineCounter();
  // YAML 1.1, as kubectl reads manifests (sigs.k8s.io/yaml): `yes`/`on` are booleans.
  const parsed = parseAllDocuments(text, { version: "1.1", lineCounter, prettyErrors: false });
  const documents = Array.isArray(parsed) ? parsed : [parsed];
  const read = boundedValues(documents, {
    lineCounter,
    maxExpandedNodes: options.maxExpandedNodes ?? DEFAULT_MAX_EXPANDED_NODES,
  });
  if (!read.ok) {
    const { problem } = read;
    const position = problem.kind === "too-large" ? undefined : problem.position;
    throw new TagObjectError(
      problem.kind === "too-large" ? "YAML_TOO_LARGE" : "INVALID_YAML",
      problem.kind === "syntax"
        ? `${syntaxWhere(problem.document, position)}: invalid YAML: ${problem.message.replace(/ at line \d+, column \d+:?$/, "")}`
        : describeYamlProblem(problem),
      { document: problem.document, position },
    );
  }
  const out: TagObject[] = [];
  read.values.forEach((value, index) => {
    if (value === null || value === undefined) return;
    const list = asRecord(value);
    const items =
      list?.kind === "List" && Array.isArray(list.items) ? (list.items as unknown[]) : [value];
    items.forEach((item, n) => {
      const base = items.length === 1 && item === value ? [] : ["items", String(n)];
      const document = documents[index] as Document.Parsed;
      const at = (path: string) => positionOf(document, base, path, lineCounter);
      const place = placeOf(item, index);
      const kind = tagObjectKind(item);
      if (kind === undefined) {
        if (options.otherKinds === "ignore") {
          options.onSkipped?.(place);
          return;
        }
        const found =
          place.kind === undefined
            ? "an object without a kind"
            : `kind ${JSON.stringify(place.kind)} (apiVersion ${JSON.stringify(place.apiVersion)})`;
        const why =
          place.kind === "Application"
            ? " is not managed by the Argo CD Image Updater (no argocd-image-updater.argoproj.io/ annotation)"
            : " selects no tag";
        const position = at("kind");
        throw new TagObjectError(
          "UNKNOWN_KIND",
          `${syntaxWhere(index, position)}: ${found}${why}; accepted: ${ACCEPTED_KINDS} (otherKinds: "ignore" skips other kinds)`,
          {
            document: index,
            position,
            kind: place.kind,
            path: "kind",
            value: place.kind,
          },
        );
      }
      if (options.select !== undefined && !options.select({ ...place, kind })) {
        options.onSkipped?.(place);
        return;
      }
      const common = { document: index, name: place.name, namespace: place.namespace };
      try {
        out.push({ ...common, ...readObject(kind, item, index, options) } as TagObject);
      } catch (error) {
        throw objectError(error, kind, index, at);
      }
    });
  });
  return out;
}

/** Reads one object with its kind's reader. */
function readObject(
  kind: TagObjectKind,
  item: unknown,
  document: number,
  options: LoadTagObjectsOptions,
): { kind: TagObjectKind; object: unknown } {
  const unknownFields = options.unknownFields ?? "strict";
  if (kind === "ImagePolicy" || kind === "ImageRepository") {
    const flux = {
      unknownFields,
      onWarning: (issue: { path: string; message: string; suggestion?: string }) =>
        options.onWarning?.({
          message: `document ${document}: ${issue.message}`,
          document,
          kind,
          path: issue.path,
          ...(issue.suggestion === undefined ? {} : { suggestion: issue.suggestion }),
        }),
    };
    return {
      kind,
      object:
        kind === "ImagePolicy" ? parseImagePolicy(item, flux) : parseImageRepository(item, flux),
    };
  }
  const dialect = {
    at: `${kind}[${document}]`,
    unknownFields,
    onUnknownField: (path: string, suggestion?: string) =>
      options.onWarning?.({
        message: `document ${document}: ${path}: unknown field${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}`,
        document,
        kind,
        path,
        ...(suggestion === undefined ? {} : { suggestion }),
      }),
  };
  switch (kind) {
    case "ImageUpdater":
      return {
        kind,
        object: readArgoImageUpdater(item, {
          ...dialect,
          ...(options.alias === undefined ? {} : { alias: options.alias }),
        }),
      };
    case "Application":
      return { kind, object: readArgoApplication(item, dialect) };
    case "Warehouse":
      return {
        kind,
        object: readKargoWarehouse(item, {
          ...dialect,
          ...(options.subscription === undefined ? {} : { subscription: options.subscription }),
        }),
      };
  }
}

/** A reader's error as a {@link TagObjectError} naming the document, line and column. */
function objectError(
  error: unknown,
  kind: TagObjectKind,
  document: number,
  at: (path: string) => YamlPosition | undefined,
): unknown {
  if (error instanceof TagPolicyError) {
    const [issue] = error.issues;
    const path = issue?.path;
    const position = at(path ?? "");
    return new TagObjectError(
      error.code === "UNKNOWN_FIELD" ? "UNKNOWN_FIELD" : INVALID[kind],
      `${syntaxWhere(document, position)}: ${error.message}`,
      {
        document,
        position,
        kind,
        path,
        value: issue?.value,
        suggestion: issue?.suggestion,
        cause: error,
      },
    );
  }
  if (error instanceof TagDialectError) {
    const position = at(error.path);
    // The dialect readers word every unknown field so (`Reader.onlyKeys`), with one code for all problems.
    const unknownField = error.message.startsWith(`${error.path}: unknown field`);
    return new TagObjectError(
      unknownField ? "UNKNOWN_FIELD" : INVALID[kind],
      `${syntaxWhere(document, position)}: ${error.message}`,
      {
        document,
        position,
        kind,
        path: error.path,
        value: error.value,
        suggestion: error.suggestion,
        cause: error,
      },
    );
  }
  return error;
}
