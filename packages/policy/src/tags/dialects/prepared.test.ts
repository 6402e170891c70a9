/**
 * A prepared tag list answers exactly as the raw array it was prepared from,
 * in every dialect and strategy, with and without the trace, over the
 * differential grammar's cases; it throws what a selection over the raw
 * array throws, and it cannot be built unchecked or changed afterwards.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { selectArgoTag } from "../argocd/select.js";
import { PreparedTagList, prepareTagList } from "../common/prepared.js";
import type { TagInfo } from "../common/types.js";
import { selectKargoTag } from "../kargo/select.js";
import { compareTagSelections } from "./compare.js";
import { argoCase, attemptSelection, kargoCase, selectCase } from "./dialect-cases.test-support.js";
import { guardSelection } from "./guards.js";

describe("a prepared tag list", () => {
  it("answers as the raw array in every dialect and strategy, with and without the trace", () => {
    fc.assert(
      fc.property(fc.oneof(argoCase, kargoCase), fc.boolean(), (c, explain) => {
        const raw = attemptSelection(() => selectCase(c, c.tags, explain));
        if (!(raw as { ok?: unknown }).ok) {
          expect(attemptSelection(() => selectCase(c, prepareTagList(c.tags), explain))).toEqual(
            raw,
          );
          return;
        }
        const prepared = prepareTagList(c.tags);
        expect(attemptSelection(() => selectCase(c, prepared, explain))).toEqual(raw);
        // Selecting twice from one prepared list answers the same (nothing is used up).
        expect(attemptSelection(() => selectCase(c, prepared, explain))).toEqual(raw);
      }),
      { numRuns: 2000 },
    );
  });

  it("throws the raw array's error for the first bad entry when it is prepared", () => {
    const bad = [
      { name: "1.0.0" },
      { name: "2.0.0", digest: "sha256:x" },
      { name: "3.0.0", created: "yesterday" },
    ] as TagInfo[];
    // NewestBuild reads every entry in full, as preparing does.
    const sub = { repoURL: "ghcr.io/acme/app", imageSelectionStrategy: "NewestBuild" as const };
    const expected = attemptSelection(() => selectKargoTag(sub, bad));
    expect(expected).toMatchObject({ code: "INVALID_INPUT", path: "tags[1].digest" });
    expect(attemptSelection(() => selectKargoTag(sub, prepareTagList(bad)))).toEqual(expected);
    expect(() => prepareTagList({ name: "x" } as unknown as TagInfo[])).toThrow(
      expect.objectContaining({ path: "tags" }),
    );
    expect(() => prepareTagList([{ name: "a", extra: 1 } as unknown as TagInfo])).toThrow(
      expect.objectContaining({ path: "tags[0].extra", value: 1 }),
    );
  });

  it("cannot be built without prepareTagList, and holds no readable fields", () => {
    const Ctor = PreparedTagList as unknown as new (key: symbol, data: unknown) => unknown;
    expect(() => new Ctor(Symbol("PreparedTagList"), {})).toThrow(TypeError);
    const list = prepareTagList([{ name: "a" }]);
    expect(Object.keys(list)).toEqual([]);
    expect(PreparedTagList.isPrepared(list)).toBe(true);
    expect(PreparedTagList.isPrepared(Object.create(PreparedTagList.prototype))).toBe(false);
    expect(PreparedTagList.isPrepared([{ name: "a" }])).toBe(false);
    expect(prepareTagList(list)).toBe(list);
  });

  it("is not changed by changing the entries or what it hands out", () => {
    const platforms = ["linux/amd64"];
    const entries: { name: string; created?: string; platforms?: string[] }[] = [
      { name: "a", created: "2024-01-02T00:00:00Z", platforms },
      { name: "b", created: "2024-01-01T00:00:00Z" },
    ];
    const list = prepareTagList(entries);
    const config = { imageName: "app", settings: { image: { updateStrategy: "newest-build" } } };
    expect(selectArgoTag(config, list).tag).toBe("a");
    entries[0] = { name: "c", created: "2020-01-01T00:00:00Z" };
    platforms[0] = "windows/arm64";
    ((list.toArray()[0] as TagInfo).platforms as string[]).push("x");
    expect(selectArgoTag(config, list).tag).toBe("a");
    expect(list.length).toBe(2);
    expect(list.toArray()).toEqual([
      { name: "a", created: "2024-01-02T00:00:00Z", platforms: ["linux/amd64"] },
      { name: "b", created: "2024-01-01T00:00:00Z" },
    ]);
  });

  it("is what compareTagSelections and guardSelection take as well", () => {
    const tags = [
      { name: "1.2", created: 3 },
      { name: "1.1.0", created: 2 },
      { name: "1.3.0-rc.1", created: 1 },
    ];
    const input = {
      flux: { policy: { semver: { range: ">=1.0.0" } } },
      argocd: { imageName: "app" },
      kargo: { repoURL: "ghcr.io/acme/app", strictSemvers: false },
    };
    expect(compareTagSelections({ ...input, tags: prepareTagList(tags) })).toEqual(
      compareTagSelections({ ...input, tags }),
    );
    const sub = { repoURL: "ghcr.io/acme/app", imageSelectionStrategy: "NewestBuild" as const };
    const guards = { minAgeMs: 1, now: new Date(3), current: "1.1.0", noDowngrade: true };
    const run = (list: readonly TagInfo[]) => selectKargoTag(sub, list);
    const guarded = guardSelection(run, prepareTagList(tags), guards);
    expect(guarded).toEqual(guardSelection(run, tags, guards));
    expect(guarded.tag).toBe("1.1.0");
  });
});
