import { time } from "@kubeimg/core/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { selectArgoTag } from "../argocd/select.js";
import { TagDialectError } from "../common/errors.js";
import { prepareTagList } from "../common/prepared.js";
import {
  compareInstants,
  isSha256Digest,
  parseInstant,
  scanUtcInstant,
} from "../common/tag-list.js";
import { selectKargoTag } from "../kargo/select.js";

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
    // newest-build reads every entry's time; every strategy reads every entry's shape.
    const newest = { imageName: "app", settings: { image: { updateStrategy: "newest-build" } } };
    expect(() => selectArgoTag(newest, [{ name: "1", created: "yesterday" }])).toThrow(
      expect.objectContaining({ path: "tags[0].created", value: "yesterday" }),
    );
    expect(() =>
      selectArgoTag({ imageName: "app" }, [{ name: "1", created: new Date(0) as never }]),
    ).toThrow(TagDialectError);
    expect(() => selectArgoTag({ imageName: "app" }, [{ name: 1 as never }])).toThrow(
      expect.objectContaining({ path: "tags[0].name" }),
    );
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

describe("isSha256Digest", () => {
  it("answers as the digest's grammar, sha256: and 64 lower-case hex digits", () => {
    const grammar = /^sha256:[0-9a-f]{64}$/;
    const hex = "0123456789abcdef";
    // Near misses: one character of a valid digest replaced, or its length changed.
    const valid = fc
      .array(fc.constantFrom(...hex), { minLength: 64, maxLength: 64 })
      .map((d) => `sha256:${d.join("")}`);
    const nearMiss = fc
      .tuple(
        valid,
        fc.nat(70),
        fc.constantFrom("/", ":", "@", "`", "g", "A", "F", "\u00e9", "0", "", "00"),
      )
      .map(([d, at, c]) => d.slice(0, at) + c + d.slice(at + 1));
    fc.assert(
      fc.property(fc.oneof(valid, nearMiss, fc.string({ maxLength: 80 })), (text) => {
        expect(isSha256Digest(text)).toBe(grammar.test(text));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("scanUtcInstant", () => {
  const full = (text: string) => {
    const ms = time.ParseRFC3339(text);
    if (ms === undefined) return undefined;
    const fraction = /\.(\d+)Z$/.exec(text)?.[1] ?? "";
    return { ms, subMsNanos: Number(fraction.slice(0, 9).padEnd(9, "0")) % 1_000_000 };
  };

  it("agrees with the full RFC 3339 reader wherever it answers, and answers for the common shape", () => {
    // Digit strings of a fixed width, drawn as integers (stringMatching is too slow for 20,000 runs).
    const digits = (n: number) =>
      fc.integer({ min: 0, max: 10 ** n - 1 }).map((v) => String(v).padStart(n, "0"));
    const utc = fc
      .tuple(
        digits(4),
        digits(2),
        digits(2),
        digits(2),
        digits(2),
        digits(2),
        fc.option(fc.integer({ min: 1, max: 12 }).chain(digits)),
      )
      .map(
        ([y, mo, d, h, mi, s, f]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${f === null ? "" : `.${f}`}Z`,
      );
    const noise = fc.oneof(
      utc,
      fc.string(),
      utc.map((t) => t.replace("Z", "+01:00")),
      utc.map((t) => t.slice(1)),
    );
    fc.assert(
      fc.property(noise, (text) => {
        const fast = scanUtcInstant(text);
        if (fast !== undefined) expect(fast).toEqual(full(text));
        if (
          /^[1-9]\d{3}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?Z$/.test(
            text,
          )
        ) {
          expect(fast).toBeDefined();
        }
      }),
      { numRuns: 20_000 },
    );
  });

  it("leaves leap days, offsets and early years to the full reader", () => {
    expect(scanUtcInstant("2024-02-29T00:00:00Z")).toEqual(full("2024-02-29T00:00:00Z"));
    expect(scanUtcInstant("2023-02-29T00:00:00Z")).toBeUndefined();
    expect(scanUtcInstant("0099-01-01T00:00:00Z")).toBeUndefined();
    expect(parseInstant("0099-01-01T00:00:00Z")).toEqual(full("0099-01-01T00:00:00Z"));
    expect(scanUtcInstant("2024-01-01T00:00:00+00:00")).toBeUndefined();
  });
});

describe("Argo CD: a single image's config platform (TagMetadata's WantsPlatform)", () => {
  const newest = (platforms?: readonly string[]) => ({
    imageName: "app",
    settings: {
      image: { updateStrategy: "newest-build" as const, ...(platforms ? { platforms } : {}) },
    },
  });
  const tags = [
    { name: "amd", created: "2024-01-01T00:00:00Z", platform: "linux/amd64" },
    { name: "arm", created: "2024-06-01T00:00:00Z", platform: "linux/arm64" },
  ];

  it.each([
    { wanted: undefined, want: "amd" }, // the default platform, linux/amd64
    { wanted: ["linux/arm64"], want: "arm" },
    { wanted: ["linux/arm64", "linux/amd64"], want: "arm" },
    { wanted: ["windows/amd64"], want: undefined },
  ])("drops a single image whose platform is not wanted ($wanted)", ({ wanted, want }) => {
    for (const explain of [false, true]) {
      expect(selectArgoTag(newest(wanted), tags, { explain }).tag).toBe(want);
      expect(selectArgoTag(newest(wanted), prepareTagList(tags), { explain }).tag).toBe(want);
    }
  });

  it("wants a variant when its os/arch is wanted, and explains the drop", () => {
    const armV7 = [{ name: "v7", created: "2024-06-01T00:00:00Z", platform: "linux/arm/v7" }];
    expect(selectArgoTag(newest(["linux/arm"]), armV7).tag).toBe("v7");
    expect(selectArgoTag(newest(["linux/arm/v6"]), armV7).tag).toBeUndefined();
    const s = selectArgoTag(newest(), tags, { explain: true });
    expect(s.tags.map((t) => t.verdict)).toEqual(["selected", "wrong-platform"]);
    expect(s.tags[1]?.reason).toBe("its image is linux/arm64, none of linux/amd64");
  });

  it("drops a config without os and architecture (platform /), and keeps an image of unknown platform", () => {
    const blank = [{ name: "blank", created: "2024-06-01T00:00:00Z", platform: "/" }];
    expect(selectArgoTag(newest(), blank).tag).toBeUndefined();
    expect(selectArgoTag(newest(), [{ name: "old", created: "2024-06-01T00:00:00Z" }]).tag).toBe(
      "old",
    );
  });

  it("applies to the digest strategy too", () => {
    const digest = `sha256:${"a".repeat(64)}`;
    const config = {
      imageName: "app:arm",
      settings: { image: { updateStrategy: "digest" as const } },
    };
    expect(
      selectArgoTag(config, [{ name: "arm", digest, platform: "linux/arm64" }]).tag,
    ).toBeUndefined();
    expect(selectArgoTag(config, [{ name: "arm", digest, platform: "linux/amd64" }]).tag).toBe(
      "arm",
    );
  });

  it("leaves Kargo as it was: it does not read a single image's platform", () => {
    const s = selectKargoTag(
      { repoURL: "ghcr.io/acme/app", imageSelectionStrategy: "NewestBuild" },
      tags,
    );
    expect(s.tag).toBe("arm");
  });
});
