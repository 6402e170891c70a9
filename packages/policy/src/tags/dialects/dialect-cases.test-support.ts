/**
 * Random Argo CD Image Updater and Kargo cases — a configuration as users
 * write it plus a registry's tag list with metadata — from a grammar that
 * covers what the `tagdialects` vectors cover: odd semvers (partial, leading
 * zeros, `v`/`V` prefixes, prereleases, build metadata, huge numbers),
 * duplicate tags, allow/ignore rules (`regexp:`, `any`, globs, Kargo regex
 * lists), constraints, every strategy and its aliases, strict and loose
 * semver, `discoveryLimit`, platforms, and whitespace and case that Go
 * treats differently from JavaScript.
 *
 * The cases are shaped like the suite's vectors (`dialect`, `config`,
 * `tags`), so the same arbitraries drive the property tests here and a
 * differential run against the upstream Go code: pools are small on purpose
 * so that ties, duplicates and "the constraint names a listed tag" happen
 * often.
 */
import fc from "fast-check";
import type { ArgoConfig, ArgoUpdateSettings } from "../argocd/config.js";
import { selectArgoTag } from "../argocd/select.js";
import { isTagDialectError } from "../common/errors.js";
import type { PreparedTagList } from "../common/prepared.js";
import type { DialectSelection, TagInfo } from "../common/types.js";
import { selectKargoTag } from "../kargo/select.js";
import type { KargoImageSubscription } from "../kargo/subscription.js";

/** One random case, in the vector shape. */
export type DialectCase =
  | {
      readonly dialect: "argocd-image-updater";
      readonly config: ArgoConfig;
      readonly tags: readonly TagInfo[];
    }
  | {
      readonly dialect: "kargo";
      readonly config: KargoImageSubscription;
      readonly tags: readonly TagInfo[];
    };

/** Mostly one of `common`, sometimes one of `rare` (the values that end a selection early). */
function mostly<T>(common: readonly T[], rare: readonly T[]): fc.Arbitrary<T> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...common) },
    { weight: 1, arbitrary: fc.constantFrom(...rare) },
  );
}

const versionCore = fc.oneof(
  fc.constantFrom(
    "0",
    "1",
    "2",
    "10",
    "01",
    "007",
    "20240101",
    "18446744073709551616",
    "9223372036854775807",
  ),
  fc.integer({ min: 0, max: 12 }).map(String),
);
const prerelease = fc.constantFrom(
  "rc.1",
  "rc.2",
  "rc1",
  "alpha",
  "beta.2",
  "0",
  "01",
  "x-y",
  "alpine",
  "rc.01",
  "",
  "SNAPSHOT",
);
const buildMeta = fc.constantFrom("b1", "build.5", "sha.abc", "001", "", "x..y");

/** A semver-like tag: the parts Masterminds, strict semver and Argo's and Kargo's readings disagree on. */
const semverish: fc.Arbitrary<string> = fc
  .record({
    prefix: fc.constantFrom("", "", "", "v", "V", "vv", " "),
    parts: fc.array(versionCore, { minLength: 1, maxLength: 4 }),
    pre: fc.option(prerelease, { nil: undefined, freq: 3 }),
    meta: fc.option(buildMeta, { nil: undefined, freq: 5 }),
  })
  .map(
    ({ prefix, parts, pre, meta }) =>
      `${prefix}${parts.join(".")}${pre === undefined ? "" : `-${pre}`}${meta === undefined ? "" : `+${meta}`}`,
  );

const wordTag = fc.constantFrom(
  "latest",
  "main",
  "stable",
  "sha-abc1234",
  "release-1.2",
  "1.2.3-alpine",
  "nightly-20240101",
  "v1.2.3-rc.1",
  "1.0.0",
  "1.0",
  "v1.0.0",
  "1.0.0+b",
  "",
  "a",
  "B",
  "ünïcode",
  "\uff01",
  "😀",
  "é",
  "e\u0301",
  "DİGEST",
  "1.2.3 ",
  "-1.2.3",
  "1.2.3.4",
  "1..2",
);

