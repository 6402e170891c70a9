/**
 * The CLI's YAML files, read through policy's one bounded reader
 * (`@kubeimg/policy/objects`), its problems turned into `CliError`s that name
 * the file, line and column.
 */

import * as objects from "@kubeimg/policy/internal/objects";
import { readYamlDocuments, type YamlPosition } from "@kubeimg/policy/objects";
import { CliError } from "../errors/cli-error.js";
import type { InputFile } from "./read-file.js";

/**
 * The most nodes one document may hold once its YAML aliases are expanded:
 * the same bound as the library's loaders.
 */
export const MAX_EXPANDED_NODES = objects.DEFAULT_MAX_EXPANDED_NODES;

/** How {@link yamlDocuments} reports problems. */
export interface YamlDocumentsOptions {
  /**
   * The file holds secrets: a problem is reported by file, position and the
   * YAML library's error code only, never with a piece of the text (an
   * unquoted `*S3CRET` is otherwise quoted back as an unresolved alias).
   */
  readonly secret?: boolean;
  /** YAML version of untagged scalars (default 1.2; manifests are read as 1.1 by kubectl). */
  readonly version?: "1.1" | "1.2";
}

/**
 * Returns the documents of a YAML (or JSON) file as plain values, empty
 * documents left out. A syntax error or an alias with no anchor is an
 * `INVALID_YAML` {@link CliError} naming the file, line and column; a
 * document that its aliases expand past {@link MAX_EXPANDED_NODES} nodes is
 * `YAML_TOO_LARGE`. With `secret`, no message quotes the text.
 */
export function yamlDocuments(file: InputFile, options: YamlDocumentsOptions = {}): unknown[] {
  const read = readYamlDocuments(file.text, {
    ...(options.version === undefined ? {} : { version: options.version }),
    maxExpandedNodes: MAX_EXPANDED_NODES,
  });
  if (read.ok) return read.values.filter((value) => value !== null && value !== undefined);
  const { problem } = read;
  const where = (p: YamlPosition | undefined) => (p === undefined ? "" : `:${p.line}:${p.col}`);
  switch (problem.kind) {
    case "syntax": {
      const message = options.secret
        ? `invalid YAML (${problem.code})`
        : `invalid YAML: ${problem.message.replace(/ at line \d+, column \d+:?$/, "")}`;
      throw new CliError(
        "INVALID_YAML",
        `${file.name}${where(problem.position)}: ${message}`,
        file.name,
      );
    }
    case "unresolved-alias":
      throw new CliError(
        "INVALID_YAML",
        `${file.name}${where(problem.position)}: invalid YAML: ${problem.recursive === true ? "an alias inside the node its anchor names" : "an alias with no anchor before it"}`,
        file.name,
      );
    case "too-large":
      throw new CliError(
        "YAML_TOO_LARGE",
        `${file.name}: document ${problem.document}: more than ${problem.limit} nodes once its aliases are expanded`,
        file.name,
      );
  }
}
