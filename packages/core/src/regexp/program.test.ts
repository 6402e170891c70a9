import { describe, expect, it } from "vitest";
import { EmptyOp, emptyOpContext } from "./program.js";

describe("emptyOpContext (Go's syntax.EmptyOpContext)", () => {
  it.each([
    {
      what: "start of text, then a word character",
      r1: -1,
      r2: 0x61,
      want: EmptyOp.BeginText | EmptyOp.BeginLine | EmptyOp.WordBoundary,
    },
    {
      what: "a word character, then end of text",
      r1: 0x61,
      r2: -1,
      want: EmptyOp.EndText | EmptyOp.EndLine | EmptyOp.WordBoundary,
    },
    {
      what: "after a newline",
      r1: 0x0a,
      r2: 0x20,
      want: EmptyOp.BeginLine | EmptyOp.NoWordBoundary,
    },
    { what: "inside a word", r1: 0x61, r2: 0x62, want: EmptyOp.NoWordBoundary },
  ])("$what", ({ r1, r2, want }) => {
    expect(emptyOpContext(r1, r2)).toBe(want);
  });
});
