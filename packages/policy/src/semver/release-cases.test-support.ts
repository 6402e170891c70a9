/**
 * Generated constraint and version inputs where the Masterminds releases can
 * part: malformed constraints (their error text), misses (the `Validate`
 * reasons), and inputs near v3.5.0's limits (256-byte versions, 512-byte
 * constraints, 32 `||` groups). Reproducible from the `random` passed in.
 */

export type ReleaseCase =
  | { readonly constraint: string; readonly versions: readonly string[] }
  | { readonly version: string };

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

const ops = ["", "=", "!=", ">", "<", ">=", "=>", "<=", "=<", "~", "~>", "^", ">>", "=="];
const parts = ["0", "1", "2", "10", "x", "X", "*", "01", "3"];
const pres = ["", "", "", "-rc.1", "-alpha", "-0", "-beta.2", "-01", "-é"];
const junk = ["latest", "!", "foo", "1.2.3.4", "v", " ", ",", "-", "1 -", "é", "||"];

function version(random: () => number, wildcards: boolean): string {
  const n = 1 + Math.floor(random() * 3);
  const nums = Array.from({ length: n }, () =>
    wildcards ? pick(random, parts) : pick(random, ["0", "1", "2", "3", "10", "01"]),
  );
  const v = (random() < 0.15 ? "v" : "") + nums.join(".") + pick(random, pres);
  return random() < 0.05 ? `${v}+build.${Math.floor(random() * 9)}` : v;
}

function longText(random: () => number, around: number): string {
  const len = around - 3 + Math.floor(random() * 7);
  const base = `1.2.3-${"a".repeat(Math.max(0, len - 6))}`;
  return random() < 0.3 ? base.replace(/a/, "é") : base;
}

function constraint(random: () => number): string {
  const r = random();
  if (r < 0.06) {
    // Near the group limit.
    const n = 30 + Math.floor(random() * 5);
    return Array.from(
      { length: n },
      () => `${pick(random, ops.slice(0, 12))}${version(random, true)}`,
    ).join(" || ");
  }
  if (r < 0.12) {
    const v = longText(random, pick(random, [250, 256, 260, 505, 512, 520]));
    return `${pick(random, [">=", "~", "^", ""])}${v}`;
  }
  if (r < 0.17) return `${version(random, true)} - ${version(random, true)}`;
  const groups = 1 + Math.floor(random() * 3);
  return Array.from({ length: groups }, () => {
    const n = 1 + Math.floor(random() * 2);
    return Array.from({ length: n }, () =>
      random() < 0.1
        ? pick(random, junk)
        : `${pick(random, ops)}${random() < 0.2 ? " " : ""}${version(random, true)}`,
    ).join(pick(random, [" ", ", ", ","]));
  }).join(pick(random, [" || ", "||"]));
}

/** One generated case; call repeatedly with the same `random` for a reproducible list. */
export function releaseCase(random: () => number): ReleaseCase {
  if (random() < 0.2) {
    const r = random();
    const v =
      r < 0.5 ? longText(random, pick(random, [250, 255, 256, 257, 300])) : version(random, false);
    return { version: v };
  }
  const versions = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
    random() < 0.05 ? longText(random, 257) : version(random, false),
  );
  return { constraint: constraint(random), versions };
}
