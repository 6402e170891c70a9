import { describe, expect, it } from "vitest";
import { credentialHashOfBytes, goJsonQuote } from "./credential-hash.js";

/** Byte strings from raw bytes (possibly invalid UTF-8). */
const bytes = (...values: number[]) => String.fromCharCode(...values);
const utf8 = (text: string) => String.fromCharCode(...new TextEncoder().encode(text));

// Expected values are what Go 1.19's encoding/json and hashAuthConfig give.
describe("goJsonQuote", () => {
  it.each([
    { name: "backspace and form feed", in: utf8("a\bb\fc"), want: '"a\\u0008b\\u000cc"' },
    {
      name: "other control bytes, DEL raw",
      in: bytes(0, 1, 0x1f, 0x7f),
      want: '"\\u0000\\u0001\\u001f\x7f"',
    },
    { name: "HTML-safe", in: "<a&b>", want: '"\\u003ca\\u0026b\\u003e"' },
    { name: "line and paragraph separators", in: utf8("\u2028\u2029"), want: '"\\u2028\\u2029"' },
    { name: "invalid UTF-8", in: bytes(0xff, 0xc3), want: '"\\ufffd\\ufffd"' },
    {
      name: "quote, backslash, slash, non-ASCII",
      in: utf8('ü"\\/'),
      want: `"${utf8("ü")}\\"\\\\/"`,
    },
    { name: "short escapes", in: "\t\n\r", want: '"\\t\\n\\r"' },
  ])("$name", ({ in: input, want }) => {
    expect(goJsonQuote(input)).toBe(want);
  });
});

describe("credentialHashOfBytes", () => {
  it.each([
    {
      username: utf8("a\bb\fc"),
      want: "af702d10ade23e5169e191811e2d916ae01cd836b78d1a97b2c6db8fd3fdf76b",
    },
    {
      username: bytes(0, 1, 0x1f, 0x7f),
      want: "4678df56cbb37748131b22086d6c9596738fb17e338c1dbe357cd33fc55ce80c",
    },
    { username: "<a&b>", want: "49fe06e505487207ae221af1ac834a403a48d9e2b0815bd1f9e0f2983bfe1c80" },
    {
      username: utf8("\u2028\u2029"),
      want: "8aa66299aa5197970411dd3ca4aba7b3bc73d0b2346fa5758d206b0f2e6a4a31",
    },
    {
      username: bytes(0xff, 0xc3),
      want: "9934de36e9f6dc877196a6182f308ba5d6086ea6e3d6e33c959c648426825c0b",
    },
    {
      username: "\t\n\r",
      want: "29cec408a36988ab2b239a8911ec59f08cd00c6bf74d182e95a5bb523d19da43",
    },
  ])("$want", ({ username, want }) => {
    expect(credentialHashOfBytes(username, "p", "")).toBe(want);
  });
});
