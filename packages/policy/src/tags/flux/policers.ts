/**
 * Flux's three policers (`internal/policy` of image-reflector-controller
 * v1.2.0) and `PolicerFromSpec`, which picks one.
 *
 * Each policer ranks the keys it is given (the tags, or the values extracted
 * from them) and returns the winning key. `rank` does the same work while
 * recording, for every key, why it lost or won; it backs `explain`.
 */

import { strconv, strings } from "@kubeimg/core/internal";
import { isSemverError } from "../../semver/errors.js";
import {
  type Constraints,
  compareVersions,
  parseConstraints,
  type SemverOptions,
  tryParseTagVersion,
  type Version,
} from "../../semver/index.js";
import { hasPrerelease } from "../common/semver.js";
import { allTagsFiltered, TagPolicyError } from "./errors.js";
import type { ImagePolicyChoice } from "./types.js";

/** What a policer says about one key. */
export interface KeyVerdict {
  readonly key: string;
  readonly verdict: "selected" | "ranked" | "not-a-version" | "out-of-range" | "not-a-number";
  readonly reason: string;
}

/** A policer built from `spec.policy`. */
export interface Policer {
  readonly kind: "semver" | "alphabetical" | "numerical";
  /** Returns the winning key (Flux `Latest`); throws a {@link TagPolicyError}. */
  latest(keys: readonly string[]): string;
  /** Returns every key's verdict, and the winner or the error `latest` would give. */
  rank(keys: readonly string[]): {
    readonly verdicts: readonly KeyVerdict[];
    readonly winner?: string;
    readonly error?: TagPolicyError;
  };
}

function invalidPolicy(detail: string, input?: string): TagPolicyError {
  return new TagPolicyError(
    "INVALID_POLICY",
    `invalid policy: ${detail}`,
    input === undefined ? {} : { input },
  );
}

/** Mirrors the order check of `NewAlphabetical`/`NewNumerical` (after Flux upper-cases it). */
function parseOrder(order: string | undefined): "ASC" | "DESC" {
  const upper = goToUpper(order ?? "");
  if (upper === "" || upper === "ASC") return "ASC";
  if (upper === "DESC") return "DESC";
  throw invalidPolicy(
    `invalid order argument provided: '${upper}', must be one of: ASC, DESC`,
    order,
  );
}

/**
 * Go's `strings.ToUpper`: Unicode upper case, one code point at a time (no
 * `ß` → `SS` expansion as JavaScript's `toUpperCase` does).
 */
function goToUpper(s: string): string {
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return s.toUpperCase();
  let out = "";
  for (const ch of s) {
    const up = ch.toUpperCase();
    out += [...up].length === 1 ? up : ch;
  }
  return out;
}

/**
 * Returns the policer for `spec.policy` (Flux `PolicerFromSpec`): `semver`
 * wins over `alphabetical`, which wins over `numerical`; none is
 * `INVALID_POLICY`, as are a range that does not parse and an order other
 * than `ASC`/`DESC` in any case.
 */
export function policerFromSpec(choice: ImagePolicyChoice, options: SemverOptions = {}): Policer {
  if (choice.semver != null) {
    let constraints: Constraints;
    try {
      constraints = parseConstraints(choice.semver.range ?? "", options);
    } catch (error) {
      if (isSemverError(error)) throw invalidPolicy(error.message, choice.semver.range ?? "");
      throw error;
    }
    return semverPolicer(constraints, options);
  }
  if (choice.alphabetical != null)
    return alphabeticalPolicer(parseOrder(choice.alphabetical.order));
  if (choice.numerical != null) return numericalPolicer(parseOrder(choice.numerical.order));
  throw invalidPolicy("given ImagePolicyChoice object is invalid");
}

function noMatchingVersion(): TagPolicyError {
  return new TagPolicyError(
    "NO_MATCHING_VERSION",
    "unable to determine latest version from provided list",
  );
}

/** Flux `SemVer`: the greatest version in range; the first of equals wins. */
/** The most reasons an out-of-range verdict spells out; the rest are counted. */
const MAX_MISS_REASONS = 3;
/** The longest range text quoted in a verdict. */
const MAX_RANGE_TEXT = 120;

