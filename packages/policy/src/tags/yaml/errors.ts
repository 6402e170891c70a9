import { KubeimgError } from "@kubeimg/core";

/**
 * The codes a {@link TagObjectError} carries.
 *
 * @inline
 */
export type TagObjectErrorCode =
  /** A YAML syntax error, or an alias with no anchor before it. */
  | "INVALID_YAML"
  /** A document whose aliases expand past `maxExpandedNodes`. */
  | "YAML_TOO_LARGE"
  /** A document of a kind that selects no tag (`otherKinds: "error"`, the default). */
  | "UNKNOWN_KIND"
  /** A field the object's CRD does not define (under the default strict validation). */
  | "UNKNOWN_FIELD"
  | "INVALID_IMAGE_POLICY"
  | "INVALID_IMAGE_REPOSITORY"
  | "INVALID_IMAGE_UPDATER"
  | "INVALID_APPLICATION"
  | "INVALID_WAREHOUSE";

/**
 * Thrown by `loadTagObjects` for text it cannot read: the message starts
 * with where (`document 1, line 12, column 7`), then what. The object
 * readers' own error (`TagPolicyError`, `TagDialectError`) is the `cause`
 * of an invalid object, with every issue it found.
 *
 * @example
 * ```ts
 * import { loadTagObjects, TagObjectError } from "@kubeimg/policy/tags/yaml";
 *
 * try {
 *   loadTagObjects("kind: Deployment\napiVersion: apps/v1\n");
 * } catch (e) {
 *   if (e instanceof TagObjectError) console.log(e.code, e.document, e.kind); // UNKNOWN_KIND 0 Deployment
 * }
 * ```
 */
export class TagObjectError extends KubeimgError {
  override readonly name = "TagObjectError";
  readonly code: TagObjectErrorCode;
  /** 0-based index of the YAML document. */
  readonly document: number;
  /** 1-based line of the problem (the offending field when it is found in the text). */
  readonly line: number | undefined;
  /** 1-based column, with `line`. */
  readonly column: number | undefined;
  /** The document's `kind` as found (anything, for `UNKNOWN_KIND`). */
  readonly kind: unknown;
  /** The field path, as the object's reader names it. */
  readonly path: string | undefined;
  /** The value found at `path`. */
  readonly value: unknown;
  /** For an unknown field: the known field whose name is closest, when one is close. */
  readonly suggestion: string | undefined;

  constructor(
    code: TagObjectErrorCode,
    message: string,
    details: {
      readonly document: number;
      readonly position?: { readonly line: number; readonly col: number } | undefined;
      readonly kind?: unknown;
      readonly path?: string | undefined;
      readonly value?: unknown;
      readonly suggestion?: string | undefined;
      readonly cause?: unknown;
    },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.document = details.document;
    this.line = details.position?.line;
    this.column = details.position?.col;
    this.kind = details.kind;
    this.path = details.path;
    this.value = details.value;
    this.suggestion = details.suggestion;
  }
}
