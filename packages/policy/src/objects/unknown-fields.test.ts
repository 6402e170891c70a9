import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { findUnknownMetadataFields } from "./object-meta.js";
import { describeUnknownField, fieldPathText, findUnknownFields } from "./unknown-fields.js";

describe("findUnknownFields", () => {
  it("reports a misspelled field with the name it probably meant", () => {
    expect(findUnknownFields(z.object({ registry: z.string() }), { registy: "x" })).toEqual([
      { path: ["registy"], suggestion: "registry" },
    ]);
  });

  it("reports an unknown field of metadata with the ObjectMeta name it probably meant", () => {
    expect(findUnknownMetadataFields({ nmae: "x" }, ["metadata"])).toEqual([
      { path: ["metadata", "nmae"], suggestion: "name" },
    ]);
  });
});

describe("fieldPathText and describeUnknownField", () => {
  it("write paths as Kubernetes does", () => {
    expect(fieldPathText(["spec", "mirrors", 0, "registy"])).toBe("spec.mirrors[0].registy");
  });

  it.each([
    {
      field: { path: ["spec", "filterTag"], suggestion: "filterTags" },
      want: 'unknown field "spec.filterTag" (did you mean "filterTags"?)',
    },
    { field: { path: ["spec", "zzz"] }, want: 'unknown field "spec.zzz"' },
  ])("$want", ({ field, want }) => {
    expect(describeUnknownField(field)).toBe(want);
  });
});
