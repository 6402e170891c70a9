import { describe, expect, it } from "vitest";
import {
  allPlatforms,
  anyOf,
  defaultMatcher,
  defaultStrictMatcher,
  only,
  onlyOS,
  onlyStrict,
  ordered,
  windowsHost,
} from "./compare.js";
import { newMatcher } from "./matcher.js";
import { orderIndexEntries, selectPlatform, sortPlatforms } from "./order.js";
import type { PlatformInput } from "./platform.js";

const p = (spec: string, extra: Partial<PlatformInput> = {}): PlatformInput => {
  const [os = "", architecture = "", variant] = spec.split("/");
  return { os, architecture, ...(variant === undefined ? {} : { variant }), ...extra };
};

describe("newMatcher", () => {
  it("compares normalized platforms exactly", () => {
    const m = newMatcher(p("linux/arm64"));
    expect(m.match(p("Linux/aarch64/v8"))).toBe(true);
    expect(m.match(p("linux/arm64/v8.2"))).toBe(false);
    expect(m.match(p("linux/arm/v7"))).toBe(false);
  });

  it("requires a candidate's OS features to be among the matcher's", () => {
    const m = newMatcher(p("linux/amd64", { osFeatures: ["gpu", "simd"] }));
    expect(m.match(p("linux/amd64", { osFeatures: ["simd", "gpu", "gpu"] }))).toBe(true);
    expect(m.match(p("linux/amd64", { osFeatures: ["tpu"] }))).toBe(false);
    expect(newMatcher(p("linux/amd64")).match(p("linux/amd64", { osFeatures: ["gpu"] }))).toBe(
      false,
    );
  });

  it("applies the Windows build rule only when the OS is written exactly `windows`", () => {
    const host2022 = newMatcher(p("windows/amd64", { osVersion: "10.0.20348.100" }));
    expect(host2022.match(p("windows/amd64", { osVersion: "10.0.20348.5" }))).toBe(true);
    expect(host2022.match(p("windows/amd64", { osVersion: "10.0.17763.5" }))).toBe(false);
    expect(host2022.match(p("windows/amd64", { osVersion: "10.0.26100.1" }))).toBe(false);
    // Between the two LTSC builds a host accepts 2022 images up to its own build.
    const host23h2 = newMatcher(p("windows/amd64", { osVersion: "10.0.25398.1" }));
    expect(host23h2.match(p("windows/amd64", { osVersion: "10.0.20348.1" }))).toBe(true);
    // rc.4: past 26100 the floor moves to 2025.
    const host2025 = newMatcher(p("windows/amd64", { osVersion: "10.0.26200.1" }), {
      platforms: "rc.4",
    });
    expect(host2025.match(p("windows/amd64", { osVersion: "10.0.20348.1" }))).toBe(false);
    expect(host2025.match(p("windows/amd64", { osVersion: "10.0.26100.1" }))).toBe(true);
    // rc.5 (the default, containerd/platforms#34): the 2025 generation keeps 2022 images.
    const host2025rc5 = newMatcher(p("windows/amd64", { osVersion: "10.0.26200.1" }));
    expect(host2025rc5.match(p("windows/amd64", { osVersion: "10.0.20348.1" }))).toBe(true);
    expect(host2025rc5.match(p("windows/amd64", { osVersion: "10.0.26100.1" }))).toBe(true);
    // Before 2022, builds must be equal.
    const host2019 = newMatcher(p("windows/amd64", { osVersion: "10.0.17763.1" }));
    expect(host2019.match(p("windows/amd64", { osVersion: "10.0.17763.999" }))).toBe(true);
    expect(host2019.match(p("windows/amd64", { osVersion: "10.0.17764.1" }))).toBe(false);
    // `Windows` is normalized to the same OS but skips the build check.
    expect(
      newMatcher(p("Windows/amd64", { osVersion: "10.0.17763.1" })).match(
        p("windows/amd64", { osVersion: "1.2.3" }),
      ),
    ).toBe(true);
  });

  it("ignores one win32k feature of a candidate on a Windows matcher", () => {
    const m = newMatcher(p("windows/amd64"));
    expect(m.match(p("windows/amd64", { osFeatures: ["win32k"] }))).toBe(true);
    expect(m.match(p("windows/amd64", { osFeatures: ["win32k", "win32k"] }))).toBe(false);
  });
});

