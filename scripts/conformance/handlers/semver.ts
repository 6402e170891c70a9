/**
 * The `semver` suite: Masterminds/semver v3 `NewVersion`, `NewConstraint` +
 * `Check`, `Compare`, and Flux's `version.ParseVersion`, through
 * `@kubeimg/policy/semver`, as the Masterminds release FORMAT.md names
 * (v3.5.0, which Flux pins) whatever the library's default.
 */
import {
  parseConstraints,
  parseTagVersion,
  parseVersion,
  SemverError,
  type Version,
} from "@kubeimg/policy/semver";
import { expectOrError } from "../compare.js";
import type { SuiteHandler, Vector } from "../types.js";

const release = { semver: "v3.5.0" } as const;

interface SemverVector extends Vector {
  readonly op: "parseVersion" | "parseTagVersion" | "check" | "compare";
  readonly input?: string;
  readonly constraint?: string;
  readonly version?: string;
  readonly v1?: string;
  readonly v2?: string;
}

function describe(v: Version) {
  return {
    string: v.toString(),
    original: v.original,
    major: v.majorDigits,
    minor: v.minorDigits,
    patch: v.patchDigits,
    prerelease: v.prerelease,
    metadata: v.metadata,
  };
}

/** Parses a version where any failure is reported as `VERSION_INVALID`. */
function versionOperand(text: string): Version {
  try {
    return parseVersion(text, release);
  } catch (error) {
    if (error instanceof SemverError)
      throw Object.assign(new Error(error.message), { code: "VERSION_INVALID" });
    throw error;
  }
}

const handler: SuiteHandler = {
  run(vector) {
    const v = vector as SemverVector;
    return expectOrError(v, () => {
      switch (v.op) {
        case "parseVersion":
          return describe(parseVersion(v.input ?? "", release));
        case "parseTagVersion":
          return describe(parseTagVersion(v.input ?? "", release));
        case "check": {
          const constraints = parseConstraints(v.constraint ?? "", release);
          return constraints.check(versionOperand(v.version ?? ""));
        }
        case "compare":
          return versionOperand(v.v1 ?? "").compare(versionOperand(v.v2 ?? ""));
        default:
          throw new Error(`unknown op ${String((v as { op: unknown }).op)}`);
      }
    });
  },
};

export default handler;
