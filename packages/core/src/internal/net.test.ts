import { describe, expect, it } from "vitest";
import { IsLoopback, ParseIP, SplitHostPort } from "./net.js";

const v4 = (a: number, b: number, c: number, d: number) => [
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0xff,
  0xff,
  a,
  b,
  c,
  d,
];

describe("ParseIP (Go's parseIPTests)", () => {
  it.each([
    ["127.0.1.2", v4(127, 0, 1, 2)],
    ["127.0.0.1", v4(127, 0, 0, 1)],
    ["::ffff:127.1.2.3", v4(127, 1, 2, 3)],
    ["::ffff:7f01:0203", v4(127, 1, 2, 3)],
    ["0:0:0:0:0000:ffff:127.1.2.3", v4(127, 1, 2, 3)],
    ["0:0:0:0::ffff:127.1.2.3", v4(127, 1, 2, 3)],
    [
      "2001:4860:0:2001::68",
      [0x20, 0x01, 0x48, 0x60, 0, 0, 0x20, 0x01, 0, 0, 0, 0, 0, 0, 0x00, 0x68],
    ],
    [
      "2001:4860:0000:2001:0000:0000:0000:0068",
      [0x20, 0x01, 0x48, 0x60, 0, 0, 0x20, 0x01, 0, 0, 0, 0, 0, 0, 0x00, 0x68],
    ],
    ["::", new Array(16).fill(0)],
    ["::1", [...new Array(15).fill(0), 1]],
    ["127.001.002.003", undefined],
    ["::ffff:127.001.002.003", undefined],
    ["0:0:0:0:000000:ffff:127.1.2.3", undefined],
    ["-0.0.0.0", undefined],
    ["0.-1.0.0", undefined],
    ["127.0.0.256", undefined],
    ["abc", undefined],
    ["123:", undefined],
    ["fe80::1%lo0", undefined],
    ["fe80::1%911", undefined],
    ["", undefined],
    ["a1:a2:a3:a4::b1:b2:b3:b4", undefined],
    ["1:2:3:4:5:6:7:8:9", undefined],
    ["1::2::3", undefined],
    ["[::1]", undefined],
  ])("%j", (s, want) => {
    expect(ParseIP(s)).toEqual(want);
  });
});

describe("IsLoopback", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.0.9", true],
    ["::ffff:127.0.0.1", true],
    ["::1", true],
    ["128.0.0.1", false],
    ["::2", false],
    ["::", false],
    ["0:0:0:0:0:0:0:1", true],
  ])("%j → %s", (s, want) => {
    expect(IsLoopback(ParseIP(s) ?? [])).toBe(want);
  });

  it("reads a 4-byte address as Go's To4 does", () => {
    expect(IsLoopback([127, 0, 0, 1])).toBe(true);
    expect(IsLoopback([10, 0, 0, 1])).toBe(false);
  });
});

describe("SplitHostPort", () => {
  it.each([
    ["localhost:5000", { host: "localhost", port: "5000" }],
    ["[::1]:5000", { host: "::1", port: "5000" }],
    ["localhost", undefined],
    ["::1:5000", undefined],
  ])("%j", (s, want) => {
    expect(SplitHostPort(s)).toEqual(want);
  });
});