describe("only", () => {
  it("runs older amd64 levels and 386, best first", () => {
    const node = only(p("linux/amd64/v3"));
    const candidates = [
      p("linux/386"),
      p("linux/amd64"),
      p("linux/amd64/v2"),
      p("linux/amd64/v3"),
      p("linux/amd64/v4"),
    ];
    expect(candidates.map((c) => node.match(c))).toEqual([true, true, true, true, false]);
    expect(sortPlatforms(node, candidates)).toEqual([3, 2, 1, 0, 4]);
  });

  it("runs older arm64 variants, then 32-bit arm v8 down to v5", () => {
    const node = only(p("linux/arm64/v9.2"));
    const candidates = [
      p("linux/arm/v5"),
      p("linux/arm/v7"),
      p("linux/arm64/v8.7"),
      p("linux/arm64"),
      p("linux/arm64/v9.1"),
    ];
    expect(sortPlatforms(node, candidates)).toEqual([4, 2, 3, 1, 0]);
    expect(node.match(p("linux/arm64/v8.8"))).toBe(false);
  });

  it("matches nothing for an arm64 variant containerd does not know", () => {
    expect(only(p("linux/arm64/v8.10")).match(p("linux/arm64/v8.10"))).toBe(false);
    expect(only(p("linux/arm64/constructor")).match(p("linux/arm64/constructor"))).toBe(false);
  });

  it("reads variant numbers as Go's Atoi, and stays finite for huge ones", () => {
    const node = only(p("linux/amd64/v+3"));
    expect(node.match(p("linux/amd64/v2"))).toBe(true);
    const huge = only(p("linux/arm/v9223372036854775807"));
    expect(huge.match(p("linux/arm/v9223372036854775806"))).toBe(true);
    expect(huge.match(p("linux/arm/v4"))).toBe(false);
    expect(huge.less(p("linux/arm/v100"), p("linux/arm/v99"))).toBe(true);
  });
});

describe("the other comparers", () => {
  it("onlyStrict has no fallbacks", () => {
    expect(onlyStrict(p("linux/amd64/v2")).match(p("linux/amd64"))).toBe(false);
    expect(defaultStrictMatcher(p("linux/arm/v7")).match(p("linux/armhf"))).toBe(true);
    // The default matcher would run 386 on amd64; the strict one does not.
    expect(defaultStrictMatcher(p("linux/amd64")).match(p("linux/386"))).toBe(false);
  });

  it("ordered prefers earlier entries, then more OS features", () => {
    const c = ordered([p("linux/arm64"), p("linux/amd64", { osFeatures: ["a", "b"] })]);
    const candidates = [
      p("linux/amd64", { osFeatures: ["a"] }),
      p("linux/amd64", { osFeatures: ["a", "b"] }),
      p("linux/arm64"),
      p("linux/s390x"),
    ];
    expect(sortPlatforms(c, candidates)).toEqual([2, 1, 0, 3]);
  });

  it("anyOf ranks every match equal", () => {
    const c = anyOf([p("linux/arm64"), p("linux/amd64")]);
    expect(sortPlatforms(c, [p("linux/s390x"), p("linux/amd64"), p("linux/arm64")])).toEqual([
      1, 2, 0,
    ]);
  });

  it("allPlatforms keeps the index order", () => {
    expect(sortPlatforms(allPlatforms, [p("a/b"), p("c/d")])).toEqual([0, 1]);
    expect(selectPlatform(allPlatforms, [p("a/b"), p("c/d")])).toBe(0);
  });

  it("onlyOS takes any architecture, the exact one first", () => {
    const c = onlyOS(p("linux/arm64"));
    expect(selectPlatform(c, [p("windows/arm64"), p("linux/s390x"), p("linux/arm64")])).toBe(2);
    expect(selectPlatform(c, [p("windows/arm64"), p("linux/s390x")])).toBe(1);
  });

  it("a Windows host prefers the greatest OS version text among matches", () => {
    const host = p("windows/amd64", { osVersion: "10.0.20348.3000" });
    const c = windowsHost(host);
    const images = [
      p("windows/amd64", { osVersion: "10.0.20348.9" }),
      p("windows/amd64", { osVersion: "10.0.20348.10" }),
      p("windows/amd64", { osVersion: "10.0.17763.99" }),
    ];
    expect(selectPlatform(c, images)).toBe(0);
    expect(defaultMatcher(host).kind).toBe("windowsHost");
    expect(defaultMatcher(p("linux/amd64")).kind).toBe("only");
  });
});

describe("orderIndexEntries", () => {
  it("keeps matching entries by preference, then entries without a platform", () => {
    const node = only(p("linux/arm64"));
    const entries = [
      {},
      { platform: p("linux/arm/v7") },
      { platform: p("linux/amd64") },
      { platform: p("linux/arm64") },
    ];
    expect(orderIndexEntries(node, entries)).toEqual([3, 1, 0]);
  });
});
