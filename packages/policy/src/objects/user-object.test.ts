import { describe, expect, it } from "vitest";
import { copyUserValue } from "./user-object.js";

describe("copyUserValue", () => {
  it("takes a __proto__ key out and reports its path", () => {
    const { value, prototypeKeys } = copyUserValue(
      JSON.parse('{"spec":{"__proto__":{"a":1},"b":null}}'),
      {
        dropNulls: true,
      },
    );
    expect(prototypeKeys).toEqual([["spec", "__proto__"]]);
    expect(JSON.stringify(value)).toBe('{"spec":{}}');
  });
});
