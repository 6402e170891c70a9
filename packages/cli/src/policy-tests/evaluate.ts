/**
 * One case, answered by the same library calls as the command that answers
 * it by hand: `kubeimg tags` (Flux, `--dialect argocd|kargo`), `kubeimg
 * route --check` (with the listed alternatives unavailable), `kubeimg route
 * --node-config` and `kubeimg pull-check`. Nothing is decided here; the
 * explain trace is built only for a case that fails or is new.
 */
import type { CaseAnswer, CaseContext } from "./case-support.js";
import { evaluatePull, evaluatePullCheck } from "./cases/pull.js";
import { evaluateRoute } from "./cases/route.js";
import { evaluateSelect } from "./cases/select.js";
import type { CaseKind } from "./spec.js";
import type { TestCase } from "./test-file.js";

export type { CaseAnswer, CaseContext, ListTags, Mismatch } from "./case-support.js";

const EVALUATORS: Record<CaseKind, (c: CaseContext, tc: TestCase) => Promise<CaseAnswer>> = {
  select: evaluateSelect,
  route: evaluateRoute,
  pull: evaluatePull,
  pullCheck: evaluatePullCheck,
};

/** Answers one case with the library, compared with its `expect`. */
export function evaluateCase(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
  return EVALUATORS[tc.kind](c, tc);
}
