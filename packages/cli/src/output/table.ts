import type { Colors, Style } from "./color.js";
import { sanitizeText } from "./sanitize.js";

/** A table cell: its text, and optionally a style applied after padding is computed. */
export type Cell = string | { readonly text: string; readonly style: Style };

/**
 * A cell's text through the one sanitizer: escape sequences and control
 * characters from a file or a registry never reach the terminal. Styles are
 * applied after, so the CLI's own bold and colours stay intact.
 */
function cellText(cell: Cell): string {
  return sanitizeText(typeof cell === "string" ? cell : cell.text);
}

/**
 * Returns `rows` as a plain-text table with a bold header, columns separated
 * by two spaces and padded to the widest cell, one line per row, ending in a
 * newline. Trailing spaces are trimmed.
 */
export function renderTable(
  headers: readonly string[],
  rows: readonly (readonly Cell[])[],
  colors: Colors,
): string {
  const widths = headers.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => cellText(r[i] ?? "").length)),
  );
  const line = (cells: readonly Cell[], headerStyle?: Style): string => {
    const parts = widths.map((w, i) => {
      const cell = cells[i] ?? "";
      const text = cellText(cell);
      const padded = i === widths.length - 1 ? text : text.padEnd(w);
      if (headerStyle) return headerStyle(padded);
      return typeof cell === "string" ? padded : cell.style(text) + padded.slice(text.length);
    });
    return parts.join("  ").trimEnd();
  };
  return `${[line(headers, colors.bold), ...rows.map((r) => line(r))].join("\n")}\n`;
}

/**
 * Returns `pairs` as aligned `key: value` lines, the keys dimmed, for one
 * object that is too wide for a table row.
 */
export function renderFields(pairs: readonly (readonly [string, Cell])[], colors: Colors): string {
  const width = Math.max(0, ...pairs.map(([k]) => k.length + 1));
  return pairs
    .map(([key, cell]) => {
      const text = cellText(cell);
      const value = typeof cell === "string" ? text : cell.style(text);
      return `${colors.dim(`${key}:`.padEnd(width))}  ${value}`.trimEnd();
    })
    .join("\n")
    .concat("\n");
}
