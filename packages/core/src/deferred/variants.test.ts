import { describe, expect, it } from "vitest";
import * as zodDefault from "./zod-default.js";
import * as zodNode from "./zod-node.js";

/**
 * The code type-checks against the Node variant only; a name missing from
 * the default variant would break bundles, not `tsc`.
 */
describe("#zod variants", () => {
  it("export the same names", () => {
    expect(Object.keys(zodNode).sort()).toEqual(Object.keys(zodDefault).sort());
  });
});
