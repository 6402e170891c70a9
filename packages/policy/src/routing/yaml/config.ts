/**
 * kuik's operator configuration read from its YAML file: one document, an
 * empty file meaning the defaults, with a bound on what aliases expand to.
 */
import {
  describeYamlProblem,
  readYamlDocuments,
  syntaxWhere,
} from "../../objects/yaml-documents.js";
import { type KuikConfig, type KuikConfigOptions, parseKuikConfig } from "../config-schema.js";
import { RoutingError } from "../errors.js";

/** Options of {@link loadKuikConfig}. */
export interface LoadKuikConfigOptions extends KuikConfigOptions {
  /** Most YAML nodes once aliases are expanded (default 1,000,000); more is `YAML_TOO_LARGE`. */
  readonly maxExpandedNodes?: number;
}

/**
 * Returns the configuration read from YAML text; an empty text gives the
 * defaults, as a missing file does for kuik. Throws `INVALID_YAML`,
 * `YAML_TOO_LARGE`, `UNKNOWN_FIELD` or `INVALID_CONFIG`.
 *
 * @example
 * ```ts
 * import { loadKuikConfig } from "@kubeimg/policy/routing/yaml";
 *
 * loadKuikConfig("routing:\n  activeCheck:\n    timeout: 2s\n").routing.activeCheck.timeout // "2s"
 * loadKuikConfig("").routing.activeCheck.timeout // "1s", the default
 * ```
 */
export function loadKuikConfig(text: string, options: LoadKuikConfigOptions = {}): KuikConfig {
  const read = readYamlDocuments(text, {
    ...(options.maxExpandedNodes === undefined
      ? {}
      : { maxExpandedNodes: options.maxExpandedNodes }),
  });
  if (!read.ok) {
    const { problem } = read;
    throw new RoutingError(
      problem.kind === "too-large" ? "YAML_TOO_LARGE" : "INVALID_YAML",
      `config: ${problem.kind === "syntax" ? `${syntaxWhere(problem.document, problem.position)}: ${problem.message}` : describeYamlProblem(problem)}`,
      {
        input: text,
        document: problem.document,
        ...(problem.kind === "syntax" && problem.position !== undefined
          ? { value: problem.position }
          : {}),
      },
    );
  }
  if (read.values.length > 1) {
    throw new RoutingError(
      "INVALID_YAML",
      `config: expected one YAML document, found ${read.values.length}`,
      { input: text },
    );
  }
  return parseKuikConfig(read.values[0], options);
}
