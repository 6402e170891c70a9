import { errorGuard, KubeimgError } from "@kubeimg/core";

/** The codes a {@link TagDialectError} carries. */
export type TagDialectErrorCode =
  /** A tag list entry or a configuration object is not of the documented shape. */
  "INVALID_INPUT";

/**
 * Thrown when the input itself is malformed (a tag list entry without a
 * name, a `created` that is not RFC 3339, an unknown configuration field):
 * what the Go updaters would never see because their API server or registry
 * client would have refused it. What the updaters themselves decide (an
 * invalid constraint, no candidates, ...) is never thrown: it is the
 * selection's `outcome`.
 */
export class TagDialectError extends KubeimgError {
  override readonly name = "TagDialectError";
  readonly code: TagDialectErrorCode;
  /** The field path, such as `tags[3].created` or `config.discoveryLimit`. */
  readonly path: string;
  /** The value found there. */
  readonly value: unknown;
  /** For an unknown field: the known field whose name is closest, when one is close. */
  readonly suggestion: string | undefined;

  constructor(path: string, value: unknown, problem: string, suggestion?: string) {
    super(`${path}: ${problem} (got ${describe(value)})`);
    this.code = "INVALID_INPUT";
    this.path = path;
    this.value = value;
    this.suggestion = suggestion;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return typeof value;
  }
}

/** True when `value` is a {@link TagDialectError}, from whichever copy of the package threw it. */
export const isTagDialectError = errorGuard<TagDialectError>("TagDialectError");
