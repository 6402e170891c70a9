/**
 * A strict TOML 1.0 reader for the two runtime config formats (see
 * `toml-types.ts` for why it is written here): the types, token level
 * (`toml-scanner.ts`), document level (`toml-parser.ts`) and the two
 * libraries' table rules (`toml-tables.ts`) meet in {@link parseToml}.
 */
import { TomlParser } from "./parser.js";
import { BurntSushiBuilder, StrictBuilder } from "./tables.js";
import type { TomlDocument, TomlParseOptions } from "./types.js";

export * from "./types.js";

/**
 * Parses TOML 1.0 text. Throws {@link TomlSyntaxError} (with line and
 * column) on anything TOML 1.0 rejects.
 */
export function parseToml(text: string, options: TomlParseOptions = {}): TomlDocument {
  const flavor = options.flavor ?? "go-toml";
  let src = text;
  // BurntSushi skips a UTF-8 byte-order mark; go-toml does not.
  if (flavor === "burntsushi" && src.startsWith("\uFEFF")) src = src.slice(1);
  const builder = flavor === "burntsushi" ? new BurntSushiBuilder() : new StrictBuilder();
  const skipsTable = flavor === "go-toml" ? options.skipsTable : undefined;
  return new TomlParser(src, builder, flavor, skipsTable, options.copyStrings ?? false).parse();
}
