/**
 * The one-pass selections (taken when no explain trace is asked for) held to
 * the plain passes (taken with one): the same pick, digest, discovered tags,
 * outcome and notes, and the same error for the same bad entry, over lists
 * built to hit what the passes hand over on: ties, duplicated names with
 * differing metadata, characters where UTF-16 and UTF-8 orders differ,
 * versions Masterminds reads only leniently, times in every shape. The passes
 * over a prepared list (`prepareTagList`) are held to the same plain passes
 * here, with and without the trace.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArgoConfig } from "../argocd/config.js";
import { selectArgoTag } from "../argocd/select.js";
import { argoSinglePass } from "../argocd/single-pass.js";
import { type PreparedTagList, preparedData, prepareTagList } from "../common/prepared.js";
import { isStrictVersion, tryParseStrictVersion } from "../common/semver.js";
import { keptNamesRepeat, nameRepeatsAfter } from "../common/single-pass.js";
import type { DialectSelection, TagInfo } from "../common/types.js";
import { selectKargoTag } from "../kargo/select.js";
import { kargoSinglePass } from "../kargo/single-pass.js";
import type { KargoImageSubscription } from "../kargo/subscription.js";
import { argoCase, kargoCase } from "./dialect-cases.test-support.js";

const names = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "1.0.0",
      "1.2.3",
      "v1.2.3",
      "1.2",
      "v1",
      "2",
      "01.2.3",
      "1.02.3",
      "1.2.3-rc.1",
      "v1.2.3-rc.1",
      "1.2.3-rc.01",
      "1.2.3+build.5",
      "1.2.3-alpine",
      "v2.0.0-beta+exp.sha.5114f85",
      "3.0.0",
      "18446744073709551616.0.0",
      "18446744073709551615.0.0",
      "1.2.3.4",
      "20240101",
      "latest",
      "main-0f3a9c1-1700000000",
      "RELEASE.2024-01-02T03-04-05Z",
      "",
      "a",
      "b",
      "B",
      "\u00e9",
      "\uD83D\uDE00",
      "\uE000",
      "\uFFFF",
      "x\uD83D\uDE00",
      "x\uFF01",
      "v",
      "1.2.3-",
      "1.2.3+",
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.nat(4), fc.nat(4), fc.nat(4), fc.option(fc.nat(3)))
      .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre === null ? "" : `-rc.${pre}`}`),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: "binary" }) },
);

const created = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    "2024-01-01T00:00:00Z",
    "2024-01-01T00:00:00.5Z",
    "2024-01-01T00:00:00.500000001Z",
    "2024-01-01T01:00:00+01:00",
    "2023-12-31T23:59:59.999999999Z",
    "0001-01-01T00:00:00Z",
    "0000-06-01T00:00:00.5Z",
  ),
  fc.integer({ min: 1_704_067_190_000, max: 1_704_067_210_000 }),
  fc.constantFrom(-62_135_596_800_000, -62_135_596_800_001),
);

const digest = fc.option(
  fc.nat(3).map((n) => `sha256:${String(n).repeat(64)}`),
  { nil: undefined },
);
const platforms = fc.option(
  fc.array(
    fc.constantFrom("linux/amd64", "linux/arm64", "linux/arm/v7", "windows/amd64", "linux"),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  { nil: undefined },
);

const entry = fc
  .record({ name: names, created, digest, platforms }, { requiredKeys: ["name"] })
  .map(
    (t) =>
      Object.fromEntries(
        Object.entries(t).filter(([, v]) => v !== undefined),
      ) as unknown as TagInfo,
  );

/** Lists with repeated names (drawn from a small pool of entries), as registries never send but users may. */
const tagList = fc.oneof(
  fc.array(entry, { maxLength: 30 }),
  fc.array(entry, { minLength: 1, maxLength: 4 }).chain((pool) =>
    fc.array(
      fc.tuple(fc.nat(pool.length - 1), created, digest, platforms).map(([k, c, d, p]) => ({
        ...(pool[k] as TagInfo),
        ...(c === undefined ? {} : { created: c }),
        ...(d === undefined ? {} : { digest: d }),
        ...(p === undefined ? {} : { platforms: p }),
      })),
      { maxLength: 20 },
    ),
  ),
);

/** The selection without its trace, for comparing the two passes. */
function outcome(s: DialectSelection): Omit<DialectSelection, "tags"> {
  const { tags: _tags, ...rest } = s;
  return rest;
}

type Run = (tags: readonly TagInfo[] | PreparedTagList, explain: boolean) => DialectSelection;

/**
 * Every pass's answer over `tags`: the plain pass (with the trace), the
 * single pass, and both over the prepared list — or the same thrown error
 * (the prepared list throws it when it is prepared).
 */
