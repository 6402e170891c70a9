import { describe, expect, it } from "vitest";
import { isTagPolicyError } from "./errors.js";
import { compileTagPolicy, safeSelectLatestTag, selectLatestTag } from "./select.js";
import type { TagSelectionPolicy } from "./types.js";

function codeOf(tags: readonly string[], policy: TagSelectionPolicy): string | undefined {
  const r = safeSelectLatestTag(tags, policy);
  return r.success ? undefined : r.error.code;
}

describe("selectLatestTag: the seed examples", () => {
  it("5.1.x picks the newest 5.1 patch", () => {
    const tags = ["5.0.3", "5.1.0", "5.1.2", "5.1.10", "5.2.0", "6.0.0", "latest"];
    expect(selectLatestTag(tags, { policy: { semver: { range: "5.1.x" } } })).toBe("5.1.10");
  });

  it(">=1.0.0 picks the newest release and skips pre-releases", () => {
    const tags = ["0.9.0", "1.0.0", "1.4.2", "2.0.0-rc.1", "v1.10.0", "1.9"];
    expect(selectLatestTag(tags, { policy: { semver: { range: ">=1.0.0" } } })).toBe("v1.10.0");
  });

  it("^1.x-0 with a -rc filter picks the newest release candidate", () => {
    const tags = ["1.0.0", "1.1.0-rc.1", "1.1.0-rc.2", "1.2.0-beta.1", "2.0.0-rc.1", "1.1.0"];
    expect(
      selectLatestTag(tags, {
        policy: { semver: { range: "^1.x-0" } },
        filterTags: { pattern: ".*-rc.*" },
      }),
    ).toBe("1.1.0-rc.2");
  });

  it("RELEASE timestamps ranked by the extracted $timestamp", () => {
    const tags = [
      "RELEASE.2023-11-20T22-40-07Z",
      "RELEASE.2024-01-16T16-07-38Z",
      "RELEASE.2024-01-16T16-07-38Z.fips",
      "latest",
    ];
    expect(
      selectLatestTag(tags, {
        policy: { alphabetical: { order: "asc" } },
        filterTags: { pattern: "^RELEASE\\.(?P<timestamp>.*)Z$", extract: "$timestamp" },
      }),
    ).toBe("RELEASE.2024-01-16T16-07-38Z");
  });
});

