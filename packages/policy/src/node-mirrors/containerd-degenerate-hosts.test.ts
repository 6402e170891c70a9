/**
 * hosts.toml files whose `[host."…"]` names are degenerate (empty, `/`, `:`,
 * a bare scheme, whitespace, a path only, …), against answers recorded from
 * containerd v2.3.4's `ConfigureHosts` over its hosts.toml loader (go-toml
 * v2.3.0) for generated files. containerd lists host tables by comparing
 * each name with the previous one, starting from `""`, so a `[host.""]`
 * table that comes first is never listed, while one after another host is
 * listed as an entry with no scheme, host or path.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveContainerdHosts } from "./index.js";

interface Recorded {
  readonly host: string;
  readonly toml: string;
  readonly want: {
    readonly hosts: readonly {
      readonly scheme: string;
      readonly host: string;
      readonly path: string;
      readonly capabilities: readonly string[];
      readonly header: Readonly<Record<string, readonly string[]>>;
      readonly skipVerify: boolean;
      readonly httpFallback: boolean;
    }[];
  };
}

const recorded: Recorded[] = readFileSync(
  new URL("./testdata/containerd-degenerate-hosts.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as Recorded);

function resolve(host: string, toml: string) {
  const dir = host.replace(/:(\d+)$/, "_$1_");
  const result = resolveContainerdHosts(
    host,
    { [`/etc/containerd/certs.d/${dir}/hosts.toml`]: toml },
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

describe("containerd hosts.toml with degenerate host names", () => {
  it("has the recorded cases: an empty name first, an empty name later, other degenerate names", () => {
    const empty = /\[host\.(""|'')\]/;
    expect(recorded.filter((r) => empty.test(r.toml)).length).toBeGreaterThanOrEqual(20);
    expect(recorded.filter((r) => !empty.test(r.toml)).length).toBeGreaterThanOrEqual(20);
  });

  it.each(recorded)("$host: $toml", ({ host, toml, want }) => {
    expect(resolve(host, toml)).toEqual(want.hosts);
  });

  it('skips a [host.""] that comes first and lists one that follows another host', () => {
    const upstream = {
      scheme: "https",
      host: "reg.io",
      path: "/v2",
      capabilities: ["pull", "resolve", "push", "referrers"],
      header: {},
      skipVerify: false,
      httpFallback: false,
    };
    const mirror = { ...upstream, host: "a.io" };
    expect(resolve("reg.io", '[host.""]\n[host."a.io"]\n')).toEqual([mirror, upstream]);
    expect(resolve("reg.io", '[host."a.io"]\n[host.""]\n')).toEqual([
      mirror,
      { ...upstream, scheme: "", host: "", path: "" },
      upstream,
    ]);
  });
});
