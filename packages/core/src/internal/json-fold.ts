/** `encoding/json`'s folding of member names onto struct field names. */

/**
 * Folds a member name the way `encoding/json` matches names to struct
 * fields: ASCII case-insensitively, with U+017F (ſ) folding to `S` and
 * U+212A (Kelvin sign) to `K`, as Go's simple case folding does. Other
 * non-ASCII characters never fold onto ASCII, so they are kept as they are.
 */
export function FoldName(name: string): string {
  let ascii = true;
  let folds = false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) folds = true;
    else if (c >= 0x80) {
      ascii = false;
      break;
    }
  }
  // ASCII upper-casing is Go's folding on ASCII text: one native call.
  if (ascii) return folds ? name.toUpperCase() : name;
  let out = "";
  let start = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const folded =
      c >= 0x61 && c <= 0x7a
        ? String.fromCharCode(c - 0x20)
        : c === 0x17f
          ? "S"
          : c === 0x212a
            ? "K"
            : undefined;
    if (folded === undefined) continue;
    out += name.slice(start, i) + folded;
    start = i + 1;
  }
  return out + name.slice(start);
}