/** A tag name: semver-like, a common word, or anything. */
/** A clean `[v]MAJOR.MINOR.PATCH[-pre]`, the tags strict readings accept. */
const cleanSemver = fc
  .tuple(
    fc.constantFrom("", "v"),
    fc.nat(3),
    fc.nat(3),
    fc.nat(3),
    fc.option(fc.constantFrom("rc.1", "rc.2", "alpha", "beta.1"), { nil: undefined, freq: 4 }),
  )
  .map(([v, a, b, c, pre]) => `${v}${a}.${b}.${c}${pre === undefined ? "" : `-${pre}`}`);

export const dialectTagName: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: cleanSemver },
  { weight: 5, arbitrary: semverish },
  { weight: 3, arbitrary: wordTag },
  { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: "grapheme" }) },
  {
    weight: 2,
    arbitrary: fc.string({
      maxLength: 10,
      unit: fc.constantFrom(..."0123456789..--+vVaxX"),
    }),
  },
);

/** Instants written many ways, several equal, some before Go's zero time. */
const created = fc.constantFrom(
  "2024-01-01T00:00:00Z",
  "2024-01-01T01:00:00+01:00",
  "2024-01-01T00:00:00.000000001Z",
  "2024-01-01T00:00:00.5Z",
  "2023-12-31T23:59:59.999999999Z",
  "2024-06-15T12:30:00-07:00",
  "2025-02-28T10:00:00Z",
  "1970-01-01T00:00:00Z",
  "1970-01-01T00:00:05Z",
  "0001-01-01T00:00:00Z",
  "0001-01-01T00:30:00+01:00",
  "9999-12-31T23:59:59Z",
  "2024-01-01T00:00:00+00:00",
  "2023-12-31T23:00:00-01:00",
  "2024-01-01T05:30:00+05:30",
  "2024-01-01T14:00:00+14:00",
  "2024-01-01T00:00:00.100000000Z",
  "2024-02-29T12:00:00Z",
);
const digests = ["a", "b", "c", "d"].map((c) => `sha256:${c.repeat(64)}`);
const platformPool = [
  "linux/amd64",
  "linux/arm64",
  "linux/arm64/v8",
  "linux/arm/v7",
  "linux/arm/v6",
  "windows/amd64",
  "darwin/arm64",
  "linux/ppc64le",
  "linux/amd64/v2",
  "linux/s390x",
  "linux/arm",
  "linux/riscv64",
];

