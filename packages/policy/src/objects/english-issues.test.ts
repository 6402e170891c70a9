import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { safeParseEnglish } from "./english-issues.js";

describe("safeParseEnglish", () => {
  const schema = z.object({ name: z.string(), tags: z.array(z.string()).check(z.maxLength(1)) });

  it.each([
    {
      input: { name: 1, tags: [] },
      path: ["name"],
      message: "Invalid input: expected string, received number",
    },
    {
      input: { name: "a", tags: ["x", "y"] },
      path: ["tags"],
      message: "Too big: expected array to have <=1 items",
    },
    { input: "x", path: [], message: "Invalid input: expected object, received string" },
  ])("words $message", ({ input, path, message }) => {
    const result = safeParseEnglish(schema, input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([[path, message]]);
  });

  it("keeps a message the schema sets itself", () => {
    const named = z.string().check(z.minLength(1, "must not be empty"));
    expect(safeParseEnglish(named, "").error?.issues[0]?.message).toBe("must not be empty");
  });

  it("leaves zod's global configuration alone", () => {
    safeParseEnglish(schema, 1);
    // zod/mini loads no locale: without one, a plain parse says only "Invalid input".
    expect(z.safeParse(z.string(), 1).error?.issues[0]?.message).toBe("Invalid input");
  });

  it("returns the parsed data", () => {
    expect(safeParseEnglish(schema, { name: "a", tags: [] })).toEqual({
      success: true,
      data: { name: "a", tags: [] },
    });
  });
});
