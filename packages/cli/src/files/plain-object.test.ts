import { describe, expect, it } from "vitest";
import { plainCopy } from "./plain-object.js";

describe("plainCopy", () => {
  it("takes out prototype keys at any depth and names their paths", () => {
    // Parsed from text: an object literal's __proto__ would set a prototype, not a key.
    const parsed = JSON.parse(
      '{"data":{"__proto__":{"x":1},"ok":"y"},"items":[{"constructor":2}],"prototype":3}',
    );
    const { value, removed } = plainCopy(parsed);
    expect(removed).toEqual(["data.__proto__", "items[0].constructor", "prototype"]);
    expect(JSON.parse(JSON.stringify(value))).toEqual({ data: { ok: "y" }, items: [{}] });
    expect(Object.getPrototypeOf((value as { data: object }).data)).toBeNull();
  });
});