function tagList(names: readonly string[]): fc.Arbitrary<TagInfo[]> {
  const tag = fc.record(
    {
      name: fc.constantFrom(...names),
      created,
      digest: fc.constantFrom(...digests),
      platforms: fc.uniqueArray(fc.constantFrom(...platformPool), { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ["name"] },
  );
  return fc.array(tag, { maxLength: 12 });
}

/** A pool of a few names, then a list drawn from it (duplicates are common). */
const namesAndTags = fc
  .uniqueArray(dialectTagName, { minLength: 1, maxLength: 8 })
  .chain((names) => fc.tuple(fc.constant(names), tagList(names)));

const constraintPool = [
  "1.2.3",
  "^1.2",
  "~1.0",
  ">=1.0 <2.0",
  ">=1.0, <2.0",
  "1.x",
  "*",
  "1.2.3-0",
  ">=1.0.0-0",
  "latest",
  "~1.26",
  "<=2",
  "=1.0.0",
  "!=1.0.0",
  "1.2 - 1.4",
  ">1 || <0.5",
  "v1.2.3",
  "^v1.0.0",
  "invalid",
  ">= 1.0",
  "~0",
  "^0.0",
  "2024",
];

/** A version as constraints write it: partial, wildcards, `v`, pre-release. */
const constraintVersion = fc
  .tuple(
    fc.constantFrom("", "", "v"),
    fc.array(fc.constantFrom("0", "1", "2", "10", "x", "X", "*", "01"), {
      minLength: 1,
      maxLength: 3,
    }),
    fc.option(fc.constantFrom("0", "rc.1", "alpha", "beta.2"), { nil: undefined, freq: 4 }),
  )
  .map(([v, parts, pre]) => `${v}${parts.join(".")}${pre === undefined ? "" : `-${pre}`}`);

/** A Masterminds constraint from its grammar: operators, ranges, `,`/space conjunctions, `||`. */
const randomConstraint = fc
  .array(
    fc.oneof(
      fc
        .tuple(
          fc.constantFrom("", "=", "!=", ">", "<", ">=", "<=", "~", "^", "~>", "=>", "=<", " >= "),
          constraintVersion,
        )
        .map(([op, v]) => `${op}${v}`),
      fc.tuple(constraintVersion, constraintVersion).map(([a, b]) => `${a} - ${b}`),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .chain((terms) =>
    fc
      .array(fc.constantFrom(" ", ", ", ",", " || ", "||", "  "), {
        minLength: terms.length - 1,
        maxLength: terms.length - 1,
      })
      .map((seps) => terms.map((t, i) => (i === 0 ? t : `${seps[i - 1]}${t}`)).join("")),
  );

const constraint = (names: readonly string[]) =>
  fc.oneof(fc.constantFrom(...constraintPool), fc.constantFrom(...names), randomConstraint);

/** A regular expression from a small alphabet: valid or not, never a construct Go versions disagree on. */
const randomRegex = fc.string({
  maxLength: 6,
  unit: fc.constantFrom(..."ab1.*+?^$|()[]-", "\\d", "\\.", "{2}", "é", "😀"),
});

// ---- Argo CD Image Updater ------------------------------------------------

const argoStrategy = mostly(
  [
    "semver",
    "SemVer",
    "latest",
    "newest-build",
    "Newest-Build",
    "name",
    "alphabetical",
    "ALPHABETICAL",
    "digest",
  ],
  ["DİGEST", "", " semver", "bogus"],
);
const argoAllow = mostly(
  ["", "any", "ANY", "regexp:^v?1\\.", "regexp:.*", "regexp:", "REGEXP:^[0-9]+$"],
  [
    "^1\\.",
    "regexp:[",
    "glob:*",
    "regexp:-rc",
    "regexp:(?i)^V1",
    "regexp:\\d{8}",
    "regexp:^$",
    "regexp:^[0-9]+\\.[0-9]+\\.[0-9]+$",
  ],
);
const argoGlobPool = fc.constantFrom(
  "*-rc*",
  "latest",
  "",
  "*",
  "v*",
  "1.?.*",
  "[0-9]*",
  "[!v]*",
  "[^0-9]*",
  "\\*",
  "[",
  "*[",
  "a\\",
  "*.*.*",
  "*-alpine",
  "[a-",
);
const argoGlob = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.string({ maxLength: 6, unit: fc.constantFrom(..."*?[]^!-\\ab1.", "é", "😀") }),
  },
  { weight: 3, arbitrary: argoGlobPool },
);
const argoPlatforms = mostly(
  [[], ["linux/amd64"], ["linux/arm64"], ["linux/arm64/v8"]],
  [
    ["linux"],
    [" linux/arm64 "],
    ["linux/arm/v7", "linux/amd64"],
    ["", "linux/amd64"],
    ["windows/amd64"],
    ["linux/amd64/v2"],
  ],
);

const argoSettings: fc.Arbitrary<ArgoUpdateSettings> = fc.record(
  {
    updateStrategy: argoStrategy,
    allowTags: fc.oneof(
      { weight: 4, arbitrary: argoAllow },
      { weight: 1, arbitrary: randomRegex.map((r) => `regexp:${r}`) },
    ),
    ignoreTags: fc.array(argoGlob, { maxLength: 3 }),
    platforms: argoPlatforms,
  },
  { requiredKeys: [] },
);

const registries = [
  "",
  "docker.io/",
  "ghcr.io/",
  "localhost:5000/",
  "registry.example.com:5000/",
  "quay.io/org/",
];
const repos = ["nginx", "library/nginx", "org/app", "my.app/x", "app"];

function argoImage(names: readonly string[]): fc.Arbitrary<string> {
  return fc
    .record({
      registry: fc.constantFrom(...registries),
      repo: fc.constantFrom(...repos),
      tag: fc.option(constraint(names), { nil: undefined, freq: 4 }),
      digest: fc.option(fc.constantFrom(...digests), { nil: undefined, freq: 8 }),
    })
    .map(
      ({ registry, repo, tag, digest }) =>
        `${registry}${repo}${tag === undefined ? "" : `:${tag}`}${digest === undefined ? "" : `@${digest}`}`,
    );
}

const aliases = fc.constantFrom("", "web", "app", "nginx:>", "a=b", "1", "my-alias", " x ");

function argoResourceConfig(names: readonly string[]): fc.Arbitrary<ArgoConfig> {
  return fc.record(
    {
      alias: aliases,
      imageName: argoImage(names),
      settings: fc.record(
        { spec: argoSettings, applicationRef: argoSettings, image: argoSettings },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ["imageName"] },
  );
}

/** Whitespace Go's `strings.TrimSpace` and JavaScript's `trim` treat differently, and plain spaces. */
const pad = fc.constantFrom("", "", "", " ", "\t", "\u0085", "\ufeff", "\u00a0", "\u2028");

const P = "argocd-image-updater.argoproj.io/";

function argoAnnotationsConfig(names: readonly string[]): fc.Arbitrary<ArgoConfig> {
  const entry = fc.oneof(
    fc.tuple(aliases, argoImage(names)).map(([a, i]) => `${a}=${i}`),
    argoImage(names),
    fc.constantFrom("web=", " ", "=nginx", "web = nginx:1.x"),
  );
  const padded = <T extends string>(a: fc.Arbitrary<T>) =>
    fc.tuple(pad, a, pad).map(([l, v, r]) => `${l}${v}${r}`);
  const settingKeys = (prefix: string, platforms: boolean) =>
    fc.record(
      {
        [`${P}${prefix}update-strategy`]: padded(argoStrategy),
        [`${P}${prefix}allow-tags`]: padded(argoAllow),
        [`${P}${prefix}ignore-tags`]: fc
          .array(padded(argoGlob), { maxLength: 3 })
          .map((g) => g.join(",")),
        [`${P}${prefix}force-update`]: mostly(
          ["true", "false", " TRUE ", "1", "t", "F"],
          ["yes", "", "\ufefftrue"],
        ),
        [`${P}${prefix}pull-secret`]: fc.constantFrom("", "pullsecret:argocd/x", " "),
        ...(platforms
          ? {
              [`${P}${prefix}platforms`]: fc
                .array(padded(fc.constantFrom(...platformPool, "linux", "")), { maxLength: 3 })
                .map((p) => p.join(",")),
            }
          : {}),
      },
      { requiredKeys: [] },
    );
  return fc
    .tuple(
      fc.array(entry, { minLength: 0, maxLength: 3 }),
      fc.constantFrom(",", ", ", " ,"),
      fc.boolean(),
    )
    .chain(([entries, sep, withList]) => {
      const list = entries.join(sep);
      const firstAlias = /^([^=]*)=/.exec(list.split(",")[0]?.trim() ?? "")?.[1]?.trim() ?? "web";
      const alias = firstAlias === "" ? "web" : firstAlias;
      return fc
        .tuple(
          settingKeys(`${alias}.`, true),
          settingKeys("", false),
          fc.record(
            {
              [`${P}${alias}.helm.image-name`]: mostly([""], ["image.name"]),
              [`${P}${alias}.kustomize.image-name`]: mostly([" "], ["nginx"]),
            },
            { requiredKeys: [] },
          ),
        )
        .map(([own, appWide, targets]) => {
          const annotations: Record<string, string> = Object.create(null);
          if (withList || entries.length > 0) annotations[`${P}image-list`] = list;
          Object.assign(annotations, own, appWide, targets);
          return { annotations: { ...annotations } };
        });
    });
}

/** A random Argo CD Image Updater case: the resource form or the annotation form. */
export const argoCase: fc.Arbitrary<DialectCase> = namesAndTags.chain(([names, tags]) =>
  fc
    .oneof(
      { weight: 3, arbitrary: argoResourceConfig(names) },
      { weight: 1, arbitrary: argoAnnotationsConfig(names) },
    )
    .map((config) => ({ dialect: "argocd-image-updater" as const, config, tags })),
);

// ---- Kargo ----------------------------------------------------------------

const kargoRegexPool = mostly(
  ["", "^v", "-rc", "(?i)^V1", "\\d+", "^[0-9.]+$", "alpine$", "^1\\.", "a|b", "\\.0$"],
  ["[", "^$"],
);

const kargoRegex = fc.oneof(
  { weight: 4, arbitrary: kargoRegexPool },
  { weight: 1, arbitrary: randomRegex },
);

/** A random Kargo case: an image subscription as written. */
export const kargoCase: fc.Arbitrary<DialectCase> = namesAndTags.chain(([names, tags]) =>
  fc
    .record(
      {
        repoURL: mostly(
          [
            "nginx",
            "nginx",
            "example/image",
            "ghcr.io/org/app",
            "localhost:5000/app",
            "Nginx",
            "UPPER/Case",
            "docker.io/library/nginx",
            "a.b.c:123/d_e",
            "ghcr.io/ORG/app",
          ],
          [
            "a__b",
            "a..b",
            "",
            "-a",
            "registry-1.docker.io/x",
            "x_y/z",
            " nginx",
            "1/2",
            "_a",
            "a_/b",
          ],
        ),
        imageSelectionStrategy: mostly(
          ["", "SemVer", "SemVer", "Lexical", "NewestBuild", "Digest"],
          ["semver", "Newest"],
        ),
        constraint: fc.oneof(
          { weight: 4, arbitrary: fc.constant("") },
          { weight: 3, arbitrary: fc.constantFrom(...constraintPool) },
          { weight: 2, arbitrary: fc.constantFrom(...names) },
        ),
        strictSemvers: fc.boolean(),
        allowTagsRegexes: fc.oneof(fc.constant([]), fc.array(kargoRegex, { maxLength: 3 })),
        ignoreTagsRegexes: fc.array(kargoRegex, { maxLength: 2 }),
        platform: mostly(
          [
            "",
            "",
            "",
            "",
            "linux/amd64",
            "linux/arm64/v8",
            "linux/arm64",
            "windows/amd64",
            "linux/arm/v7",
          ],
          ["linux", "linux/", "/amd64", "a/b/c/d"],
        ),
        discoveryLimit: mostly([0, 1, 2, 3, 5, 20, 100], [101, -1]),
        allowTags: mostly([""], ["^v"]),
        ignoreTags: mostly([[]], [["x"]]),
      },
      { requiredKeys: ["repoURL"] },
    )
    .map((config) => ({ dialect: "kargo" as const, config, tags })),
);

/** The case's selection over `tags`, in its dialect. */
export function selectCase(
  c: DialectCase,
  tags: readonly TagInfo[] | PreparedTagList,
  explain: boolean,
): DialectSelection {
  return c.dialect === "kargo"
    ? selectKargoTag(c.config, tags, { explain })
    : selectArgoTag(c.config, tags, { explain });
}

/** The selection, or the error's identity (class name, code, path, value). */
export function attemptSelection(run: () => DialectSelection): unknown {
  try {
    return { ok: run() };
  } catch (error) {
    if (!isTagDialectError(error)) throw error;
    return { name: error.name, code: error.code, path: error.path, value: error.value };
  }
}
