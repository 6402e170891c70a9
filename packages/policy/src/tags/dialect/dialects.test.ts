import { describe, expect, it } from "vitest";
import { selectArgoTag } from "../argocd/select.js";
import { selectKargoTag } from "../kargo/select.js";
import { TagDialectError } from "./errors.js";
import { compareInstants, parseInstant } from "./tag-list.js";

const list = (key: string) => `argocd-image-updater.argoproj.io/${key}`;

describe("Argo CD Image Updater dialect", () => {
  it("explains that an allow-tags without the regexp: prefix allows nothing", () => {
    const s = selectArgoTag(
      { annotations: { [list("image-list")]: "web=nginx", [list("web.allow-tags")]: "^v1" } },
      [{ name: "v1.0.0" }, { name: "v1.1.0" }],
      { explain: true },
    );
    expect(s.outcome?.code).toBe("NO_CANDIDATES");
    expect(s.notes.some((n) => n.includes("no `regexp:` prefix"))).toBe(true);
    expect(s.tags.map((t) => t.verdict)).toEqual(["not-allowed", "not-allowed"]);
  });

  it("notes the constraint cut at its comma, and picks under what is left", () => {
    const s = selectArgoTag({ annotations: { [list("image-list")]: "web=nginx:>=1.0, <2.0" } }, [
      { name: "1.5.0" },
      { name: "2.1.0" },
    ]);
    expect(s.tag).toBe("2.1.0");
    expect(s.notes.some((n) => n.includes('"<2.0" became an image of its own'))).toBe(true);
  });

  it("breaks version ties on the tag string and ignores list order", () => {
    const tags = [{ name: "v1.0.0" }, { name: "1.0.0" }, { name: "1.0" }];
    expect(selectArgoTag({ imageName: "app" }, tags).tag).toBe("v1.0.0");
    expect(selectArgoTag({ imageName: "app" }, [...tags].reverse()).tag).toBe("v1.0.0");
  });

  it("compares build times to the nanosecond", () => {
    const s = selectArgoTag(
      { imageName: "app", settings: { image: { updateStrategy: "latest" } } },
      [
        { name: "b", created: "2024-01-01T00:00:00.000000002Z" },
        { name: "a", created: "2024-01-01T00:00:00.000000003Z" },
      ],
    );
    expect(s.tag).toBe("a");
  });

  it("refuses input of the wrong shape with the field path", () => {
    expect(() =>
      selectArgoTag({ imageName: "app", settings: { image: { allowTag: "x" } } } as never, []),
    ).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", path: "config.settings.image.allowTag" }),
    );
    expect(() =>
      selectArgoTag({ imageName: "app" }, [{ name: "1", created: "yesterday" }]),
    ).toThrow(TagDialectError);
  });
});

describe("Kargo dialect", () => {
  it("admits pre-releases without a constraint and stops at discoveryLimit", () => {
    const s = selectKargoTag(
      { repoURL: "ghcr.io/acme/app", discoveryLimit: 2 },
      [{ name: "v1.0.0" }, { name: "v1.1.0-rc.1" }, { name: "v0.9.0" }],
      { explain: true },
    );
    expect(s.discovered).toEqual(["v1.1.0-rc.1", "v1.0.0"]);
    expect(s.tags.find((t) => t.tag === "v0.9.0")?.verdict).toBe("beyond-limit");
  });

  it("rejects a single-platform image when a platform is set", () => {
    const s = selectKargoTag(
      { repoURL: "ghcr.io/acme/app", platform: "linux/arm64" },
      [
        { name: "v1.0.0" },
        { name: "v0.9.0", platforms: ["linux/arm64/v8"] },
        { name: "v0.8.0", platforms: ["linux/arm64"] },
      ],
      { explain: true },
    );
    expect(s.tag).toBe("v0.8.0");
    expect(selectKargoTag({ repoURL: "ghcr.io/acme/app" }, [{ name: "v1.0.0" }]).tags).toEqual([]);
    expect(s.tags.map((t) => t.verdict)).toEqual(["wrong-platform", "wrong-platform", "selected"]);
  });

  it("collects every webhook field error", () => {
    const s = selectKargoTag({ repoURL: "", imageSelectionStrategy: "Digest" }, []);
    expect(s.outcome?.code).toBe("INVALID_CONFIG");
    expect(s.outcome?.message.startsWith("[")).toBe(true);
  });
});

describe("instants", () => {
  it("keep Go's nine fraction digits across offsets", () => {
    const a = parseInstant("2024-01-01T01:00:00.123456789+01:00");
    const b = parseInstant("2024-01-01T00:00:00.123456788Z");
    expect(a && b && compareInstants(a, b)).toBeGreaterThan(0);
  });
});
