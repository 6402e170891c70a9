import { strings as goStrings } from "@kubeimg/core/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findRegistry, type RegistryEntry, refMatchingPrefix } from "./registries-conf.js";

/** containers/image's FindRegistry: a linear scan, longest prefix string, first on a tie. */
function linear(registries: readonly RegistryEntry[], name: string): RegistryEntry | null {
  let found: RegistryEntry | null = null;
  let length = 0;
  for (const reg of registries) {
    if (refMatchingPrefix(name, reg.prefix) !== -1 && reg.prefix.length > length) {
      found = reg;
      length = reg.prefix.length;
    }
  }
  return found;
}

const part = fc.constantFrom("a", "b", "ab", "example", "com", "io", "x");
const sep = fc.constantFrom(".", ".", "/", ":", "@", ":5000/", "-");
const text = fc.array(fc.tuple(part, sep), { minLength: 1, maxLength: 5 }).map((xs) =>
  xs
    .map(([p, s]) => p + s)
    .join("")
    .slice(0, -1),
);
const prefix = fc.oneof(
  text,
  text.map((t) => `*.${t}`),
  fc.constantFrom("*", "*.", "a.*.b"),
);

describe("findRegistry's prefix index", () => {
  it("agrees with the linear scan containers/image runs", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(prefix, { maxLength: 12 }),
        fc.array(text, { minLength: 1, maxLength: 10 }),
        (prefixes, names) => {
          const registries: RegistryEntry[] = [...prefixes].sort(goStrings.Compare).map((p) => ({
            prefix: p,
            location: "l.example",
            insecure: false,
            blocked: false,
            mirrorByDigestOnly: false,
            mirrors: [],
          }));
          for (const name of [...names, ...prefixes]) {
            expect(findRegistry({ registries }, name)).toBe(linear(registries, name));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