function both(tags: readonly TagInfo[], run: Run): void {
  let plain: DialectSelection | undefined;
  let plainError: unknown;
  try {
    plain = run(tags, true);
  } catch (error) {
    plainError = error;
  }
  if (plainError !== undefined) {
    const same = expect.objectContaining({ message: (plainError as Error).message });
    expect(() => run(tags, false)).toThrow(same);
    expect(() => prepareTagList(tags)).toThrow(same);
    return;
  }
  const expected = outcome(plain as DialectSelection);
  expect(outcome(run(tags, false))).toEqual(expected);
  const prepared = prepareTagList(tags);
  expect(outcome(run(prepared, false))).toEqual(expected);
  expect(run(prepared, true)).toEqual(plain);
}

const constraints = fc.constantFrom(
  "",
  ">=1.0.0 <5.0.0",
  "^1.2",
  "~1.2.3",
  ">=1.2.3-0",
  "*",
  "1.x",
  "!!",
  ">1.0.0, <2.0.0",
  "<=3",
);

/** Constraints that name a tag of the lists, for the digest strategies. */
const tagConstraints = fc.constantFrom(
  "1.2.3",
  "latest",
  "a",
  "v1.2.3",
  "RELEASE.2024-01-02T03-04-05Z",
);

describe("Argo CD's single pass", () => {
  it("picks what the plain pass picks", () => {
    const config = fc
      .record({
        constraint: fc.oneof(constraints, tagConstraints),
        strategy: fc.constantFrom(
          "semver",
          "alphabetical",
          "name",
          "newest-build",
          "latest",
          "digest",
          "",
        ),
        allowTags: fc.option(fc.constantFrom("regexp:^v?1", "any", "regexp:(", "1.*", "regexp:"), {
          nil: undefined,
        }),
        ignoreTags: fc.option(
          fc.array(fc.constantFrom("*-rc*", "latest", "[", "v*"), { maxLength: 2 }),
          {
            nil: undefined,
          },
        ),
        platforms: fc.option(
          fc.array(fc.constantFrom("linux/amd64", "linux/arm", "linux/arm/v7"), {
            maxLength: 2,
          }),
          { nil: undefined },
        ),
      })
      .map(
        ({ constraint, strategy, allowTags, ignoreTags, platforms }): ArgoConfig => ({
          imageName: constraint === "" ? "ghcr.io/acme/app" : `ghcr.io/acme/app:${constraint}`,
          settings: {
            image: {
              updateStrategy: strategy,
              ...(allowTags === undefined ? {} : { allowTags }),
              ...(ignoreTags === undefined ? {} : { ignoreTags }),
              ...(platforms === undefined ? {} : { platforms }),
            },
          },
        }),
      );
    fc.assert(
      fc.property(config, tagList, (c, tags) => {
        both(tags, (list, explain) => selectArgoTag(c, list, { explain }));
      }),
      { numRuns: 4000 },
    );
  });
});

describe("Kargo's single pass", () => {
  it("discovers what the plain pass discovers", () => {
    const subscription = fc
      .record({
        imageSelectionStrategy: fc.constantFrom("SemVer", "Lexical", "NewestBuild", "Digest", ""),
        constraint: fc.oneof(
          constraints.filter((c) => c !== "!!"),
          tagConstraints,
        ),
        strictSemvers: fc.option(fc.boolean(), { nil: undefined }),
        discoveryLimit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
        platform: fc.option(fc.constantFrom("linux/amd64", "linux/arm/v7", "linux/arm"), {
          nil: undefined,
        }),
        allowTagsRegexes: fc.option(
          fc.array(fc.constantFrom("^v?1", "rc", "^[0-9]"), { maxLength: 2 }),
          {
            nil: undefined,
          },
        ),
        ignoreTagsRegexes: fc.option(
          fc.array(fc.constantFrom("alpine", "^latest$", "\\+"), {
            maxLength: 2,
          }),
          { nil: undefined },
        ),
      })
      .map((s): KargoImageSubscription => {
        const out: Record<string, unknown> = { repoURL: "ghcr.io/acme/app" };
        for (const [k, v] of Object.entries(s)) if (v !== undefined && v !== "") out[k] = v;
        return out as KargoImageSubscription;
      });
    fc.assert(
      fc.property(subscription, tagList, (s, tags) => {
        both(tags, (list, explain) => selectKargoTag(s, list, { explain }));
      }),
      { numRuns: 4000 },
    );
  });

  it("throws for the same first bad entry whatever the subscription", () => {
    // A shape every selection reads (a time that is neither text nor a number).
    const bad = [
      { name: "1.0.0" },
      { name: "2.0.0", created: new Date(0) },
      { name: "3.0.0", digest: "sha256:x" },
    ] as unknown as TagInfo[];
    for (const sub of [
      { repoURL: "ghcr.io/acme/app" },
      { repoURL: "ghcr.io/acme/app", imageSelectionStrategy: "Lexical" },
      { repoURL: "ghcr.io/acme/app", imageSelectionStrategy: "NewestBuild" },
      { repoURL: "ghcr.io/acme/app", discoveryLimit: 0 },
      { repoURL: "" },
    ]) {
      expect(() => selectKargoTag(sub, bad)).toThrow(
        expect.objectContaining({ path: "tags[1].created" }),
      );
    }
  });
});

