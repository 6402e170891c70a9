/**
 * What a selection checks of a raw tag list (`readTags` in
 * `common/prepared.ts`): every entry's shape (an object, a string name,
 * fields of their types) whatever the strategy; in full (no unknown field, a
 * time that parses, a digest's 64 hex digits, platform strings) every entry
 * whose metadata the selection reads: all of them for newest-build and a
 * Kargo `platform`, else the last entry of the pick's name (Kargo reports
 * its digest) or of the tag the digest strategies follow. Content nobody
 * reads cannot change an answer, so it is not read: a malformed field there
 * leaves the answer as it is, and a malformed field that is read throws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { selectArgoTag } from "../argocd/select.js";
import type { DialectSelection, TagInfo } from "../common/types.js";
import { selectKargoTag } from "../kargo/select.js";
import { argoCase, attemptSelection, kargoCase, selectCase } from "./dialect-cases.test-support.js";

/** Content of the right type but malformed, one field at a time. */
const corruptions: readonly [string, unknown][] = [
  ["created", "yesterday"],
  ["digest", "sha256:x"],
  ["platforms", []],
  ["tag", "x"],
];

function corrupt(tags: readonly TagInfo[], k: number, field: string, value: unknown): TagInfo[] {
  return tags.map((t, i) => (i === k ? ({ ...t, [field]: value } as TagInfo) : t));
}

const d = (c: string) => `sha256:${c.repeat(64)}`;
const list: TagInfo[] = [
  { name: "1.0.0", created: "2024-01-01T00:00:00Z", digest: d("a") },
  { name: "1.1.0", created: "2024-01-02T00:00:00Z", digest: d("b") },
  { name: "0.9.0", created: "2024-01-03T00:00:00Z", digest: d("c") },
];
const repo = "ghcr.io/acme/app";