function semverPolicer(constraints: Constraints, options: SemverOptions): Policer {
  return {
    kind: "semver",
    latest(keys) {
      if (keys.length === 0) throw allTagsFiltered();
      let best: Version | undefined;
      const admitsPrerelease =
        constraints.includePrerelease || constraints.containsPrerelease.includes(true);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        // A pre-release can satisfy no group that lacks one: skip it unparsed.
        if (!admitsPrerelease && hasPrerelease(key)) continue;
        const v = tryParseTagVersion(key, options);
        if (v === undefined) continue;
        // Comparing first is cheaper and gives the same answer as Flux's
        // `Check(v) && v.GreaterThan(latest)`.
        if (best !== undefined && compareVersions(v, best) <= 0) continue;
        if (constraints.check(v)) best = v;
      }
      if (best === undefined) throw noMatchingVersion();
      return best.original;
    },
    rank(keys) {
      if (keys.length === 0) return { verdicts: [], error: allTagsFiltered() };
      // Each verdict names the range; a long one is shortened so that every
      // reason stays short whatever the range's size.
      const range =
        constraints.source.length <= MAX_RANGE_TEXT
          ? constraints.source
          : `${constraints.source.slice(0, MAX_RANGE_TEXT - 1)}…`;
      const parsed: { key: string; version?: Version; miss?: string }[] = [];
      let best: Version | undefined;
      for (const key of keys) {
        const version = tryParseTagVersion(key, options);
        if (version === undefined) {
          parsed.push({ key });
          continue;
        }
        // A few reasons per tag, not one per range group: the explain trace
        // stays proportional to the tags whatever the range.
        const result = constraints.validate(version, MAX_MISS_REASONS);
        if (!result.ok) {
          const more =
            result.omitted === undefined
              ? ""
              : `; and ${result.omitted} more (one per range group)`;
          parsed.push({ key, version, miss: result.reasons.join("; ") + more });
          continue;
        }
        parsed.push({ key, version });
        if (best === undefined || compareVersions(version, best) > 0) best = version;
      }
      const verdicts = parsed.map(({ key, version, miss }): KeyVerdict => {
        if (version === undefined) {
          return {
            key,
            verdict: "not-a-version",
            reason: `'${key}' is not a MAJOR.MINOR.PATCH version`,
          };
        }
        if (miss !== undefined) {
          return {
            key,
            verdict: "out-of-range",
            reason: `${version} is outside '${range}': ${miss}`,
          };
        }
        if (version === best) {
          return {
            key,
            verdict: "selected",
            reason: `the greatest version in '${range}'`,
          };
        }
        const b = best as Version;
        return {
          key,
          verdict: "ranked",
          reason:
            compareVersions(version, b) === 0
              ? `equal to ${b.original} (build metadata and a leading v are ignored), which comes first`
              : `lower than ${b.original}`,
        };
      });
      return best === undefined
        ? { verdicts, error: noMatchingVersion() }
        : { verdicts, winner: best.original };
    },
  };
}

/**
 * Flux `Alphabetical`: by UTF-8 bytes, ASC picks the greatest, DESC the smallest.
 *
 * JavaScript compares strings by UTF-16 code units, which orders them as
 * UTF-8 bytes do except when the first difference pits a surrogate (a code
 * point above U+FFFF) against a character in U+E000–U+FFFF. So the extreme
 * found with the native comparison is also the byte-order extreme whenever
 * it holds no character from U+D800 up; only otherwise do we rescan in byte
 * order. One check of one string instead of one per tag.
 */
function alphabeticalPolicer(order: "ASC" | "DESC"): Policer {
  const policer = alphabeticalRanking(order);
  orders.set(policer, order);
  return policer;
}

/** The order an alphabetical or numerical policer ranks in, for the single-pass selection. */
const orders = new WeakMap<Policer, "ASC" | "DESC">();

/** Returns `ASC` or `DESC` for a policer built by {@link policerFromSpec} with an order. */
export function policerOrder(policer: Policer): "ASC" | "DESC" | undefined {
  return orders.get(policer);
}

