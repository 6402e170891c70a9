import { platformsReleases } from "@kubeimg/core/platform";
import { containerdReleases, containersImageReleases } from "@kubeimg/policy/node-mirrors";
import { kubeletReleases } from "@kubeimg/policy/pull-credentials";
import { semverReleases } from "@kubeimg/policy/semver";
import { describe, expect, it } from "vitest";
import { readUpstreams, renderUpstreams } from "../../../../scripts/upstreams.js";
import { upstreamNames } from "./upstream.js";

const table = readUpstreams();
const byName = new Map(table.map((u) => [u.name, u]));

/** What each version option of the code accepts, oldest first, and its default. */
const code: Record<string, { accepted: readonly string[]; fallback: string }> = {
  platforms: { accepted: platformsReleases, fallback: "rc.5" },
  semver: { accepted: semverReleases, fallback: "v3.5.0" },
  kubelet: { accepted: kubeletReleases, fallback: "1.37" },
  "containers-image": { accepted: containersImageReleases, fallback: "5.40" },
  containerd: { accepted: containerdReleases, fallback: "2.4" },
};

describe("upstreams.json", () => {
  it.each(Object.keys(code))("%s lists exactly the releases its option accepts", (name) => {
    const u = byName.get(name);
    expect(u?.option).toBe(name);
    expect(u?.releases.map((r) => r.release)).toEqual(code[name]?.accepted);
    expect(u?.releases.filter((r) => r.default === true).map((r) => r.release)).toEqual([
      code[name]?.fallback,
    ]);
  });

  it("marks one default per upstream and lists the pinned ones with their single release", () => {
    for (const u of table) {
      expect(
        u.releases.filter((r) => r.default === true),
        u.name,
      ).toHaveLength(1);
      if (u.option === null) expect(u.releases, u.name).toHaveLength(1);
      for (const r of u.releases) {
        if (r.date !== null) expect(r.date, u.name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (r.commit !== null) expect(r.commit, u.name).toMatch(/^[0-9a-f]{7,40}$/);
      }
    }
  });

  it("names every upstream the CLI's --upstream knows", () => {
    expect([...upstreamNames].sort()).toEqual(table.map((u) => u.name).sort());
  });

  it("renders every release with the default marked", () => {
    const text = renderUpstreams(table);
    expect(text).toContain("* rc.5");
    expect(text).toContain("  rc.4");
    expect(text).toContain("* 2.4");
    expect(text).toContain("  2.3");
  });
});
