import { describe, expect, it } from "vitest";
import { selectKargoTag } from "../kargo/select.js";
import { compareTagSelections } from "./compare.js";
import { guardSelection, tagOrders } from "./guards.js";
import { translateFluxToArgo, translateFluxToKargo, translateKargoToFlux } from "./translate.js";

const tags = [{ name: "1.2" }, { name: "1.1.0" }, { name: "1.3.0-rc.1" }];

describe("compareTagSelections", () => {
  it("puts three different picks side by side and names what separates them", () => {
    const c = compareTagSelections({
      tags,
      flux: { policy: { semver: { range: ">=1.0.0" } } },
      argocd: { imageName: "app" },
      kargo: { repoURL: "ghcr.io/acme/app", strictSemvers: false },
    });
    expect(c.picks.map((p) => p.tag)).toEqual(["1.1.0", "1.2", "1.3.0-rc.1"]);
    expect(c.differences).toHaveLength(3);
    const fluxArgo = c.differences.find((d) => d.a === "flux" && d.b === "argocd-image-updater");
    expect(fluxArgo?.aOnB).toMatch(/^not-a-version/);
    const argoKargo = c.differences.find((d) => d.a === "argocd-image-updater" && d.b === "kargo");
    expect(argoKargo?.aOnB).toMatch(/^out-of-range/);
  });

  it("reports no difference when the picks agree", () => {
    const c = compareTagSelections({
      tags: [{ name: "1.0.0" }, { name: "2.0.0" }],
      flux: { policy: { semver: { range: "*" } } },
      kargo: { repoURL: "ghcr.io/acme/app" },
    });
    expect(c.differences).toEqual([]);
  });
});

describe("guardSelection", () => {
  const sub = { repoURL: "ghcr.io/acme/app", constraint: "<2.0.0" };
  const select = (list: Parameters<typeof selectKargoTag>[1]) => selectKargoTag(sub, list);

  it("keeps the current tag when the pick sorts below it by the strategy's order", () => {
    const list = [{ name: "v1.9.0" }, { name: "v2.0.0" }];
    const g = guardSelection(select, list, {
      current: "v2.0.0",
      noDowngrade: true,
      order: tagOrders.semver,
    });
    expect(g.selection.tag).toBe("v1.9.0");
    expect(g.tag).toBe("v2.0.0");
    // Asked to choose itself, the dialect drops the out-of-range current tag: the pick stands.
    expect(guardSelection(select, list, { current: "v2.0.0", noDowngrade: true }).tag).toBe(
      "v1.9.0",
    );
  });

  it("lets the dialect decide between the current tag and the pick by default", () => {
    const only12 = (l: Parameters<typeof selectKargoTag>[1]) =>
      selectKargoTag({ repoURL: "ghcr.io/acme/app", allowTagsRegexes: ["^v1[.][28]"] }, l);
    const g = guardSelection(only12, [{ name: "v1.2.0" }], {
      current: "v1.8.0",
      noDowngrade: true,
    });
    expect(g.tag).toBe("v1.2.0");
    const h = guardSelection(only12, [{ name: "v1.2.0" }, { name: "v1.8.0" }, { name: "v1.9.0" }], {
      current: "v1.8.0",
      noDowngrade: true,
    });
    expect(h.tag).toBe("v1.8.0");
  });

  it("keeps a current tag missing from a partial listing, and only then", () => {
    const list = [{ name: "v1.0.0" }];
    expect(
      guardSelection(select, list, { current: "v1.5.0", noDowngrade: true, partialListing: true })
        .tag,
    ).toBe("v1.5.0");
    expect(guardSelection(select, list, { current: "v1.5.0", noDowngrade: true }).tag).toBe(
      "v1.0.0",
    );
  });

  it("leaves tags younger than the minimum age out, and pins the digest", () => {
    const d = `sha256:${"a".repeat(64)}`;
    const g = guardSelection(
      select,
      [
        { name: "v1.0.0", created: "2026-01-01T00:00:00Z", digest: d },
        { name: "v1.1.0", created: "2026-01-09T12:00:00Z" },
      ],
      { minAgeMs: 86_400_000, now: new Date("2026-01-10T00:00:00Z"), pinDigest: true },
    );
    expect(g.tag).toBe("v1.0.0");
    expect(g.pinned).toBe(`v1.0.0@${d}`);
  });

  it("refuses a minimum age without a clock reading", () => {
    expect(() => guardSelection(select, [], { minAgeMs: 1 })).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", path: "guards.now" }),
    );
  });
});

describe("translate", () => {
  it("says what a Flux semver policy loses in Kargo and Argo CD", () => {
    const k = translateFluxToKargo({ policy: { semver: { range: "^1.0" } } }, "ghcr.io/acme/app");
    expect(k.config).toMatchObject({
      imageSelectionStrategy: "SemVer",
      constraint: "^1.0",
      strictSemvers: true,
    });
    expect(k.exact).toBe(false);
    const a = translateFluxToArgo(
      { policy: { semver: { range: ">=1.0, <2.0" } } },
      "ghcr.io/acme/app",
    );
    expect(a.config.imageName).toBe("ghcr.io/acme/app:>=1.0, <2.0");
    expect(a.lost.length).toBeGreaterThan(0);
  });

  it("carries an ascending alphabetical policy exactly", () => {
    const k = translateFluxToKargo({ policy: { alphabetical: {} } }, "ghcr.io/acme/app");
    expect(k.exact).toBe(true);
    const f = translateKargoToFlux({ repoURL: "x/y", imageSelectionStrategy: "NewestBuild" });
    expect(f.exact).toBe(false);
    expect(f.lost.join(" ")).toContain("build times");
  });

  it("does not call an extract of $0 exact: Flux ranks the pattern's match, not the tag", () => {
    // With no pattern, $0 is "" for every tag: Flux sees only ties.
    const flux = { policy: { alphabetical: {} }, filterTags: { extract: "$0" } };
    const k = translateFluxToKargo(flux, "ghcr.io/acme/app");
    expect(k.exact).toBe(false);
    expect(k.lost.join(" ")).toContain("extract");
    const c = compareTagSelections({
      tags: [{ name: "latest" }, { name: "0" }],
      flux,
      kargo: k.config,
    });
    expect(c.picks.map((p) => p.tag)).toEqual(["0", "latest"]);
  });

  it("keeps the Argo CD translation's pick equal to Flux's on strict versions", () => {
    const list = [{ name: "1.2" }, { name: "1.1.0" }, { name: "1.5.0" }, { name: "2.0.0" }];
    const flux = { policy: { semver: { range: ">=1.0.0 <2.0.0" } } };
    const argo = translateFluxToArgo(flux, "app").config;
    const c = compareTagSelections({ tags: list, flux, argocd: argo });
    expect(c.picks.map((p) => p.tag)).toEqual(["1.5.0", "1.5.0"]);
  });
});
