import { parseAllDocuments } from "yaml";
import { CliError } from "../errors/cli-error.js";
import type { InputFile } from "./read-file.js";

/**
 * Returns the documents of a YAML (or JSON) file as plain values, empty
 * documents left out. A syntax error is an `INVALID_YAML` {@link CliError}
 * naming the file, line and column.
 *
 * @example
 * ```ts
 * yamlDocuments({ name: "crs.yaml", text: "a: 1\n---\nb: 2\n" }); // [{ a: 1 }, { b: 2 }]
 * ```
 */
export function yamlDocuments(file: InputFile): unknown[] {
  const documents = parseAllDocuments(file.text, { prettyErrors: true, uniqueKeys: true });
  const list = Array.isArray(documents) ? documents : [documents];
  const values: unknown[] = [];
  for (const document of list) {
    const [error] = document.errors;
    if (error !== undefined) {
      const at = error.linePos?.[0];
      const where = at === undefined ? "" : `:${at.line}:${at.col}`;
      const message = (error.message.split("\n")[0] ?? error.code).replace(
        / at line \d+, column \d+:$/,
        "",
      );
      throw new CliError(
        "INVALID_YAML",
        `${file.name}${where}: invalid YAML: ${message}`,
        file.name,
      );
    }
    const value: unknown = document.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}
