import { describe, expect, it } from "vitest";
import { isRedisStateError } from "./errors.js";
import {
  checkPrefix,
  hashTagOf,
  imageKeys,
  isLayoutKey,
  registryKeys,
  scanPatternOf,
} from "./keys.js";

/** CRC16/XMODEM, the hash Redis Cluster takes modulo 16384 to find a key's slot. */
function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
const slotOf = (key: string) => crc16(hashTagOf(key)) % 16384;

describe("key layout", () => {
  const secretKey = {
    image: "harbor.example.com/team/app:1.2",
    credentialSecret: { namespace: "kuik-system", name: "harbor-robot" },
    registry: "harbor.example.com",
  };

  it("matches Redis's own slot of a known key (CRC16/XMODEM)", () => {
    // Redis: CLUSTER KEYSLOT foo = 12182, {user1000}.following = 3443.
    expect(slotOf("foo")).toBe(12182);
    expect(slotOf("{user1000}.following")).toBe(slotOf("{user1000}.followers"));
    expect(slotOf("{user1000}.following")).toBe(3443);
  });

  it("puts an image's verdict and marker in one slot, a registry's breaker keys in one slot", () => {
    const image = imageKeys("prod:webhook:", secretKey);
    expect(slotOf(image.verdict)).toBe(slotOf(image.probe));
    const registry = registryKeys("prod:webhook:", "harbor.example.com");
    const slots = new Set(Object.values(registry).map(slotOf));
    expect(slots.size).toBe(1);
    expect(hashTagOf(image.verdict)).toMatch(/^i[0-9a-f]{32}$/);
    expect(hashTagOf(registry.open)).toMatch(/^r[0-9a-f]{32}$/);
  });

  it("spreads different images over slots, and keeps the prefix out of the tag", () => {
    const slots = new Set(
      Array.from({ length: 200 }, (_, i) =>
        slotOf(
          imageKeys("p:", {
            image: `r.example.com/a${i}:1`,
            credentialSecret: undefined,
            registry: "r.example.com",
          }).verdict,
        ),
      ),
    );
    expect(slots.size).toBeGreaterThan(150);
    expect(slotOf(imageKeys("a:", secretKey).verdict)).toBe(
      slotOf(imageKeys("b:", secretKey).verdict),
    );
  });

  it("never writes an image, secret or registry name into a key", () => {
    const all = [
      ...Object.values(imageKeys("p:", secretKey)),
      ...Object.values(registryKeys("p:", secretKey.registry)),
    ];
    for (const key of all) {
      expect(key).toMatch(
        /^p:\{[ir][0-9a-f]{32}\}:v1:(verdict|probe|failures|open|tripped|trial)$/,
      );
      for (const text of ["harbor", "team", "app", "kuik-system", "robot"])
        expect(key).not.toContain(text);
    }
  });

  it("tells a secret-keyed verdict apart from the bare image", () => {
    expect(imageKeys("p:", secretKey).verdict).not.toBe(
      imageKeys("p:", { ...secretKey, credentialSecret: undefined }).verdict,
    );
  });

  it.each(["", "{tag}", "a b", "x}", "-lead", "é", "p".repeat(65)])(
    "rejects the prefix %j",
    (prefix) => {
      let error: unknown;
      try {
        checkPrefix(prefix);
      } catch (e) {
        error = e;
      }
      expect(isRedisStateError(error) && error.code === "INVALID_OPTION" && error.field).toBe(
        "prefix",
      );
    },
  );
});

describe("the keys clear() deletes", () => {
  it.each([
    { prefix: "prod:", want: "prod:{*}:v1:*" },
    // Not prefixes checkPrefix accepts, but the pattern never widens on them.
    { prefix: "a*b?c[d]e\\f^", want: "a\\*b\\?c\\[d\\]e\\\\f\\^{*}:v1:*" },
  ])("SCAN pattern of $prefix", ({ prefix, want }) => {
    expect(scanPatternOf(prefix)).toBe(want);
  });

  const keys = imageKeys("prod:", { image: "a/b:1", credentialSecret: undefined, registry: "a" });
  const breaker = registryKeys("prod:", "a");
  it.each([
    { key: keys.verdict, want: true },
    { key: keys.probe, want: true },
    { key: breaker.trial, want: true },
    { key: keys.verdict.replace("prod:", "prod:eu:"), want: false },
    { key: keys.verdict.replace(":v1:", ":v2:"), want: false },
    { key: `${keys.verdict}x`, want: false },
    { key: "prod:{x}:v1:verdict", want: false },
    { key: "prod:other", want: false },
  ])("$key is ours: $want", ({ key, want }) => {
    expect(isLayoutKey("prod:", key)).toBe(want);
  });
});
