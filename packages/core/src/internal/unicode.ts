/**
 * Go's `unicode` classes that the ported code depends on. JavaScript's `\s`
 * and `trim` disagree with Go (they take U+FEFF, Go does not; Go takes
 * U+0085, `\s` does too but `trim` does not), so the set is written out.
 */

/** Go's `unicode.IsSpace`: the characters `strings.TrimSpace` trims. */
export function IsSpace(code: number): boolean {
  if (code <= 0xff) {
    return (code >= 0x09 && code <= 0x0d) || code === 0x20 || code === 0x85 || code === 0xa0;
  }
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}