function alphabeticalRanking(order: "ASC" | "DESC"): Policer {
  const sign = order === "ASC" ? 1 : -1;
  const highChars = /[\uD800-\uFFFF]/;
  function pick(keys: readonly string[]): string {
    let best = keys[0] as string;
    if (sign > 0) {
      for (let i = 1; i < keys.length; i++) {
        const key = keys[i] as string;
        if (key > best) best = key;
      }
    } else {
      for (let i = 1; i < keys.length; i++) {
        const key = keys[i] as string;
        if (key < best) best = key;
      }
    }
    if (!highChars.test(best)) return best;
    best = keys[0] as string;
    for (let i = 1; i < keys.length; i++) {
      const key = keys[i] as string;
      if (strings.Compare(key, best) * sign > 0) best = key;
    }
    return best;
  }
  return {
    kind: "alphabetical",
    latest(keys) {
      if (keys.length === 0) throw allTagsFiltered();
      return pick(keys);
    },
    rank(keys) {
      if (keys.length === 0) return { verdicts: [], error: allTagsFiltered() };
      const winner = pick(keys);
      const word = order === "ASC" ? "before" : "after";
      const verdicts = keys.map(
        (key): KeyVerdict =>
          key === winner
            ? {
                key,
                verdict: "selected",
                reason: `the ${order === "ASC" ? "last" : "first"} in byte order`,
              }
            : { key, verdict: "ranked", reason: `sorts ${word} '${winner}'` },
      );
      return { verdicts, winner };
    },
  };
}

function invalidNumber(key: string): TagPolicyError {
  return new TagPolicyError("INVALID_NUMBER", `failed to parse invalid numeric value '${key}'`, {
    input: key,
  });
}

/**
 * Flux `Numerical`: every key must be a Go float; one pass keeps a later
 * value unless it is strictly smaller (ASC) or larger (DESC), so the last of
 * equals wins and a NaN breaks the order as in Go.
 */
function numericalPolicer(order: "ASC" | "DESC"): Policer {
  const policer = numericalRanking(order);
  orders.set(policer, order);
  return policer;
}

function numericalRanking(order: "ASC" | "DESC"): Policer {
  const asc = order === "ASC";
  return {
    kind: "numerical",
    latest(keys) {
      if (keys.length === 0) throw allTagsFiltered();
      let latest = "";
      let pv = 0;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        // Inline fast path: up to 15 ASCII digits are an exact integer.
        const n = key.length;
        let cv = 0;
        let j = 0;
        if (n > 0 && n <= 15) {
          for (; j < n; j++) {
            const c = key.charCodeAt(j) - 0x30;
            if (c < 0 || c > 9) break;
            cv = cv * 10 + c;
          }
        }
        if (j !== n || n === 0) {
          const parsed = strconv.ParseFloat(key);
          if (parsed === undefined) throw invalidNumber(key);
          cv = parsed;
        }
        if (i > 0 && (asc ? cv < pv : cv > pv)) continue;
        latest = key;
        pv = cv;
      }
      return latest;
    },
    rank(keys) {
      if (keys.length === 0) return { verdicts: [], error: allTagsFiltered() };
      let error: TagPolicyError | undefined;
      let latest = "";
      let pv = 0;
      const values: (number | undefined)[] = [];
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const cv = strconv.ParseFloat(key);
        values.push(cv);
        if (error !== undefined) continue;
        if (cv === undefined) {
          error = invalidNumber(key);
          continue;
        }
        if (i > 0 && (asc ? cv < pv : cv > pv)) continue;
        latest = key;
        pv = cv;
      }
      const verdicts = keys.map((key, i): KeyVerdict => {
        const value = values[i];
        if (value === undefined) {
          return {
            key,
            verdict: "not-a-number",
            reason: `'${key}' is not a number to Go's strconv.ParseFloat; one such tag fails the whole selection`,
          };
        }
        if (error === undefined && key === latest) {
          return { key, verdict: "selected", reason: `the ${asc ? "largest" : "smallest"} value` };
        }
        return {
          key,
          verdict: "ranked",
          reason:
            error === undefined
              ? `not kept: a value replaces the held one unless it is strictly ${asc ? "smaller" : "larger"}, and '${latest}' was kept last`
              : `${value}, not considered: the selection failed`,
        };
      });
      return error === undefined ? { verdicts, winner: latest } : { verdicts, error };
    },
  };
}
