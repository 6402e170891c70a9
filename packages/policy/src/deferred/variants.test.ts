import { describe, expect, it } from "vitest";
import * as yamlDefault from "./yaml-default.js";
import * as yamlNode from "./yaml-node.js";
import * as zodDefault from "./zod-default.js";
import * as zodNode from "./zod-node.js";

/**
 * The code type-checks against the Node variants only; a name missing from
 * a default variant would break bundles, not `tsc`.
 */
describe("#zod and #yaml variants", () => {
  it("export the same names", () => {
    expect(Object.keys(zodNode).sort()).toEqual(Object.keys(zodDefault).sort());
    expect(Object.keys(yamlNode).sort()).toEqual(Object.keys(yamlDefault).sort());
  });

  it("answer alike", () => {
    const schema = zodNode.object({ name: zodNode.string() });
    const issue = zodDefault.safeParse(schema, { name: 1 }, { error: zodNode.en().localeError });
    expect(issue.error?.issues[0]?.message).toBe("Invalid input: expected string, received number");
    const counter = new yamlNode.LineCounter();
    const document = yamlNode.parseDocument("a: [1, 2]\n", { lineCounter: counter });
    expect(document.toJS()).toEqual({ a: [1, 2] });
    expect(counter).toBeInstanceOf(yamlDefault.LineCounter);
    expect(counter.linePos(3)).toEqual({ line: 1, col: 4 });
  });
});
