import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { SplitHostPortLoose } from "./net.js";
import { Parse, ParsePlain, PathUnescape, parseAny } from "./url.js";

describe("Parse (Go net/url.Parse)", () => {
  it.each([
    { raw: "https://quay.io/v1/", want: { host: "quay.io", path: "/v1/" } },
    { raw: "https://user:pw@quay.io:443/a?b#c", want: { host: "quay.io:443", path: "/a" } },
    { raw: "https://registr?.example.com", want: { host: "registr", path: "" } },
    { raw: "https://[::1]:5000/app", want: { host: "[::1]:5000", path: "/app" } },
    { raw: "https://[fe80::1%25en0]/", want: { host: "[fe80::1%en0]", path: "/" } },
    { raw: "https://a/%41b", want: { host: "a", path: "/Ab" } },
    { raw: "https://%C3%BC.io/", want: { host: "\u00c3\u00bc.io", path: "/" } },
    { raw: "https://HTTPS://foo", want: { host: "HTTPS:", path: "//foo" } },
    { raw: "https://a:1:2/x", want: { host: "a:1:2", path: "/x" } }, // port checked from the last colon
    // Brackets: only a leading "[" makes an IP literal, and its contents are not validated.
    { raw: "https://r[a-c]g.io/app", want: { host: "r[a-c]g.io", path: "/app" } },
    { raw: "https://re[g]/v2/", want: { host: "re[g]", path: "/v2/" } },
    { raw: "https://[a-z]", want: { host: "[a-z]", path: "" } },
    { raw: "https://[v1.fe]:443/a", want: { host: "[v1.fe]:443", path: "/a" } },
    { raw: "https://[1::2::3]:0", want: { host: "[1::2::3]:0", path: "" } },
    { raw: "https://[1.2.3.4]/", want: { host: "[1.2.3.4]", path: "/" } },
    { raw: "https://[]:5000/", want: { host: "[]:5000", path: "/" } },
    { raw: "https://[a%25b%20%3A]/", want: { host: "[a%b :]", path: "/" } },
    { raw: "https://[a%25b%2F]/", want: undefined }, // zone escapes are still checked
    { raw: "https://[::1", want: undefined },
    { raw: "https://[::1]x", want: undefined },
    { raw: "https://[a-c]cr.io", want: undefined },
    { raw: "https://x[::1]/", want: undefined },
    { raw: "https://r[^a-c]g.io", want: undefined },
    { raw: "https://registry example.com", want: undefined },
    { raw: "https://a:b/", want: undefined },
    { raw: "https://%41.io/", want: undefined }, // ASCII may not be escaped in a host
    { raw: "https://a/%zz", want: undefined },
    { raw: "https://a/b#%zz", want: undefined },
    { raw: "https://a\n/", want: undefined },
    { raw: "https://ü@a/", want: undefined },
  ])("$raw", ({ raw, want }) => {
    const bytes = String.fromCharCode(...new TextEncoder().encode(raw));
    const got = Parse(bytes);
    expect(got && { host: got.host, path: got.path }).toEqual(want);
  });
});

describe("Parse: scheme, opaque and relative URLs", () => {
  it.each([
    { raw: "HTTPS://a/b", want: { scheme: "https", opaque: "", host: "a", path: "/b" } },
    { raw: "http:x", want: { scheme: "http", opaque: "x", host: "", path: "" } },
    { raw: "http:x#%zz", want: undefined },
    { raw: "http", want: { scheme: "", opaque: "", host: "", path: "http" } },
    { raw: "httpx/a:b", want: { scheme: "", opaque: "", host: "", path: "httpx/a:b" } },
    { raw: "1http:x", want: undefined }, // no scheme, and a colon in the first segment
    { raw: ":x", want: undefined }, // missing protocol scheme
    { raw: "//h/p", want: { scheme: "", opaque: "", host: "h", path: "/p" } },
    { raw: "///h/p", want: { scheme: "", opaque: "", host: "", path: "///h/p" } },
    { raw: "s:///h", want: { scheme: "s", opaque: "", host: "", path: "/h" } },
  ])("$raw", ({ raw, want }) => {
    expect(Parse(raw)).toEqual(want);
  });
});

