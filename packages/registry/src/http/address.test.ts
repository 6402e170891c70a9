import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalHost, isIpLiteral, isRestrictedHost, sameHost } from "./address.js";

/** An independent statement of the restricted IPv4 space, octet by octet. */
function restrictedOctets([a, b]: readonly number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && (b as number) >= 64 && (b as number) <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && (b as number) >= 16 && (b as number) <= 31) ||
    (a === 192 && (b === 168 || b === 0)) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a as number) >= 224
  );
}

const octetsOf = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

describe("isRestrictedHost", () => {
  it.each([
    // the spellings of the issue: all loopback or cloud metadata
    "127.0.0.1",
    "localhost",
    "LOCALHOST.",
    "registry.localhost",
    "[::1]",
    "::1",
    "2130706433",
    "127.1",
    "0x7f.0.0.1",
    "0x7f000001",
    "0177.0.0.1",
    "0",
    "0.0",
    "127.0.0.1.",
    "127.0.0.%31",
    "[::ffff:7f00:1]",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:0:0:1]",
    "[::0:1]",
    "[0000:0000::0001]",
    "2852039166",
    "0xa9.0xfe.0xa9.0xfe",
    "169.254.43518",
    "::ffff:a9fe:a9fe",
    "[::ffff:0:a9fe:a9fe]", // IPv4-translated
    "[::a9fe:a9fe]", // IPv4-compatible
    "[64:ff9b::a9fe:a9fe]", // NAT64
    "[2002:a9fe:a9fe::]", // 6to4
    "[2001:0:4136:e378:8000:63bf:5601:5601]", // Teredo, client 169.254.169.254 (bits inverted)
    "[fe80::1]",
    "[fd00::1]",
    "[ff02::1]",
    "[::]",
    "10.1.2.3",
    "192.168.1.1",
    "100.64.0.1",
    "not a host",
    "",
  ])("%s is restricted", (host) => {
    expect(isRestrictedHost(host)).toBe(true);
  });

  it.each([
    "quay.io",
    "registry-1.docker.io",
    "8.8.8.8",
    "134744072", // 8.8.8.8
    "[2606:4700::1111]",
    "[::ffff:808:808]",
    "[64:ff9b::808:808]",
    "172.32.0.1",
    "xn--localhost-xyz.io",
  ])("%s is not restricted", (host) => {
    expect(isRestrictedHost(host)).toBe(false);
  });

  /** One spelling of one IPv4 address: 1 to 4 parts, each decimal, octal or hex. */
  const ipv4Spelling = fc
    .record({
      n: fc.integer({ min: 0, max: 0xffffffff }),
      parts: fc.integer({ min: 1, max: 4 }),
      radixes: fc.array(fc.constantFrom("dec", "oct", "hex", "HEX"), {
        minLength: 4,
        maxLength: 4,
      }),
      zeros: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
      trailingDot: fc.boolean(),
    })
    .map(({ n, parts, radixes, zeros, trailingDot }) => {
      const octets = octetsOf(n);
      const values = [...octets.slice(0, parts - 1)];
      const rest = octets.slice(parts - 1).reduce((acc, o) => acc * 256 + o, 0);
      values.push(rest);
      const text = values
        .map((value, i) => {
          const pad = "0".repeat(zeros[i] ?? 0);
          switch (radixes[i]) {
            case "oct":
              return `0${pad}${value.toString(8)}`;
            case "hex":
              return `0x${pad}${value.toString(16)}`;
            case "HEX":
              return `0X${pad}${value.toString(16).toUpperCase()}`;
            default:
              return String(value);
          }
        })
        .join(".");
      return { octets, text: trailingDot ? `${text}.` : text };
    });

  it("decides every IPv4 spelling as the address it is", () => {
    fc.assert(
      fc.property(ipv4Spelling, ({ octets, text }) => {
        expect(canonicalHost(text)).toBe(octets.join("."));
        expect(isIpLiteral(text)).toBe(true);
        expect(isRestrictedHost(text)).toBe(restrictedOctets(octets));
      }),
      { numRuns: 3000 },
    );
  });

  /** IPv6 forms that carry an IPv4 address, in several spellings. */
  const embeddingSpelling = fc
    .record({
      n: fc.integer({ min: 0, max: 0xffffffff }),
      form: fc.constantFrom("mapped", "translated", "nat64", "compatible"),
      dotted: fc.boolean(),
      full: fc.boolean(),
      upper: fc.boolean(),
      brackets: fc.boolean(),
    })
    .map(({ n, form, dotted, full, upper, brackets }) => {
      const octets = octetsOf(n);
      const low = dotted
        ? octets.join(".")
        : `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
      const prefix = {
        mapped: full ? "0:0:0:0:0:ffff:" : "::ffff:",
        translated: full ? "0000:0000:0000:0000:ffff:0000:" : "::ffff:0:",
        nat64: full ? "0064:ff9b:0:0:0:0:" : "64:ff9b::",
        compatible: full ? "0:0:0:0:0:0:" : "::",
      }[form];
      let text = `${prefix}${low}`;
      if (upper) text = text.toUpperCase();
      return { octets, text: brackets ? `[${text}]` : text };
    });

  it("judges an IPv6 address carrying an IPv4 address by that address", () => {
    fc.assert(
      fc.property(embeddingSpelling, ({ octets, text }) => {
        expect(isIpLiteral(text)).toBe(true);
        expect(isRestrictedHost(text)).toBe(restrictedOctets(octets));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("sameHost", () => {
  it.each([
    { a: "127.1", b: "127.0.0.1", want: true },
    { a: "[::1]", b: "0:0::1", want: true },
    { a: "Quay.IO", b: "quay.io.", want: true },
    { a: "quay.io", b: "ghcr.io", want: false },
    { a: "bad host", b: "bad host", want: false },
  ])("$a ~ $b", ({ a, b, want }) => {
    expect(sameHost(a, b)).toBe(want);
  });
});

describe("canonicalHost", () => {
  it.each([
    { host: "0x7f.1", want: "127.0.0.1" }, // WHATWG's IPv4 parser: hex, two parts
    { host: "::FFFF:127.0.0.1", want: "[::ffff:7f00:1]" }, // IPv6 bracketed, lower case, compressed
  ])("$host → $want", ({ host, want }) => {
    expect(canonicalHost(host)).toBe(want);
  });
});
