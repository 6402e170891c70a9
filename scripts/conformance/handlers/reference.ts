/**
 * The `reference` suite: one input through one of the five parsing
 * operations of distribution/reference, compared field by field.
 */
import {
  familiarName,
  familiarString,
  isNamed,
  parse,
  parseAnyReference,
  parseDockerRef,
  parseNamed,
  parseNormalizedNamed,
  type Reference,
} from "@kubeimg/core/reference";
import { expectOrError } from "../compare.js";
import type { SuiteHandler } from "../types.js";

const operations: Readonly<Record<string, (input: string) => Reference>> = {
  parse,
  parseNamed,
  parseNormalizedNamed,
  parseAnyReference,
  parseDockerRef,
};

/** The vector's `expect` object for a parsed reference. */
function describeReference(r: Reference): Record<string, unknown> {
  const common = { string: r.string, tag: null as string | null, digest: r.digest ?? null };
  if (!isNamed(r)) return common;
  return {
    ...common,
    tag: r.tag ?? null,
    name: r.name,
    domain: r.domain,
    path: r.path,
    familiarString: familiarString(r),
    familiarName: familiarName(r),
  };
}

const handler: SuiteHandler = {
  run(vector) {
    const op = operations[vector.op as string];
    const input = vector.input as string;
    return expectOrError(vector, () => {
      if (!op) throw new Error(`unknown op ${String(vector.op)}`);
      return describeReference(op(input));
    });
  },
};

export default handler;
