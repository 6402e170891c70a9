/**
 * The `platforms` suite: containerd/platforms v1.0.0-rc.4 through
 * `@kubeimg/core/platform` — parse, parseAll, format, formatAll, normalize,
 * a matcher's match and less, and the order and choice of an index's
 * platforms. Errors compare both the code and Go's exact message. Vectors
 * that used the machine's own platform (`usesHost`) ran on linux/amd64 with
 * no CPU variant; that host is passed in for every vector (the others do not
 * consult it).
 */
import {
  allPlatforms,
  anyOf,
  formatAllPlatform,
  formatPlatform,
  type HostPlatform,
  newMatcher,
  normalizePlatform,
  only,
  onlyOS,
  onlyStrict,
  ordered,
  PlatformError,
  type PlatformInput,
  type PlatformMatchComparer,
  type PlatformMatcher,
  type PlatformOptions,
  parseAllPlatforms,
  parsePlatform,
  selectPlatform,
  sortPlatforms,
  windowsHost,
} from "@kubeimg/core/platform";
import { jsonEqual } from "../compare.js";
import type { SuiteHandler, Vector, VectorOutcome } from "../types.js";

interface MatcherSpec {
  readonly kind: string;
  readonly platforms: readonly PlatformInput[];
}

interface PlatformVector extends Vector {
  readonly op: string;
  readonly input?: string;
  readonly inputs?: readonly string[];
  readonly platform?: PlatformInput;
  readonly matcher?: MatcherSpec;
  readonly candidate?: PlatformInput;
  readonly a?: PlatformInput;
  readonly b?: PlatformInput;
  readonly candidates?: readonly PlatformInput[];
}

const host: HostPlatform = { os: "linux", architecture: "amd64", variant: "" };

/** The release FORMAT.md names (v1.0.0-rc.4): the vectors keep testing it whatever the default. */
const options: PlatformOptions = { host, platforms: "rc.4" };

function first(spec: MatcherSpec): PlatformInput {
  const p = spec.platforms[0];
  if (p === undefined || spec.platforms.length !== 1)
    throw new Error(`${spec.kind} takes exactly one platform`);
  return p;
}

function comparer(spec: MatcherSpec): PlatformMatchComparer {
  switch (spec.kind) {
    case "only":
      return only(first(spec), options);
    case "onlyStrict":
      return onlyStrict(first(spec), options);
    case "onlyOS":
      return onlyOS(first(spec), options);
    case "ordered":
      return ordered(spec.platforms, options);
    case "any":
      return anyOf(spec.platforms, options);
    case "all":
      return allPlatforms;
    case "windowsHost":
      return windowsHost(first(spec), options);
    default:
      throw new Error(`unknown matcher kind ${spec.kind}`);
  }
}

function matcher(spec: MatcherSpec): PlatformMatcher {
  return spec.kind === "newMatcher" ? newMatcher(first(spec), options) : comparer(spec);
}

function compute(v: PlatformVector): unknown {
  const need = <T>(value: T | undefined, field: string): T => {
    if (value === undefined) throw new Error(`vector ${v.id} has no ${field}`);
    return value;
  };
  switch (v.op) {
    case "parse":
      return parsePlatform(need(v.input, "input"), options);
    case "parseAll":
      return parseAllPlatforms(need(v.inputs, "inputs"), options);
    case "format":
      return formatPlatform(need(v.platform, "platform"));
    case "formatAll":
      return formatAllPlatform(need(v.platform, "platform"));
    case "normalize":
      return normalizePlatform(need(v.platform, "platform"), options);
    case "match":
      return matcher(need(v.matcher, "matcher")).match(need(v.candidate, "candidate"));
    case "less":
      return comparer(need(v.matcher, "matcher")).less(need(v.a, "a"), need(v.b, "b"));
    case "order":
      return sortPlatforms(comparer(need(v.matcher, "matcher")), need(v.candidates, "candidates"));
    case "select":
      return {
        index:
          selectPlatform(comparer(need(v.matcher, "matcher")), need(v.candidates, "candidates")) ??
          null,
      };
    default:
      throw new Error(`unknown op ${v.op}`);
  }
}

const handler: SuiteHandler = {
  run(vector): VectorOutcome {
    const v = vector as PlatformVector;
    const expected = "error" in v ? { error: v.error, message: v.message } : { expect: v.expect };
    let got: unknown;
    try {
      got = { expect: compute(v) };
    } catch (error) {
      got =
        error instanceof PlatformError
          ? { error: error.code, message: error.message }
          : { error: `unexpected exception: ${String((error as Error)?.stack ?? error)}` };
    }
    return { ok: jsonEqual(expected, got), expected, got };
  },
};

export default handler;
