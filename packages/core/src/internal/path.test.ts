import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Clean, Join, Match } from "./path.js";
import { fromByteStringEscaped } from "./utf8.js";

describe("Match (Go path.Match)", () => {
  // The table of Go's path/match_test.go: `bad` marks ErrBadPattern.
  it.each([
    ["abc", "abc", true],
    ["*", "abc", true],
    ["*c", "abc", true],
    ["a*", "a", true],
    ["a*", "abc", true],
    ["a*", "ab/c", false],
    ["a*/b", "abc/b", true],
    ["a*/b", "a/c/b", false],
    ["a*b*c*d*e*/f", "axbxcxdxe/f", true],
    ["a*b*c*d*e*/f", "axbxcxdxexxx/f", true],
    ["a*b*c*d*e*/f", "axbxcxdxe/xxx/f", false],
    ["a*b*c*d*e*/f", "axbxcxdxexxx/fff", false],
    ["a*b?c*x", "abxbbxdbxebxczzx", true],
    ["a*b?c*x", "abxbbxdbxebxczzy", false],
    ["ab[c]", "abc", true],
    ["ab[b-d]", "abc", true],
    ["ab[e-g]", "abc", false],
    ["ab[^c]", "abc", false],
    ["ab[^b-d]", "abc", false],
    ["ab[^e-g]", "abc", true],
    ["a\\*b", "a*b", true],
    ["a\\*b", "ab", false],
    ["a?b", "a☺b", true],
    ["a[^a]b", "a☺b", true],
    ["a???b", "a☺b", false],
    ["a[^a][^a][^a]b", "a☺b", false],
    ["[a-ζ]*", "α", true],
    ["*[a-ζ]", "A", false],
    ["a?b", "a/b", false],
    ["a*b", "a/b", false],
    ["[\\]a]", "]", true],
    ["[\\-]", "-", true],
    ["[x\\-]", "x", true],
    ["[x\\-]", "-", true],
    ["[x\\-]", "z", false],
    ["[\\-x]", "x", true],
    ["[\\-x]", "-", true],
    ["[\\-x]", "a", false],
    ["[]a]", "]", "bad"],
    ["[-]", "-", "bad"],
    ["[x-]", "x", "bad"],
    ["[x-]", "-", "bad"],
    ["[x-]", "z", "bad"],
    ["[-x]", "x", "bad"],
    ["[-x]", "-", "bad"],
    ["[-x]", "a", "bad"],
    ["\\", "a", "bad"],
    ["[a-b-c]", "a", "bad"],
    ["[", "a", "bad"],
    ["[^", "a", "bad"],
    ["[^bc", "a", "bad"],
    ["a[", "a", "bad"],
    ["a[", "ab", "bad"],
    ["a[", "x", "bad"],
    ["a/b[", "x", "bad"],
    ["*x", "xxx", true],
  ] as const)("%j on %j → %s", (pattern, name, want) => {
    expect(Match(pattern, name)).toBe(want === "bad" ? undefined : want);
  });

  // Where Go's bytes show through code points. Each answer is Go 1.19's
  // path.Match on the UTF-8 bytes (a lone U+DCxx standing for the byte 0xxx).
  it.each([
    // A star gives up one byte at a time, so it can stop inside a character,
    // whose remaining bytes are then one invalid rune each.
    ["*??x", "☺x", true],
    ["*????", "😀x", true],
    ["*[^a]x", "☺x", true],
    ["??", "😀", false],
    ["*?", "😀", true],
    // A byte Go cannot decode: a literal compares it with the text's bytes,
    // even with the first byte of a valid character ...
    ["\udcc3?", "é", true],
    ["\udcc3*", "é", true],
    ["*\udca9", "é", true],
    ["a\udcffb", "a\udcffb", true],
    // ... `?` and classes read it as U+FFFD, and it is no class endpoint.
    ["a?b", "a\udcffb", true],
    ["[\ufffd]", "\udcff", true],
    ["[\udcff]", "a", "bad"],
    ["[\udcc3]", "\udcc3", "bad"],
  ] as const)("%j on %j → %s (bytes)", (pattern, name, want) => {
    expect(Match(pattern, name)).toBe(want === "bad" ? undefined : want);
  });

  it("agrees with the keyring's byte strings through utf8.fromByteStringEscaped", () => {
    const bytes = (s: string) => String.fromCharCode(...new TextEncoder().encode(s));
    const escaped = (s: string) => fromByteStringEscaped(bytes(s));
    expect(Match(escaped("a?b"), escaped("a☺b"))).toBe(true);
    expect(Match(fromByteStringEscaped("\xc3*"), escaped("é"))).toBe(true);
  });
});

