import { describe, expect, it } from "vitest";
import { nextLink } from "./link.js";

const base = "https://r.io/v2/a/tags/list";

describe("nextLink", () => {
  it.each([
    {
      header: '</v2/a/tags/list?last=b&n=100>; rel="next"',
      want: "https://r.io/v2/a/tags/list?last=b&n=100",
    },
    {
      header: "<https://r.io/v2/a/tags/list?next_page=gAAAA%3D>; rel=next",
      want: "https://r.io/v2/a/tags/list?next_page=gAAAA%3D",
    },
    {
      header: '<https://r.io/x>; rel="prev", <https://r.io/y>; rel="next"',
      want: "https://r.io/y",
    },
    { header: '<https://r.io/y>; rel="prev"', want: undefined },
    { header: null, want: undefined },
  ])("$header", ({ header, want }) => {
    expect(nextLink(header, base)).toBe(want);
  });
});