describe("what a selection checks of a raw tag list", () => {
  it("leaves content it never reads unread, and throws for content it reads", () => {
    const semver = { imageName: "app" };
    const digest = { imageName: "app:1.0.0", settings: { image: { updateStrategy: "digest" } } };
    const newest = { imageName: "app", settings: { image: { updateStrategy: "newest-build" } } };
    const lexical = { repoURL: repo, imageSelectionStrategy: "Lexical" as const };
    const newestBuild = { repoURL: repo, imageSelectionStrategy: "NewestBuild" as const };
    // Entry 2 is read by no selection by name, nor by a digest one following 1.0.0.
    const badTime = corrupt(list, 2, "created", "yesterday");
    const badDigest = corrupt(list, 2, "digest", "sha256:x");
    expect(selectArgoTag(semver, badTime).tag).toBe("1.1.0");
    expect(selectArgoTag(digest, badDigest)).toMatchObject({ tag: "1.0.0", digest: d("a") });
    expect(selectArgoTag(digest, badDigest, { explain: true }).tag).toBe("1.0.0");
    expect(selectKargoTag(lexical, badDigest).tag).toBe("1.1.0");
    expect(selectKargoTag(lexical, badDigest, { explain: true }).tag).toBe("1.1.0");
    // Read: every entry's time by newest-build, the followed tag's and the pick's entries.
    const refused = (run: () => unknown, path: string) =>
      expect(run).toThrow(expect.objectContaining({ code: "INVALID_INPUT", path }));
    refused(() => selectArgoTag(newest, badTime), "tags[2].created");
    refused(() => selectKargoTag(newestBuild, badTime), "tags[2].created");
    refused(() => selectKargoTag(newestBuild, badDigest), "tags[2].digest");
    refused(() => selectArgoTag(digest, corrupt(list, 0, "digest", "x")), "tags[0].digest");
    refused(() => selectArgoTag(digest, corrupt(list, 0, "tag", 1)), "tags[0].tag");
    refused(() => selectKargoTag(lexical, corrupt(list, 1, "digest", "x")), "tags[1].digest");
    for (const explain of [false, true]) {
      refused(
        () => selectKargoTag(lexical, corrupt(list, 1, "created", "x"), { explain }),
        "tags[1].created",
      );
    }
    // Every entry's shape, whatever the strategy.
    refused(() => selectArgoTag(digest, corrupt(list, 2, "created", null)), "tags[2].created");
    refused(() => selectKargoTag(lexical, corrupt(list, 2, "platforms", "x")), "tags[2].platforms");
  });

  it("answers as for the valid list, or throws for the malformed entry when it reads it", () => {
    const cases = fc
      .oneof(argoCase, kargoCase)
      .filter((c) => c.tags.length > 0)
      .chain((c) =>
        fc.tuple(
          fc.constant(c),
          fc.nat(c.tags.length - 1),
          fc.constantFrom(...corruptions),
          fc.boolean(),
        ),
      );
    fc.assert(
      fc.property(cases, ([c, k, [field, value], explain]) => {
        const valid = attemptSelection(() => selectCase(c, c.tags, explain)) as {
          ok?: DialectSelection;
        };
        const bad = corrupt(c.tags, k, field, value);
        const got = attemptSelection(() => selectCase(c, bad, explain));
        // The trace reads what the pick reads.
        const other = attemptSelection(() => selectCase(c, bad, !explain)) as {
          ok?: DialectSelection;
        };
        if ("ok" in (got as object)) {
          const { tag, digest, discovered, outcome } = (got as { ok: DialectSelection }).ok;
          expect(other.ok).toMatchObject({ tag, digest, discovered, outcome });
        } else {
          expect(other).toEqual(got);
        }
        if (!("ok" in (got as object))) {
          expect(got).toMatchObject({ code: "INVALID_INPUT", path: `tags[${k}].${field}` });
        } else {
          expect(got).toEqual(valid);
        }
        // The entry a pick's digest comes from is always read.
        const pick = valid.ok?.tag;
        const reportsDigest = c.dialect === "kargo" || valid.ok?.digest !== undefined;
        if (
          pick !== undefined &&
          reportsDigest &&
          c.tags.map((t) => t.name).lastIndexOf(pick) === k
        ) {
          expect(got).toMatchObject({ path: `tags[${k}].${field}` });
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("checks in full one entry for a digest or by-name selection, every entry for newest-build", () => {
    const n = 1000;
    let full = 0;
    // A full check enumerates an entry's keys (unknown fields); a shape check does not.
    const counted = (tag: TagInfo): TagInfo =>
      new Proxy(tag, {
        ownKeys(target) {
          full++;
          return Reflect.ownKeys(target);
        },
      });
    const tags = Array.from({ length: n }, (_, i) =>
      counted({
        name: `1.${i}.0`,
        created: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
        digest: d((i % 10).toString()),
      }),
    );
    const fullChecks = (run: () => DialectSelection): number => {
      full = 0;
      expect(run().tag).toBeDefined();
      return full;
    };
    const digest = { imageName: "app:1.500.0", settings: { image: { updateStrategy: "digest" } } };
    for (const explain of [false, true]) {
      expect(fullChecks(() => selectArgoTag(digest, tags, { explain }))).toBe(1);
      expect(fullChecks(() => selectArgoTag({ imageName: "app" }, tags, { explain }))).toBe(0);
      const lexical = { repoURL: repo, imageSelectionStrategy: "Lexical" as const };
      expect(fullChecks(() => selectKargoTag(lexical, tags, { explain }))).toBe(1);
      const sub = { repoURL: repo, imageSelectionStrategy: "Digest" as const, constraint: "1.7.0" };
      expect(fullChecks(() => selectKargoTag(sub, tags, { explain }))).toBe(1);
      const newest = { imageName: "app", settings: { image: { updateStrategy: "newest-build" } } };
      expect(fullChecks(() => selectArgoTag(newest, tags, { explain }))).toBe(n);
    }
  });
});
