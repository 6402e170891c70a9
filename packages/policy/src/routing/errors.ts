import { errorGuard, KubeimgError } from "@kubeimg/core";

/**
 * The stable codes a {@link RoutingError} carries.
 *
 * @inline
 */
export type RoutingErrorCode =
  /** A YAML document could not be parsed. */
  | "INVALID_YAML"
  /** A kuik object failed its schema (field path and value on the error). */
  | "INVALID_RESOURCE"
  /**
   * An object holds a field its schema does not know (`path` names it), under
   * the default strict validation; the message suggests the closest known
   * field when one is close.
   */
  | "UNKNOWN_FIELD"
  /**
   * A YAML text expands (through its aliases) beyond the size a reader
   * accepts, or nests too deep: refused before it is built.
   */
  | "YAML_TOO_LARGE"
  /** The operator configuration failed its schema. */
  | "INVALID_CONFIG"
  /** A Kubernetes label selector string did not parse. */
  | "INVALID_LABEL_SELECTOR"
  /** A Go duration string (`1s`, `500ms`) did not parse. */
  | "INVALID_DURATION"
  /** The Pod object handed to the pod-level functions failed its schema. */
  | "INVALID_POD"
  /**
   * kuik parses every alternative built so far each time it applies a
   * (Cluster)ImageSetMirror; one that is not a valid reference fails the
   * whole admission call (the Pod is then admitted unchanged).
   */
  | "INVALID_ALTERNATIVE_REFERENCE"
  /**
   * Mirrors of mirrors multiplied the list past `maxCandidates` (each `.*`
   * mirror CR mirrors every entry before it). kuik has no such limit and would
   * exhaust memory or time out; either way the Pod is admitted unchanged.
   */
  | "TOO_MANY_ALTERNATIVES"
  /** The caller's signal aborted a long-running step (planning a large Pod). */
  | "ABORTED";

/**
 * The error every routing function throws for malformed input.
 *
 * `path` names the offending field (`spec.mirrors[0].priority`), `value` holds
 * what was found there (and `suggestion` the field probably meant, for an
 * unknown one), `input` the text or string that was being read, and
 * `document` the 0-based YAML document index when loading multi-document
 * files.
 *
 * @example
 * ```ts
 * import { RoutingError } from "@kubeimg/policy/routing";
 * import { loadRoutingResources } from "@kubeimg/policy/routing/yaml";
 *
 * try {
 *   loadRoutingResources(`
 * apiVersion: kuik.enix.io/v1alpha1
 * kind: ClusterImageSetMirror
 * metadata: { name: all }
 * spec:
 *   mirrors: [{ registry: harbor.example.com, priority: high }]
 * `);
 * } catch (e) {
 *   if (e instanceof RoutingError) console.error(e.code, e.path, e.value);
 *   // INVALID_RESOURCE spec.mirrors[0].priority high
 * }
 * ```
 */
export class RoutingError extends KubeimgError {
  /** Fixed, so the guard still works when a bundler renames the class. */
  override readonly name = "RoutingError";
  readonly code: RoutingErrorCode;
  /** Dotted field path of the offending value, when there is one. */
  readonly path: string | undefined;
  /** The offending value. */
  readonly value: unknown;
  /** The string being parsed (selector, duration, reference), when there is one. */
  readonly input: string | undefined;
  /** 0-based index of the YAML document, when loading YAML. */
  readonly document: number | undefined;
  /** For `UNKNOWN_FIELD`: the known field whose name is closest, when one is close. */
  readonly suggestion: string | undefined;

  constructor(
    code: RoutingErrorCode,
    message: string,
    details: {
      path?: string;
      value?: unknown;
      input?: string;
      document?: number;
      suggestion?: string | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.path = details.path;
    this.value = details.value;
    this.input = details.input;
    this.document = details.document;
    this.suggestion = details.suggestion;
  }
}

const routingCodes: ReadonlySet<string> = new Set<RoutingErrorCode>([
  "INVALID_YAML",
  "INVALID_RESOURCE",
  "UNKNOWN_FIELD",
  "YAML_TOO_LARGE",
  "INVALID_CONFIG",
  "INVALID_LABEL_SELECTOR",
  "INVALID_DURATION",
  "INVALID_POD",
  "INVALID_ALTERNATIVE_REFERENCE",
  "TOO_MANY_ALTERNATIVES",
  "ABORTED",
]);

/**
 * Returns true when `value` is a {@link RoutingError}, from whichever copy of
 * the package (ESM or CJS) threw it: checks `name` and `code`.

 */
export const isRoutingError = errorGuard<RoutingError>("RoutingError", routingCodes);