describe("every strategy on the single pass", () => {
  // Names repeat only where the pass must hand over.
  const tags: TagInfo[] = [
    { name: "a", digest: `sha256:${"1".repeat(64)}`, platforms: ["linux/arm64"] },
    { name: "b", digest: `sha256:${"2".repeat(64)}`, platforms: ["linux/amd64"] },
    { name: "b", digest: `sha256:${"3".repeat(64)}`, platforms: ["linux/amd64", "linux/arm64"] },
    { name: "c", digest: `sha256:${"4".repeat(64)}`, platforms: ["linux/arm64"] },
  ];
  const arm = (platforms: readonly string[]) => platforms.includes("linux/arm64");

  it("Argo CD's digest reads the constraint tag's last occurrence", () => {
    const rules = {
      strategy: "digest" as const,
      keeps: undefined,
      platformsWanted: arm,
      constraints: undefined,
      constraintTag: "b",
    };
    expect(argoSinglePass(tags, rules)).toBe(2);
    expect(argoSinglePass(preparedData(prepareTagList(tags)), rules)).toBe(2);
    expect(argoSinglePass(tags, { ...rules, constraintTag: "x" })).toBeUndefined();
  });

  it("Kargo's Digest, and a raw list with a platform", () => {
    const rules = {
      keeps: undefined,
      constraints: undefined,
      strictSemvers: false,
      discoveryLimit: 5,
      constraintTag: "b",
      platformMatches: arm,
    };
    expect(kargoSinglePass(tags, { ...rules, strategy: "Digest" })).toEqual([2]);
    expect(
      kargoSinglePass(preparedData(prepareTagList(tags)), { ...rules, strategy: "Digest" }),
    ).toEqual([2]);
    // "b" repeats: judged by each entry's own platforms, the raw pass hands over.
    expect(kargoSinglePass(tags, { ...rules, strategy: "Lexical" })).toBeUndefined();
    const once = [tags[0], tags[2], tags[3]] as TagInfo[];
    expect(kargoSinglePass(once, { ...rules, strategy: "Lexical" })).toEqual([2, 1, 0]);
    expect(kargoSinglePass(once, { ...rules, strategy: "SemVer" })).toBeUndefined();
  });
});

describe("both single passes on the differential grammar's cases", () => {
  it("agree with the plain passes", () => {
    fc.assert(
      fc.property(fc.oneof(argoCase, kargoCase), (c) => {
        both(c.tags, (list, explain) =>
          c.dialect === "kargo"
            ? selectKargoTag(c.config, list, { explain })
            : selectArgoTag(c.config, list, { explain }),
        );
      }),
      { numRuns: 3000 },
    );
  });
});

describe("isStrictVersion", () => {
  it("answers as StrictNewVersion does", () => {
    const text = fc.oneof(
      names,
      fc.stringMatching(
        /^(0|[1-9][0-9]{0,20}|0[0-9])\.[0-9]{1,3}\.[0-9]{1,3}(-[0-9a-z.-]{0,6})?(\+[0-9a-z.+-]{0,6})?$/,
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(text, (s) => {
        expect(isStrictVersion(s)).toBe(tryParseStrictVersion(s) !== undefined);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("keptNamesRepeat", () => {
  it("is true exactly when a kept name occurs at another index", () => {
    const list = fc.array(fc.constantFrom("a", "b", "ab", "ba", "", "build-1", "build-2"), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        list.chain((l) =>
          fc.tuple(fc.constant(l), fc.uniqueArray(fc.nat(l.length - 1), { maxLength: 4 })),
        ),
        ([l, kept]) => {
          const tags = l.map((name) => ({ name }));
          const expected = kept.some((k) => l.some((n, j) => j !== k && n === l[k]));
          expect(keptNamesRepeat(tags, kept)).toBe(expected);
          for (const k of kept) {
            const later: readonly string[] = l.slice(k + 1);
            expect(nameRepeatsAfter(tags, k)).toBe(later.includes(l[k] as string));
          }
        },
      ),
    );
  });
});
