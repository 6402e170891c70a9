import { describe, expect, it } from "vitest";
import {
  DIGEST_NO_MATCH,
  DIGEST_SHAPE_ONLY,
  DIGEST_VALID,
  DOMAIN_HAS_DOT_OR_COLON,
  DOMAIN_HAS_UPPER,
  isIdentifier,
  matchesReference,
  NOT_A_DOMAIN,
  scanDigest,
  scanDomain,
  scanPathComponent,
  scanRemoteName,
  scanTag,
} from "./grammar.js";

const whole = (scan: (s: string, start: number, end: number) => number, s: string) =>
  scan(s, 0, s.length) === s.length;

describe("path-component", () => {
  it.each([
    ["a", true],
    ["foo", true],
    ["foo.bar", true],
    ["foo_bar", true],
    ["foo__bar", true],
    ["foo---bar", true], // any run of dashes
    ["foo___bar", false], // at most two underscores
    ["foo..bar", false],
    ["foo.-bar", false],
    ["foo-", false], // a separator must be followed by [a-z0-9]
    ["-foo", false],
    ["Foo", false], // lower case only
    ["", false],
  ])("%j → %s", (s, ok) => {
    expect(whole(scanPathComponent, s)).toBe(ok);
  });

  it("stops at a character that cannot continue it", () => {
    expect(scanPathComponent("foo/bar", 0, 7)).toBe(3);
    expect(scanPathComponent("foo:tag", 0, 7)).toBe(3);
  });
});

describe("remote-name", () => {
  it.each([
    ["a/b/c/d", true],
    ["library/ubuntu", true],
    ["a//b", false],
    ["a/", false],
    ["/a", false],
  ])("%j → %s", (s, ok) => {
    expect(whole(scanRemoteName, s)).toBe(ok);
  });
});

describe("tag", () => {
  it.each([
    ["latest", true],
    ["_ok", true],
    ["1.25.3-alpine", true],
    ["t".repeat(128), true],
    ["t".repeat(129), false],
    ["-bad", false],
    [".bad", false],
    ["", false],
  ])("%j → %s", (s, ok) => {
    expect(whole(scanTag, s)).toBe(ok);
  });
});

describe("digest", () => {
  const hex64 = "0123456789abcdef".repeat(4);
  it.each([
    [`sha256:${hex64}`, DIGEST_VALID],
    [`sha256:${hex64.toUpperCase()}`, DIGEST_SHAPE_ONLY], // go-digest wants lower case
    [`md5:${"0".repeat(32)}`, DIGEST_SHAPE_ONLY], // not registered
    [`SHA256:${hex64}`, DIGEST_SHAPE_ONLY],
    [`sha256+b64u:${hex64}`, DIGEST_SHAPE_ONLY],
    [`sha256:${"0".repeat(31)}`, DIGEST_NO_MATCH], // at least 32 hex digits
    [`9sha:${hex64}`, DIGEST_NO_MATCH], // components start with a letter
    [`sha256:${hex64}g`, DIGEST_NO_MATCH],
  ])("%j → %i", (s, want) => {
    expect(scanDigest(s, 0, s.length)).toBe(want);
  });
});

describe("domain", () => {
  it.each([
    ["localhost", 0],
    ["bitnami", 0],
    ["Foo", DOMAIN_HAS_UPPER],
    ["registry.k8s.io", DOMAIN_HAS_DOT_OR_COLON],
    ["localhost:5000", DOMAIN_HAS_DOT_OR_COLON],
    ["example.com:65536", DOMAIN_HAS_DOT_OR_COLON],
    ["[::1]", DOMAIN_HAS_DOT_OR_COLON],
    ["[2001:db8::1]:5000", DOMAIN_HAS_DOT_OR_COLON],
    ["xn--bcher-kva.example", DOMAIN_HAS_DOT_OR_COLON],
    ["ex_ample.com", NOT_A_DOMAIN],
    ["-example.com", NOT_A_DOMAIN],
    ["example-.com", NOT_A_DOMAIN],
    ["a..b", NOT_A_DOMAIN],
    ["registry:", NOT_A_DOMAIN],
    ["registry:port", NOT_A_DOMAIN],
    ["::1", NOT_A_DOMAIN], // IPv6 needs brackets
    ["[]", NOT_A_DOMAIN],
    ["", NOT_A_DOMAIN],
  ])("%j → %i", (s, want) => {
    expect(scanDomain(s, 0, s.length)).toBe(want);
  });
});

describe("reference and identifier", () => {
  it.each([
    ["ubuntu", true],
    ["ex_ample.com/app", true], // the first component falls back to a path component
    [`localhost:5000/foo:bar@sha256:${"a".repeat(64)}`, true],
    ["foo:tag:tag", false],
    ["Foo", false],
  ])("matchesReference(%j) → %s", (s, ok) => {
    expect(matchesReference(s)).toBe(ok);
  });

  it("recognises a 64-hex image ID", () => {
    expect(isIdentifier("a".repeat(64))).toBe(true);
    expect(isIdentifier("A".repeat(64))).toBe(false);
    expect(isIdentifier("a".repeat(63))).toBe(false);
  });
});
