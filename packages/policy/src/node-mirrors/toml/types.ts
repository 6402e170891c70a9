/**
 * A strict TOML 1.0 reader for the two runtime config formats.
 *
 * Which node configs the runtime accepts is decided by its TOML library
 * (go-toml v2.3.0 for containerd, BurntSushi/toml v1.5.0 for
 * containers/image), and both implement TOML 1.0 to the letter, so this
 * reader does too: every value kind, the table-definition rules (no table
 * defined twice, inline tables closed, dotted keys never reopening a
 * `[table]`), int64 range, calendar-checked dates. It keeps what a generic
 * npm TOML library throws away and containerd needs: the table headers in
 * file order (containerd orders `[host."…"]` entries by them) and the line
 * and column of every key and value, so an error can point at the text.
 */

/** Where a key or value starts: 1-based line and column (in characters). */
export interface TomlPosition {
  readonly line: number;
  readonly column: number;
}

export type TomlDateTimeKind = "offset-datetime" | "local-datetime" | "local-date" | "local-time";

export type TomlValue =
  | { readonly kind: "string"; readonly value: string; readonly at: TomlPosition }
  | { readonly kind: "integer"; readonly value: bigint; readonly at: TomlPosition }
  | { readonly kind: "float"; readonly value: number; readonly at: TomlPosition }
  | { readonly kind: "boolean"; readonly value: boolean; readonly at: TomlPosition }
  | {
      readonly kind: "datetime";
      readonly value: string;
      readonly type: TomlDateTimeKind;
      readonly at: TomlPosition;
    }
  | TomlArray
  | TomlTable;

export interface TomlArray {
  readonly kind: "array";
  readonly items: TomlValue[];
  /** Built by `[[header]]` sections rather than written as `[…]`. */
  readonly ofTables: boolean;
  readonly at: TomlPosition;
}

/** How a table came to exist, which decides how it may be extended. */
export type TableOrigin = "implicit" | "header" | "dotted" | "inline" | "root";

export interface TomlTable {
  readonly kind: "table";
  /** Keys in file order; a `Map`, so user keys never meet a prototype. */
  readonly entries: Map<string, TomlEntry>;
  readonly at: TomlPosition;
  /** @internal */
  origin: TableOrigin;
}

export interface TomlEntry {
  readonly value: TomlValue;
  /** Where the key (its last part) was written. */
  readonly keyAt: TomlPosition;
}

/** A `[table]` or `[[array]]` header, in file order. */
export interface TomlHeader {
  readonly keys: readonly string[];
  readonly array: boolean;
  readonly at: TomlPosition;
}

export interface TomlDocument {
  readonly root: TomlTable;
  readonly headers: readonly TomlHeader[];
}

/** A syntax or table-definition error, with the position of the offending character. */
export class TomlSyntaxError extends Error {
  override readonly name = "TomlSyntaxError";
  readonly line: number;
  readonly column: number;
  constructor(message: string, at: TomlPosition) {
    super(`line ${at.line}, column ${at.column}: ${message}`);
    this.line = at.line;
    this.column = at.column;
  }
}

/**
 * The deepest nesting the reader follows: key parts (of headers, keys and
 * keys inside inline tables) and arrays together, counted from the root.
 * go-toml and BurntSushi set none (Go's stack grows to 1 GB, so any depth a
 * file holds parses); a JavaScript stack does not grow, and the readers
 * recurse per level (unbounded, nested inline tables overflowed a default
 * V8 stack at about 1,400 levels), so kubeimg refuses deeper documents.
 * 128 is 25 times the deepest real node config (`host."…".header.NAME =
 * […]`, five levels) and ten times below that overflow.
 */
export const MAX_TOML_DEPTH = 128;

/** A document nested deeper than {@link MAX_TOML_DEPTH}: a kubeimg bound, not a TOML rule. */
export class TomlDepthError extends Error {
  override readonly name = "TomlDepthError";
  readonly line: number;
  readonly column: number;
  readonly limit: number;
  constructor(limit: number, at: TomlPosition) {
    super(
      `line ${at.line}, column ${at.column}: nested deeper than ${limit} levels (key parts and arrays), the most kubeimg reads`,
    );
    this.line = at.line;
    this.column = at.column;
    this.limit = limit;
  }
}

/** Whose reading of TOML to follow: containerd's go-toml v2.3.0 or containers/image's BurntSushi/toml v1.5.0. */
export type TomlFlavor = "go-toml" | "burntsushi";

export interface TomlParseOptions {
  /** Default `go-toml`. */
  readonly flavor?: TomlFlavor;
  /**
   * go-toml only: whether a table header leads outside the Go struct being
   * decoded into. go-toml then skips the key/value lines up to the next
   * header entirely: they are neither decoded nor checked for duplicates
   * (its definition tracker never sees them), so this reader drops them too.
   */
  readonly skipsTable?: (keys: readonly string[]) => boolean;
  /**
   * Strings in their own storage rather than views into `text`: for a
   * document whose strings outlive it and are matched again and again
   * (registries.conf's prefixes and locations). Default `false`.
   */
  readonly copyStrings?: boolean;
}

/** What Go calls a TOML value's type in messages: `string`, `integer`, `table`… */
export function kindName(value: TomlValue): string {
  if (value.kind === "array" && value.ofTables) return "array of tables";
  if (value.kind === "datetime") return value.type;
  return value.kind;
}
