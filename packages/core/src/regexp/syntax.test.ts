import { describe, expect, it } from "vitest";
import { compileRegexp } from "./compile.js";
import { isRegexpError } from "./errors.js";

/** Go 1.19.8's answer for `regexp.Compile(pattern)`: its error message, or `SubexpNames`. */
type GoAnswer = { pattern: string; error: string } | { pattern: string; names: string[] };

function answer(pattern: string): Omit<GoAnswer, "pattern"> {
  try {
    return { names: [...compileRegexp(pattern).subexpNames()] };
  } catch (e) {
    if (!isRegexpError(e)) throw e;
    return { error: e.message };
  }
}

describe("the parser reads brackets, names and quoted text as Go does", () => {
  // `[:` starts a POSIX class name only when a `:]` follows the `[:`; `\x`
  // takes the next two characters whatever they are; `\Q…\E` hides
  // everything; `]` first in a class is a literal; names may repeat.
  const cases: GoAnswer[] = [
    { pattern: "[[:]]", names: [""] },
    { pattern: "a[^[:]b]", names: [""] },
    { pattern: "[x[:]", names: [""] },
    { pattern: "[:]|[x[:]]", names: [""] },
    { pattern: "[[:]:]]", error: "error parsing regexp: invalid character class range: `[:]:]`" },
    { pattern: "[[:][:]]", error: "error parsing regexp: invalid character class range: `[:][:]`" },
    {
      pattern: "[[:]]|[[:]]",
      error: "error parsing regexp: invalid character class range: `[:]]|[[:]`",
    },
    { pattern: "[:]", names: [""] },
    { pattern: "\\[[:]", names: [""] },
    { pattern: "\\Q[[:]]\\E", names: [""] },
    { pattern: "(?P<[[:]>x)", error: "error parsing regexp: invalid named capture: `(?P<[[:]>`" },
    { pattern: "[a-[:]]", error: "error parsing regexp: invalid character class range: `a-[`" },
    { pattern: "[\\x{41}-[:]]", names: [""] },
    { pattern: "[\\d-[:]", names: [""] },
    { pattern: "[\\p{Greek}-[:]", names: [""] },
    { pattern: "[[:alpha:]-[:]", names: [""] },
    { pattern: "[\\[:]]", names: [""] },
    {
      pattern: "[\\p{[}[:]]",
      error: "error parsing regexp: invalid character class range: `\\p{[}`",
    },
    { pattern: "[[:alpha:]]", names: [""] },
    { pattern: "\\x[[:]]", error: "error parsing regexp: invalid escape sequence: `\\x[[`" },
    { pattern: "\\p[[:]]", error: "error parsing regexp: invalid character class range: `\\p[`" },
    { pattern: "[\\x[[:]]", error: "error parsing regexp: invalid escape sequence: `\\x[[`" },
    { pattern: "[][:]]", names: [""] },
    { pattern: "[]][:]]", names: [""] },
    { pattern: "(?P<a>x)(?P<b>y)", names: ["", "a", "b"] },
    { pattern: "\\(?P<a>x)", error: "error parsing regexp: unexpected ): `\\(?P<a>x)`" },
    { pattern: "[(?P<a>]x", names: [""] },
    { pattern: "[]](?P<a>x)", names: ["", "a"] },
    { pattern: "[^]](?P<a>x)", names: ["", "a"] },
    { pattern: "[[:alpha:]](?P<a>x)", names: ["", "a"] },
    { pattern: "\\Q(?P<a>x)\\E(?P<b>y)", names: ["", "b"] },
    { pattern: "(?P<v>a)(?P<v_dup1>b)(?P<v>c)", names: ["", "v", "v_dup1", "v"] },
    { pattern: "(?P<>a)(?P<>b)", error: "error parsing regexp: invalid named capture: `(?P<>`" },
    { pattern: "a\\Q(?P<x>\\Eb", names: [""] },
    { pattern: "\\Q\\E", names: [""] },
    { pattern: "\\Q[:]", names: [""] },
    { pattern: "x\\Qa\\Eb\\Ec", error: "error parsing regexp: invalid escape sequence: `\\E`" },
  ];
  it.each(cases)("$pattern", (c) => {
    const { pattern, ...want } = c;
    expect(answer(pattern)).toEqual(want);
  });
});