describe("Parse: the plain scheme://host[:port]/path form", () => {
  // The usual form answers without the general parse; whatever it answers,
  // the general parse (the one the Go vectors hold) answers the same.
  const piece = fc.constantFrom(
    ..."aZ09.-_~:/%?#@[]+ \t\u0000\u007f\u00e9".split(""),
    "https://",
    "HTTP://",
    "h2://",
    ":5000",
    ":",
    "/v2",
    "%41",
    "registry.example.com",
  );
  const urls = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
  it("agrees with the general parse on generated text", () => {
    fc.assert(
      fc.property(urls, (raw) => {
        const general = parseAny(raw);
        expect(Parse(raw)).toEqual(general);
        const plain = ParsePlain(raw);
        if (plain !== undefined) expect(plain).toEqual(general);
      }),
      { numRuns: 20_000 },
    );
  });
  it.each([
    "https://registry.example.com",
    "HTTPS://Registry-1.example.com:5000/v2/x",
    "http://a_b:/",
    "https:///path",
    "https://:5000",
    "http://h/p\u00e9/\u00ff;x=y",
  ])("%j", (raw) => {
    expect(Parse(raw)).toEqual(parseAny(raw));
  });
  it("answers the usual server names itself, and leaves the rest to the general parse", () => {
    for (const raw of ["https://registry.example.com", "HTTP://a-b_c.io:5000/v2/x", "https://:1"])
      expect(ParsePlain(raw)).toEqual(parseAny(raw));
    for (const raw of ["https://a/%41", "https://u@a", "https://a/é", "https://a:1:2", "h2://a"])
      expect(ParsePlain(raw)).toBeUndefined();
  });
});

describe("SplitHostPortLoose", () => {
  it.each([
    { in: "a.io:5000", host: "a.io", port: "5000" },
    { in: "a.io", host: "a.io", port: "" },
    { in: "[::1]:5000", host: "::1", port: "5000" },
    { in: "[::1]", host: "[::1]", port: "" },
    { in: "a:1:2", host: "a:1:2", port: "" },
    { in: "a.io:", host: "a.io", port: "" },
  ])("$in", ({ in: input, host, port }) => {
    expect(SplitHostPortLoose(input)).toEqual({ host, port });
  });
});

describe("PathUnescape (Go net/url.PathUnescape)", () => {
  it.each([
    ["a%2Fb", "a/b"],
    ["a+b", "a+b"],
    ["%c3%a9", "é"],
    ["plain", "plain"],
  ])("%j is %j", (s, value) => {
    expect(PathUnescape(s)).toEqual({ ok: true, value });
  });
  it.each([
    ["%zz", "%zz"],
    ["a%4", "%4"],
    ["%", "%"],
    ["%4gxyz", "%4g"],
  ])("%j fails on %j", (s, bad) => {
    expect(PathUnescape(s)).toEqual({ ok: false, escape: bad });
  });
  it.each([
    ["\ud800%41", "\ufffdA"],
    ["a%e2%82", "a\ufffd"],
    ["%e2%82%ac\ud83d\ude00", "€😀"],
    ["x\udc00y", "x\ufffdy"],
  ])("%j (lone surrogates and broken UTF-8) is %j", (s, value) => {
    expect(PathUnescape(s)).toEqual({ ok: true, value });
  });
  it("fails on the first three bytes of a broken escape, as UTF-8", () => {
    expect(PathUnescape("%é")).toEqual({ ok: false, escape: "%é" });
    expect(PathUnescape("a%zé")).toEqual({ ok: false, escape: "%z\ufffd" });
  });
  it("decodes ASCII without a text encoder or decoder", () => {
    let built = 0;
    const Encoder = TextEncoder;
    const Decoder = TextDecoder;
    vi.stubGlobal(
      "TextEncoder",
      class extends Encoder {
        constructor() {
          super();
          built++;
        }
      },
    );
    vi.stubGlobal(
      "TextDecoder",
      class extends Decoder {
        constructor(...args: ConstructorParameters<typeof Decoder>) {
          super(...args);
          built++;
        }
      },
    );
    try {
      expect(PathUnescape("10.0.17763%2B1")).toEqual({ ok: true, value: "10.0.17763+1" });
      expect(PathUnescape("a%zz")).toEqual({ ok: false, escape: "%zz" });
      expect(built).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
