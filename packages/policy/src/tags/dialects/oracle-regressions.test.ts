/**
 * Disagreements a differential run against the upstream Go code found, one
 * test each, with the answer Go gives.
 */
import { describe, expect, it } from "vitest";
import { selectArgoTag } from "../argocd/select.js";
import { selectKargoTag } from "../kargo/select.js";

const key = (k: string) => `argocd-image-updater.argoproj.io/${k}`;

describe("Argo CD Image Updater, as Go reads it", () => {
  it("lowers the strategy with Go's strings.ToLower: DİGEST is digest", () => {
    // JavaScript lowers İ to i + U+0307; Go's simple case mapping gives i.
    const s = selectArgoTag(
      { imageName: "nginx:1.0", settings: { image: { updateStrategy: "DİGEST" } } },
      [{ name: "1.0", digest: `sha256:${"a".repeat(64)}` }, { name: "2.0" }],
    );
    expect(s.tag).toBe("1.0");
    expect(s.digest).toBe(`sha256:${"a".repeat(64)}`);
  });

  it("lowers the allow-tags function and `any` the same way", () => {
    const tags = [{ name: "1.0.0" }, { name: "2.0.0" }];
    expect(
      selectArgoTag({ imageName: "nginx", settings: { image: { allowTags: "REGEXP:^1" } } }, tags)
        .tag,
    ).toBe("1.0.0");
  });

  it("trims annotations with Go's strings.TrimSpace: U+FEFF stays, U+0085 goes", () => {
    const tags = [{ name: "1.0.0" }, { name: "2.0.0" }];
    // A BOM before the value is no space to Go: "\ufeffregexp:^1" has the function "\ufeffregexp", which allows no tag.
    const bom = selectArgoTag(
      {
        annotations: {
          [key("image-list")]: "web=nginx",
          [key("web.allow-tags")]: "\ufeffregexp:^1",
        },
      },
      tags,
    );
    expect(bom.outcome?.code).toBe("NO_CANDIDATES");
    // NEL (U+0085) is a space to Go, and JavaScript's trim keeps it.
    const nel = selectArgoTag(
      {
        annotations: {
          [key("image-list")]: "web=nginx",
          [key("web.allow-tags")]: "\u0085regexp:^1\u0085",
        },
      },
      tags,
    );
    expect(nel.tag).toBe("1.0.0");
  });

  it("trims platforms with Go's strings.TrimSpace", () => {
    const s = selectArgoTag(
      {
        imageName: "nginx",
        settings: { image: { updateStrategy: "newest-build", platforms: ["\u0085linux/arm64"] } },
      },
      [
        { name: "a", created: "2024-01-02T00:00:00Z", platforms: ["linux/amd64"] },
        { name: "b", created: "2024-01-01T00:00:00Z", platforms: ["linux/arm64"] },
      ],
    );
    expect(s.tag).toBe("b");
  });
});

describe("Kargo, as its repository client parses repoURL", () => {
  const tags = [{ name: "v1.0.0" }];

  it("lower-cases repoURL before go-containerregistry parses it", () => {
    expect(selectKargoTag({ repoURL: "ghcr.io/ORG/app" }, tags).tag).toBe("v1.0.0");
    expect(selectKargoTag({ repoURL: "UPPER/Case" }, tags).tag).toBe("v1.0.0");
    expect(selectKargoTag({ repoURL: "Nginx" }, tags).tag).toBe("v1.0.0");
  });

  it("parses the normalized URL: docker.io/library/x becomes x, too short", () => {
    const s = selectKargoTag({ repoURL: "docker.io/library/x" }, tags);
    expect(s.outcome?.code).toBe("INVALID_REPO_URL");
    expect(selectKargoTag({ repoURL: "docker.io/library/xy" }, tags).tag).toBe("v1.0.0");
  });
});

describe("Argo CD Image Updater, edge readings", () => {
  it("reads the constraint after the first `=` of `<alias>=<image>`, even inside the alias", () => {
    // "a=b=localhost:5000/app" → "b=localhost:5000/app", whose legacy tag is "5000/app".
    const s = selectArgoTag(
      {
        alias: "a=b",
        imageName: "localhost:5000/app",
        settings: { image: { updateStrategy: "digest" } },
      },
      [{ name: "1.0" }],
    );
    expect(s.outcome?.code).toBe("NO_CANDIDATES");
    expect(s.notes[0]).toContain('version constraint "5000/app"');
  });

  it("counts an index built before year 1 as built at Go's zero time (newest-build)", () => {
    const s = selectArgoTag(
      { imageName: "app", settings: { image: { updateStrategy: "newest-build" } } },
      [
        { name: "b", platforms: ["linux/amd64"] },
        { name: "c", created: "0001-01-01T00:30:00+01:00", platforms: ["linux/amd64"] },
        // A single image keeps its own time, before the zero time.
        { name: "d", created: "0001-01-01T00:30:00+01:00" },
      ],
    );
    expect(s.tag).toBe("c");
  });
});

describe("Argo CD Image Updater ignore-tags, over UTF-8 as Go matches", () => {
  it("lets ? take one code point, an astral one included", () => {
    const s = selectArgoTag(
      {
        imageName: "app",
        settings: { image: { updateStrategy: "alphabetical", ignoreTags: ["?"] } },
      },
      [{ name: "a1" }, { name: "😀" }, { name: "é" }],
    );
    // 😀 and é are one rune each, so "?" ignores both; a1 is two.
    expect(s.tag).toBe("a1");
  });

  it("compares class ranges by code point", () => {
    const s = selectArgoTag(
      {
        imageName: "app",
        settings: { image: { updateStrategy: "alphabetical", ignoreTags: ["[à-ü]*"] } },
      },
      [{ name: "a" }, { name: "éclair" }],
    );
    expect(s.tag).toBe("a");
  });
});
