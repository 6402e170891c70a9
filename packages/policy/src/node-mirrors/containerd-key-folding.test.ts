/**
 * hosts.toml keys spelled with other cases than containerd's field names,
 * against answers recorded from containerd v2.3.4's `ConfigureHosts` over
 * go-toml v2.3.0 for generated files. go-toml matches a key that misses every
 * field name exactly by `strings.ToLower`, not by Go's case folding: `İ`
 * (U+0130) lowers to `i` and the Kelvin sign to `k`, so `"SKIP_VERİFY"` sets
 * `skip_verify`, while `ſ` (U+017F) lowers to itself, so `"ſerver"` is an
 * unknown key (BurntSushi/toml, which folds, reads it as `server`).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveContainerdHosts } from "./index.js";

interface Recorded {
  readonly host: string;
  readonly toml: string;
  readonly want: { readonly hosts: readonly unknown[] };
}

const recorded: Recorded[] = readFileSync(
  new URL("./testdata/containerd-key-folding.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as Recorded);

function resolve(host: string, toml: string) {
  const result = resolveContainerdHosts(
    host,
    { [`/etc/containerd/certs.d/${host}/hosts.toml`]: toml },
    { certificateFiles: "assume-present" },
  );
  return result.hosts.map((h) => ({
    scheme: h.scheme,
    host: h.host,
    path: h.path,
    capabilities: h.capabilities,
    header: h.header,
    skipVerify: h.skipVerify,
    httpFallback: h.httpFallback,
  }));
}

describe("containerd hosts.toml keys in other cases", () => {
  it("has the recorded cases, with İ, ſ and the Kelvin sign", () => {
    expect(recorded.length).toBeGreaterThanOrEqual(50);
    for (const letter of ["\u0130", "\u017f", "\u212a"]) {
      expect(recorded.some((r) => r.toml.includes(letter))).toBe(true);
    }
  });

  it.each(recorded.map((r, i) => ({ i, ...r })))("case $i: $toml", ({ host, toml, want }) => {
    expect({ hosts: resolve(host, toml) }).toEqual(want);
  });
});
