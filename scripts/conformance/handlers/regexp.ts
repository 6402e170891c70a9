/**
 * The `regexp` suite: Go `regexp.Compile`, `MatchString` and Flux's use of
 * `FindStringSubmatchIndex` + `ExpandString`, through `@kubeimg/core/regexp`.
 */
import { compileRegexp } from "@kubeimg/core/regexp";
import { expectOrError } from "../compare.js";
import type { SuiteHandler, Vector } from "../types.js";

interface RegexpVector extends Vector {
  readonly op: "compile" | "match" | "expand";
  readonly pattern: string;
  readonly input?: string;
  readonly template?: string;
}

const handler: SuiteHandler = {
  run(vector) {
    const v = vector as RegexpVector;
    return expectOrError(v, () => {
      const re = compileRegexp(v.pattern);
      switch (v.op) {
        case "compile":
          return { numSubexp: re.numSubexp, subexpNames: [...re.subexpNames()] };
        case "match":
          return re.matchString(v.input ?? "");
        case "expand": {
          const input = v.input ?? "";
          const match = re.findStringSubmatchIndex(input);
          return match === null ? null : re.expandString(v.template ?? "", input, match);
        }
        default:
          throw new Error(`unknown op ${String((v as { op: unknown }).op)}`);
      }
    });
  },
};

export default handler;
