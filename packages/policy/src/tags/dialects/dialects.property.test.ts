/**
 * Internal consistency of the Argo CD and Kargo dialects over random cases
 * from the grammar the differential runs against the upstream Go code use
 * (`dialect-cases.test-support.ts`). Go is not needed here: these hold
 * between our own entry points.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ArgoConfig, readArgoConfig } from "../argocd/config.js";
import { selectArgoTag } from "../argocd/select.js";
import type { DialectSelection, TagInfo } from "../common/types.js";
import type { TagSelectionPolicy } from "../flux/types.js";
import { selectKargoTag } from "../kargo/select.js";
import type { KargoImageSubscription } from "../kargo/subscription.js";
import { compareTagSelections } from "./compare.js";
import {
  argoCase,
  type DialectCase,
  dialectTagName,
  kargoCase,
} from "./dialect-cases.test-support.js";
import { translateFluxToArgo, translateFluxToKargo, translateKargoToFlux } from "./translate.js";

const runs = { numRuns: 400 };

function select(c: DialectCase, tags: readonly TagInfo[], explain: boolean): DialectSelection {
  return c.dialect === "kargo"
    ? selectKargoTag(c.config, tags, { explain })
    : selectArgoTag(c.config, tags, { explain });
}

/** What a selection answers, without the trace. */
function answer(s: DialectSelection) {
  return { tag: s.tag, digest: s.digest, discovered: s.discovered, outcome: s.outcome?.code };
}

/** One entry per name, with the metadata of its last occurrence (what both updaters read). */
function lastOccurrences(tags: readonly TagInfo[]): TagInfo[] {
  const byName = new Map<string, TagInfo>();
  for (const t of tags) {
    byName.delete(t.name);
    byName.set(t.name, t);
  }
  return [...byName.values()];
}

const anyCase = fc.oneof(argoCase, kargoCase);

describe("dialect selection, checked against itself", () => {
  it("answers the same with and without the explain trace", () => {
    fc.assert(
      fc.property(anyCase, (c) => {
        expect(answer(select(c, c.tags, true))).toEqual(answer(select(c, c.tags, false)));
      }),
      runs,
    );
  });

  it("has a trace whose verdicts agree with the pick", () => {
    fc.assert(
      fc.property(anyCase, (c) => {
        const s = select(c, c.tags, true);
        if (s.tags.length === 0) return; // the configuration failed before any tag was read
        expect(s.tags.map((t) => t.tag)).toEqual(c.tags.map((t) => t.name));
        const selected = s.tags.filter((t) => t.verdict === "selected");
        if (s.tag === undefined) {
          expect(selected).toEqual([]);
          expect(s.outcome).toBeDefined();
          return;
        }
        expect(s.outcome).toBeUndefined();
        expect(selected.length).toBeGreaterThan(0);
        for (const t of selected) expect(t.tag).toBe(s.tag);
        const discovered = new Set(s.discovered);
        expect(discovered.has(s.tag)).toBe(true);
        if (c.dialect !== "kargo") {
          expect(s.discovered).toEqual([s.tag]); // Argo CD discovers its pick alone
          return;
        }
        // Kargo's tag-based strategies discover each listing of a name; Digest looks
        // the one tag up, and every listing of it is the pick.
        const kept = s.tags.filter((t) => t.verdict === "selected" || t.verdict === "ranked");
        if ((c.config as KargoImageSubscription).imageSelectionStrategy === "Digest")
          expect(new Set(kept.map((t) => t.tag))).toEqual(discovered);
        else expect(kept.map((t) => t.tag).sort()).toEqual([...s.discovered].sort());
        const listings = new Map<string, number>();
        for (const t of c.tags) listings.set(t.name, (listings.get(t.name) ?? 0) + 1);
        for (const t of s.tags) {
          // A name listed once that failed a rule, or ranked past the limit, is not discovered.
          if (listings.get(t.tag) === 1 && t.verdict !== "selected" && t.verdict !== "ranked")
            expect(discovered.has(t.tag)).toBe(false);
        }
      }),
      runs,
    );
  });

  it("picks the same whatever the listing order", () => {
    fc.assert(
      fc.property(anyCase, fc.integer(), (c, seed) => {
        const tags = lastOccurrences(c.tags);
        const shuffled = [...tags];
        let x = seed;
        for (let i = shuffled.length - 1; i > 0; i--) {
          x = (Math.imul(x, 1103515245) + 12345) | 0;
          const j = Math.abs(x) % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j] as TagInfo, shuffled[i] as TagInfo];
        }
        expect(answer(select(c, shuffled, false))).toEqual(answer(select(c, tags, false)));
      }),
      runs,
    );
  });

  it("reads the Argo CD configuration the same way selection does", () => {
    fc.assert(
      fc.property(argoCase, (c) => {
        const read = readArgoConfig(c.config as ArgoConfig);
        const s = selectArgoTag(c.config as ArgoConfig, c.tags);
        expect("message" in read).toBe(s.outcome?.code === "INVALID_CONFIG");
      }),
      runs,
    );
  });
});

const tagList = fc.array(
  dialectTagName.map((name) => ({ name })),
  { maxLength: 10 },
);

const fluxPolicy: fc.Arbitrary<TagSelectionPolicy> = fc.record(
  {
    policy: fc.oneof(
      fc.record({
        alphabetical: fc.record({ order: fc.constantFrom("asc", "desc") }, { requiredKeys: [] }),
      }),
      fc.record({
        semver: fc.record({ range: fc.constantFrom(">=1.0.0", "^1.0", "*", ">=0.0.0-0") }),
      }),
      fc.record({
        numerical: fc.record({ order: fc.constantFrom("asc", "desc") }, { requiredKeys: [] }),
      }),
    ),
    filterTags: fc.record(
      {
        pattern: fc.constantFrom("", "^v", "^[0-9]", "rc", "(?i)^V1", "["),
        extract: fc.constantFrom("", "$0"),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ["policy"] },
);

/** Whether a selection ran to the end (the configuration was accepted). */
const ran = (code: string | undefined) =>
  code === undefined || code === "NO_CANDIDATES" || code === "NO_TAGS";

describe("translate says exact only when compare agrees", () => {
  it("Flux → Kargo and Flux → Argo CD", () => {
    fc.assert(
      fc.property(fluxPolicy, tagList, (flux, tags) => {
        const toKargo = translateFluxToKargo(flux, "ghcr.io/acme/app");
        const toArgo = translateFluxToArgo(flux, "ghcr.io/acme/app");
        const c = compareTagSelections({
          tags,
          flux,
          kargo: toKargo.config,
          argocd: toArgo.config,
        });
        const [f, a, k] = ["flux", "argocd-image-updater", "kargo"].map((d) =>
          c.picks.find((p) => p.dialect === d),
        );
        if (toKargo.exact) expect(k?.tag).toBe(f?.tag);
        if (toArgo.exact) expect(a?.tag).toBe(f?.tag);
      }),
      runs,
    );
  });

  it("Kargo → Flux, for subscriptions Kargo accepts", () => {
    fc.assert(
      fc.property(kargoCase, (c) => {
        const sub = c.config as KargoImageSubscription;
        const t = translateKargoToFlux(sub);
        const cmp = compareTagSelections({ tags: c.tags, kargo: sub, flux: t.config });
        const k = cmp.picks.find((p) => p.dialect === "kargo");
        const f = cmp.picks.find((p) => p.dialect === "flux");
        if (t.exact && ran(k?.outcome)) expect(f?.tag).toBe(k?.tag);
      }),
      runs,
    );
  });
});
