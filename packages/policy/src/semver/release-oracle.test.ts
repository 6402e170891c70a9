import { readFileSync } from "node:fs";
import { UpstreamReleaseError } from "@kubeimg/core";
import { seededRandom } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";
import { parseConstraints } from "./constraints.js";
import { describeMiss } from "./operators.js";
import type { SemverRelease } from "./release.js";
import { type ReleaseCase, releaseCase } from "./release-cases.test-support.js";
import { parseStrictVersion, parseVersion } from "./version.js";

/**
 * Answers recorded from Masterminds/semver v3.4.0 (tag, commit 61fc460) and
 * v3.5.0 (as vendored by etcd at c69c80b, modules.txt `v3.5.0`), with the
 * package defaults, built with Go 1.19, for the first 1,000 cases of
 * `release-cases.test-support.ts` (seed 20261130): for a version,
 * `NewVersion` and `StrictNewVersion` (`String()` or the error); for a
 * constraint, `NewConstraint`'s error or, per version, `NewVersion`'s error
 * or `Check && Validate` and `Validate`'s reasons. `v350` is written only
 * where it differs from `v340`.
 */
type Recorded = ReleaseCase & { readonly v340: unknown; readonly v350?: unknown };

const recorded: Recorded[] = readFileSync(
  new URL("./testdata/release-oracle.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as Recorded);

function message(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function answer(c: ReleaseCase, semver: SemverRelease): unknown {
  const o = { semver };
  if ("version" in c) {
    return {
      newVersion: message(() => ({ string: parseVersion(c.version, o).toString() })),
      strict: message(() => ({ string: parseStrictVersion(c.version, o).toString() })),
    };
  }
  let constraints: ReturnType<typeof parseConstraints>;
  try {
    constraints = parseConstraints(c.constraint, o);
  } catch (e) {
    return { error: (e as Error).message };
  }
  return {
    verdicts: c.versions.map((s) => {
      let v: ReturnType<typeof parseVersion>;
      try {
        v = parseVersion(s, o);
      } catch (e) {
        return { error: (e as Error).message, check: false, reasons: [] };
      }
      const r = constraints.validate(v);
      return { check: constraints.check(v) && r.ok, reasons: r.reasons };
    }),
  };
}

describe("Masterminds releases against answers recorded from Go", () => {
  it("has the recorded cases of the generator's seed", () => {
    const random = seededRandom(20261130);
    expect(recorded).toHaveLength(1000);
    for (const r of recorded) {
      const { v340: _, v350: __, ...input } = r;
      expect(input).toEqual(releaseCase(random));
    }
  });

  it.each<SemverRelease>(["v3.4.0", "v3.5.0"])(
    "gives %s's answer for every recorded case",
    (release) => {
      const wrong = recorded.filter((r) => {
        const want = release === "v3.4.0" ? r.v340 : (r.v350 ?? r.v340);
        return JSON.stringify(answer(r, release)) !== JSON.stringify(want);
      });
      expect(wrong.map((r) => JSON.stringify(r).slice(0, 200))).toEqual([]);
    },
  );

  it("defaults to v3.5.0", () => {
    for (const r of recorded.filter((x) => x.v350 !== undefined).slice(0, 200)) {
      const { v340: _, v350: __, ...input } = r;
      const constraint = "constraint" in input ? input.constraint : undefined;
      if (constraint === undefined) continue;
      expect(message(() => parseConstraints(constraint).toString())).toEqual(
        message(() => parseConstraints(constraint, { semver: "v3.5.0" }).toString()),
      );
    }
  });

  it.each([
    { c: ">= 1, latest", release: "v3.4.0", message: "improper constraint: >= 1, latest" },
    { c: ">= 1, latest", release: "v3.5.0", message: 'improper constraint: ">= 1, latest"' },
    {
      c: `${"1.0.0 || ".repeat(32)}1`,
      release: "v3.5.0",
      message: "too many constraint groups (max 32)",
    },
    {
      c: `>=1.2.3-${"a".repeat(600)}`,
      release: "v3.5.0",
      message: "constraint string is too long (max 512 bytes)",
    },
    { c: `>=1.2.3-${"a".repeat(300)}`, release: "v3.5.0", message: "constraint parser error" },
  ] as const)("$release: $message", ({ c, release, message: want }) => {
    expect(() => parseConstraints(c, { semver: release })).toThrow(want);
  });

  it("accepts what v3.4.0 had no limit for", () => {
    expect(
      parseConstraints(`${"1.0.0 || ".repeat(32)}1`, { semver: "v3.4.0" }).groups,
    ).toHaveLength(33);
    expect(parseVersion(`1.2.3-${"a".repeat(300)}`, { semver: "v3.4.0" }).patchDigits).toBe("3");
    expect(() => parseVersion(`1.2.3-${"a".repeat(300)}`)).toThrow(
      expect.objectContaining({
        code: "VERSION_TOO_LONG",
        message: "version string is too long (max 256 bytes)",
      }),
    );
  });

  it("writes Validate's reasons bare for v3.4.0 and quoted for v3.5.0", () => {
    const v = parseVersion("1.0.0");
    expect(describeMiss("LESS", v, "2.0", "v3.4.0")).toBe("1.0.0 is less than 2.0");
    expect(describeMiss("LESS", v, "2.0")).toBe('"1.0.0" is less than "2.0"');
  });

  it("refuses a release it does not reproduce", () => {
    let error: unknown;
    try {
      parseConstraints("1", { semver: "v3.6.0" as never });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UpstreamReleaseError);
    expect(error).toMatchObject({
      upstream: "semver",
      value: "v3.6.0",
      accepted: ["v3.4.0", "v3.5.0"],
    });
  });
});