describe("Join / Clean", () => {
  it.each([
    { parts: ["docker.io", "/nginxinc/nginx"], want: "docker.io/nginxinc/nginx" },
    {
      parts: ["harbor.example.com", "/mirror/", "library/nginx:1.25"],
      want: "harbor.example.com/mirror/library/nginx:1.25",
    },
    { parts: ["harbor.example.com", "enix", "x"], want: "harbor.example.com/enix/x" },
    { parts: ["", "/mirror", "a"], want: "/mirror/a" },
    { parts: ["", ""], want: "" },
    { parts: ["a", ""], want: "a" },
    { parts: ["a//b", "./c", "../d"], want: "a/b/d" },
    { parts: ["..", "a"], want: "../a" },
  ])("$parts -> $want", ({ parts, want }) => {
    expect(Join(...parts)).toBe(want);
  });

  it.each([
    ["", "."],
    ["/", "/"],
    ["/../a", "/a"],
    ["a/..", "."],
    ["a/b/", "a/b"],
  ])("clean %j -> %j", (input, want) => {
    expect(Clean(input)).toBe(want);
  });

  it("cleans as Go's lexical rules do, segment by segment", () => {
    const bySegments = (p: string): string => {
      if (p === "") return ".";
      const out: string[] = [];
      for (const segment of p.split("/")) {
        if (segment === "" || segment === ".") continue;
        if (segment === "..") {
          if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
          else if (!p.startsWith("/")) out.push("..");
          continue;
        }
        out.push(segment);
      }
      const body = out.join("/");
      return p.startsWith("/") ? `/${body}` : body === "" ? "." : body;
    };
    fc.assert(
      fc.property(fc.stringMatching(/^[a./]{0,12}$/), (p) => {
        expect(Clean(p)).toBe(bySegments(p));
      }),
      { numRuns: 2000 },
    );
  });

  it("joins clean elements without a regular expression or a split", () => {
    const test = vi.spyOn(RegExp.prototype, "test");
    const split = vi.spyOn(String.prototype, "split");
    try {
      expect(Join("/etc/containerd/certs.d", "", "docker.io")).toBe(
        "/etc/containerd/certs.d/docker.io",
      );
      expect(test).not.toHaveBeenCalled();
      expect(split).not.toHaveBeenCalled();
    } finally {
      test.mockRestore();
      split.mockRestore();
    }
  });

  it("returns a clean path as it is, without splitting it", () => {
    const split = vi.spyOn(String.prototype, "split");
    try {
      for (const p of ["/etc/containerd/certs.d/docker.io/hosts.toml", "a/b", "/", "a..b/.c"]) {
        expect(Clean(p)).toBe(p);
      }
      expect(split).not.toHaveBeenCalled();
    } finally {
      split.mockRestore();
    }
  });
});

describe("Join in two steps", () => {
  it("joining a precomputed registry/path prefix equals joining all three at once", () => {
    // Routing joins mirror.registry and mirror.path once per CR, then the image path per entry.
    const piece = fc.stringMatching(/^[a-z./]{0,8}$/);
    const imagePath = fc.stringMatching(/^[a-z0-9]+(\/[a-z0-9]+)*(:[a-z0-9][a-z0-9.]*)?$/);
    fc.assert(
      fc.property(piece, piece, imagePath, (registry, path, image) => {
        expect(Join(Join(registry, path), image)).toBe(Join(registry, path, image));
      }),
      { numRuns: 300 },
    );
  });
});
