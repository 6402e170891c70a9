import { errorGuard, KubeimgError } from "@kubeimg/core";
import type { TomlDepthError } from "./toml/types.js";

/** The stable codes a {@link NodeMirrorsError} carries.
 *
 * @inline
 */
export type NodeMirrorsErrorCode =
  /** containerd: checking a candidate host directory failed other than "not found". */
  | "HOST_DIR_ERROR"
  /** containerd: reading hosts.toml failed other than "not found", or a certificate path is unreadable. */
  | "LOAD_ERROR"
  /** registries.conf was named explicitly and does not exist. */
  | "NO_CONFIG_FILE"
  /** The TOML library rejected a file (syntax, or a value of the wrong type). */
  | "TOML_ERROR"
  /** A registries.conf loading check failed (containers/image's `InvalidRegistries`). */
  | "INVALID_REGISTRIES"
  /** A registry-level `pull-from-mirror`. */
  | "INVALID_CONFIG"
  /** `short-name-mode` is not `enforcing`, `permissive` or `disabled`. */
  | "INVALID_SHORT_NAME_MODE"
  /** One or more `[aliases]` entries are invalid. */
  | "INVALID_ALIAS"
  /** An image reference does not parse. */
  | "INVALID_REFERENCE"
  /** A prefix did not match while rewriting, or the rewritten reference does not parse. */
  | "REWRITE_ERROR"
  /** The short-name mode given by the caller is not one of the three. */
  | "UNSUPPORTED_MODE"
  /** The name given for short-name resolution does not parse. */
  | "INVALID_INPUT"
  /** A short name with no alias and no unqualified-search registries. */
  | "NO_SEARCH_REGISTRIES"
  /** `enforcing` mode with several candidates and no terminal to ask. */
  | "ENFORCING_NO_TTY"
  /** A node file could not be read (Node-only reader). */
  | "READ_ERROR"
  /** An argument to a kubeimg function (not a node file) is malformed. */
  | "INVALID_ARGUMENT"
  /**
   * Input beyond one of kubeimg's own bounds (nesting depth, files or bytes
   * read in total), which the runtime does not have; the message names the
   * bound and, where there is one, the option that raises it.
   */
  | "LIMIT_EXCEEDED";

/** Where in which file an error or warning points.
 *
 * @inline
 */
export interface NodeFileLocation {
  /** The node path of the file. */
  readonly file?: string;
  /** 1-based line, when the parser gives one. */
  readonly line?: number;
  /** 1-based column, when the parser gives one. */
  readonly column?: number;
  /** Dotted key of the offending value (`registry[2].mirror[0].location`). */
  readonly key?: string;
}

/**
 * The error every node-mirrors function throws for a config the runtime
 * refuses or an input it cannot resolve. `code` is stable; `file`, `line`,
 * `column` and `key` say where, when known.
 *
 * @example
 * ```ts
 * import { loadRegistriesConf, NodeMirrorsError } from "@kubeimg/policy/node-mirrors";
 *
 * try {
 *   loadRegistriesConf({ conf: '[[registry]]\nlocation = "quay.io"\nmirror = 3\n' });
 * } catch (e) {
 *   if (e instanceof NodeMirrorsError) console.error(e.code, e.file, e.line, e.key);
 *   // TOML_ERROR /etc/containers/registries.conf 3 registry[0].mirror
 * }
 * ```
 */
export class NodeMirrorsError extends KubeimgError {
  /** Fixed, so the guard still works when a bundler renames the class. */
  override readonly name = "NodeMirrorsError";
  readonly code: NodeMirrorsErrorCode;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly key: string | undefined;

  constructor(
    code: NodeMirrorsErrorCode,
    message: string,
    where: NodeFileLocation = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
    this.key = where.key;
  }
}

/** True for a {@link NodeMirrorsError}, whichever copy of the package made it. */
export const isNodeMirrorsError = errorGuard<NodeMirrorsError>("NodeMirrorsError");

/**
 * Something in a node file that the runtime accepts without complaint but
 * ignores (or logs and works around): kubeimg reports it so it is not
 * silently lost. `message` says what the runtime does instead.
 */
export interface NodeMirrorsWarning extends NodeFileLocation {
  readonly code:
    | "HOSTS_TOML_IGNORED"
    | "UNKNOWN_KEY"
    | "DUPLICATE_PREFIX"
    | "HOST_NOT_LISTED"
    | "DIRECTORY_WITHOUT_HOSTS_TOML"
    | "TRANSFER_SERVICE_IGNORES_HOSTS"
    | "SERVER_HIDES_UPSTREAM"
    | "IGNORED_FILE"
    | "UNREADABLE_PATH";
  readonly message: string;
}

/**
 * The runtime would read a file nested this deep (its TOML library sets no
 * bound), so kubeimg cannot say what the node does with it and refuses.
 */
export function tooDeep(error: TomlDepthError, file: string): NodeMirrorsError {
  return new NodeMirrorsError("LIMIT_EXCEEDED", `${file}: ${error.message}`, {
    file,
    line: error.line,
    column: error.column,
  });
}
