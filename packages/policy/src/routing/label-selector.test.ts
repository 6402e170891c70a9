import { describe, expect, it } from "vitest";
import { isRoutingError } from "./errors.js";
import { parseLabelSelector } from "./label-selector.js";

const labels = { app: "web", tier: "front", "example.com/team": "core", n: "5", empty: "" };

describe("parseLabelSelector", () => {
  it.each([
    { selector: "", want: true }, // no requirement: everything
    { selector: "app=web", want: true },
    { selector: "app==web", want: true },
    { selector: "app!=web", want: false },
    { selector: "missing!=x", want: true }, // absent key satisfies !=
    { selector: "app", want: true },
    { selector: "!app", want: false },
    { selector: "!missing", want: true },
    { selector: "app in (web,api)", want: true },
    { selector: "app notin (web)", want: false },
    { selector: "missing notin (web)", want: true },
    { selector: "app in (api)", want: false },
    { selector: "app=web,tier=back", want: false }, // comma is AND
    { selector: "  app = web , tier  ", want: true },
    { selector: "example.com/team=core", want: true },
    { selector: "empty=", want: true }, // empty value
    { selector: "empty in ()", want: true }, // "()" is the empty value
    { selector: "app in (,web)", want: true },
    { selector: "n>4", want: true },
    { selector: "n<5", want: false },
    { selector: "app>1", want: false }, // not an integer on the label side
    { selector: "in in (in)", want: false }, // keywords read as identifiers in key and value position
    { selector: "app\0garbage", want: true }, // the Go lexer stops at byte 0
  ])("$selector matches: $want", ({ selector, want }) => {
    expect(parseLabelSelector(selector).matches(labels)).toBe(want);
  });

  it.each([
    "app=web=",
    "=web",
    "app in web",
    "app in (web",
    "app,",
    "!app=web",
    "app=web,,tier",
    "Bad_Prefix/app",
    "/app",
    "a/b/c",
    "app=-bad",
    `app=${"x".repeat(64)}`,
    `${"k".repeat(64)}`,
    "n>x",
    "app&web",
    "app=(web)",
  ])("refuses %j", (selector) => {
    let error: unknown;
    try {
      parseLabelSelector(selector);
    } catch (e) {
      error = e;
    }
    expect(isRoutingError(error)).toBe(true);
    expect((error as { code: string }).code).toBe("INVALID_LABEL_SELECTOR");
    expect((error as { input: string }).input).toBe(selector);
  });

  it("sorts requirements by key and values as Kubernetes does", () => {
    const s = parseLabelSelector("z in (b,a,b),a");
    expect(s.requirements).toEqual([
      { key: "a", operator: "exists", values: [] },
      { key: "z", operator: "in", values: ["a", "b"] },
    ]);
  });
});