describe("the pipeline rules", () => {
  it.each([
    // Policer precedence: semver, then alphabetical, then numerical.
    {
      tags: ["1", "2.0.0", "10"],
      policy: { policy: { semver: { range: "*" }, numerical: {} } },
      want: "2.0.0",
    },
    { tags: ["1", "9", "10"], policy: { policy: { alphabetical: {}, numerical: {} } }, want: "9" },
    // Orders are upper-cased as in Flux: "Desc" works.
    { tags: ["b", "a", "c"], policy: { policy: { alphabetical: { order: "Desc" } } }, want: "a" },
    // UTF-8 byte order, not UTF-16: U+FF01 sorts below an emoji.
    { tags: ["\uFF01", "😀"], policy: { policy: { alphabetical: {} } }, want: "😀" },
    // semver ties: the first wins; the tag comes back as written.
    {
      tags: ["v1.0.0", "1.0.0", "1.0.0+build"],
      policy: { policy: { semver: { range: "1.x" } } },
      want: "v1.0.0",
    },
    // numerical ties: the last wins; Go float syntax.
    { tags: ["1e1", "10", "010"], policy: { policy: { numerical: {} } }, want: "010" },
    { tags: ["0x1p4", "15", "1_0"], policy: { policy: { numerical: {} } }, want: "0x1p4" },
    // Two tags with one key: the later tag wins the key.
    {
      tags: ["a-1", "b-1", "a-0"],
      policy: {
        policy: { numerical: {} },
        filterTags: { pattern: "-(?P<n>\\d+)$", extract: "$n" },
      },
      want: "b-1",
    },
    // An empty pattern keeps everything; the match need not be anchored.
    { tags: ["x1", "y2"], policy: { policy: { alphabetical: {} }, filterTags: {} }, want: "y2" },
  ] as { tags: string[]; policy: TagSelectionPolicy; want: string }[])(
    "$tags with $policy",
    ({ tags, policy, want }) => {
      expect(selectLatestTag(tags, policy)).toBe(want);
    },
  );

  it.each([
    { tags: ["1.0.0"], policy: { policy: {} }, code: "INVALID_POLICY" },
    { tags: ["1.0.0"], policy: { policy: { semver: { range: "" } } }, code: "INVALID_POLICY" },
    // A semver policy without a range is Go's empty range.
    { tags: ["1.0.0"], policy: { policy: { semver: {} } }, code: "INVALID_POLICY" },
    {
      tags: ["a"],
      policy: { policy: { alphabetical: { order: " asc" } } },
      code: "INVALID_POLICY",
    },
    // NO_TAGS is checked before the pattern compiles.
    {
      tags: [],
      policy: { policy: { alphabetical: {} }, filterTags: { pattern: "[=" } },
      code: "NO_TAGS",
    },
    {
      tags: ["a"],
      policy: { policy: { alphabetical: {} }, filterTags: { pattern: "^test-(.*" } },
      code: "INVALID_PATTERN",
    },
    {
      tags: ["a"],
      policy: { policy: { alphabetical: {} }, filterTags: { pattern: "^b" } },
      code: "ALL_TAGS_FILTERED",
    },
    {
      tags: ["1.0", "v2", "x"],
      policy: { policy: { semver: { range: "*" } } },
      code: "NO_MATCHING_VERSION",
    },
    { tags: ["1", "two", "3"], policy: { policy: { numerical: {} } }, code: "INVALID_NUMBER" },
    { tags: ["1", "0x10"], policy: { policy: { numerical: {} } }, code: "INVALID_NUMBER" },
  ] as { tags: string[]; policy: TagSelectionPolicy; code: string }[])(
    "$tags with $policy → $code",
    ({ tags, policy, code }) => {
      expect(codeOf(tags, policy)).toBe(code);
    },
  );

  it("reports Flux's messages", () => {
    const cases: [readonly string[], TagSelectionPolicy, string][] = [
      [["a"], { policy: {} }, "invalid policy: given ImagePolicyChoice object is invalid"],
      [
        ["a"],
        { policy: { numerical: { order: "up" } } },
        "invalid policy: invalid order argument provided: 'UP', must be one of: ASC, DESC",
      ],
      [
        ["a"],
        { policy: { semver: { range: "*-*" } } },
        'invalid policy: improper constraint: "*-*"',
      ],
      [
        ["a"],
        { policy: { alphabetical: {} }, filterTags: { pattern: "[=" } },
        "failed to filter tags: invalid regular expression pattern '[=': error parsing regexp: missing closing ]: `[=`",
      ],
      [["x"], { policy: { numerical: {} } }, "failed to parse invalid numeric value 'x'"],
    ];
    for (const [tags, policy, message] of cases) {
      const r = safeSelectLatestTag(tags, policy);
      expect(r.success ? undefined : r.error.message).toBe(message);
    }
  });

  it("compiles once and selects from many lists", () => {
    const policy = compileTagPolicy({ policy: { semver: { range: ">=1.0.0 <2" } } });
    expect(policy.kind).toBe("semver");
    expect(policy.select(["1.0.0", "1.5.0"])).toBe("1.5.0");
    expect(policy.select(["1.2.0", "2.0.0"])).toBe("1.2.0");
    try {
      policy.select(["3.0.0"]);
    } catch (error) {
      expect(isTagPolicyError(error) && error.code).toBe("NO_MATCHING_VERSION");
    }
  });

  it("ranks pre-releases only when the range carries one", () => {
    const tags = ["1.0.0", "1.1.0-rc.1", "1.1.0-alpine", "v1.0.5-rc.2"];
    expect(selectLatestTag(tags, { policy: { semver: { range: ">=1.0.0" } } })).toBe("1.0.0");
    expect(selectLatestTag(tags, { policy: { semver: { range: ">=1.0.0-0" } } })).toBe(
      "1.1.0-rc.1",
    );
  });
});

describe("a whole ImagePolicy where its spec is wanted", () => {
  const imagePolicy = {
    apiVersion: "image.toolkit.fluxcd.io/v1beta2",
    kind: "ImagePolicy",
    metadata: { name: "app" },
    spec: { imageRepositoryRef: { name: "app" }, policy: { semver: { range: ">=1.0.0" } } },
  } as unknown as TagSelectionPolicy;

  it.each([
    { name: "selectLatestTag", call: () => selectLatestTag(["1.0.0"], imagePolicy) },
    { name: "compileTagPolicy", call: () => compileTagPolicy(imagePolicy) },
    { name: "a null spec", call: () => compileTagPolicy(null as unknown as TagSelectionPolicy) },
  ])("$name: INVALID_POLICY naming the fix, not a TypeError", ({ call }) => {
    let caught: unknown;
    try {
      call();
    } catch (error) {
      caught = error;
    }
    expect(isTagPolicyError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: "INVALID_POLICY" });
  });

  it("says to pass its spec", () => {
    expect(safeSelectLatestTag(["1.0.0"], imagePolicy)).toMatchObject({
      success: false,
      error: { message: expect.stringMatching(/whole ImagePolicy.*pass its spec/) },
    });
  });
});
