import { readFileSync } from "node:fs";
import { seededRandom } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";
import { isUpstreamReleaseError } from "../errors/upstream-release.js";
import { anyOf, only, onlyOS, onlyStrict, ordered } from "./compare.js";
import { newMatcher } from "./matcher.js";
import type { PlatformOptions, PlatformsRelease } from "./platform.js";
import {
  type MatcherSpec,
  type WindowsCompatCase,
  windowsCompatCase,
} from "./windows-compat-cases.test-support.js";

/**
 * Answers recorded from containerd/platforms v1.0.0-rc.4 (tag, commit
 * 09756f5) and v1.0.0-rc.5 (as vendored by containerd main at 0d79789,
 * identical to containerd/platforms bacc690), built with Go 1.19, for the
 * first 1,500 cases of `windows-compat-cases.test-support.ts` (seed
 * 20261129): `Match` or `Less` of each matcher on linux/amd64.
 */
interface Recorded extends WindowsCompatCase {
  readonly rc4: boolean;
  readonly rc5: boolean;
}

const recorded: Recorded[] = readFileSync(
  new URL("./testdata/windows-compat-oracle.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as Recorded);

const host = { os: "linux", architecture: "amd64", variant: "" } as const;

function answer(c: WindowsCompatCase, options: PlatformOptions): boolean {
  const m: MatcherSpec = c.matcher;
  const first = m.platforms[0] as MatcherSpec["platforms"][number];
  if (m.kind === "newMatcher") return newMatcher(first, options).match(c.candidate ?? first);
  const comparer =
    m.kind === "only"
      ? only(first, options)
      : m.kind === "onlyStrict"
        ? onlyStrict(first, options)
        : m.kind === "onlyOS"
          ? onlyOS(first, options)
          : m.kind === "ordered"
            ? ordered(m.platforms, options)
            : anyOf(m.platforms, options);
  if (c.op === "match") return comparer.match(c.candidate ?? first);
  return comparer.less(c.a ?? first, c.b ?? first);
}

describe("Windows compatibility against answers recorded from containerd/platforms", () => {
  it("has the recorded cases of the generator's seed", () => {
    const random = seededRandom(20261129);
    expect(recorded).toHaveLength(1500);
    for (const r of recorded) {
      const { rc4: _, rc5: __, ...input } = r;
      expect(input).toEqual(windowsCompatCase(random));
    }
  });

  it.each<[PlatformsRelease, "rc4" | "rc5"]>([
    ["rc.4", "rc4"],
    ["rc.5", "rc5"],
  ])("gives %s's answer for every recorded case", (release, key) => {
    const wrong = recorded.filter((r) => answer(r, { host, platforms: release }) !== r[key]);
    expect(wrong).toEqual([]);
  });

  it("defaults to rc.5, and the two releases differ on some cases", () => {
    const differ = recorded.filter((r) => r.rc4 !== r.rc5);
    expect(differ.length).toBeGreaterThan(10);
    for (const r of differ) expect(answer(r, { host })).toBe(r.rc5);
  });

  it("keeps Windows Server 2022 images on a host past 26100 from rc.5 on", () => {
    const m = (platforms: PlatformsRelease) =>
      newMatcher({ os: "windows", architecture: "amd64", osVersion: "10.0.26200" }, { platforms });
    const ws2022 = { os: "windows", architecture: "amd64", osVersion: "10.0.20348.1" };
    expect(m("rc.4").match(ws2022)).toBe(false);
    expect(m("rc.5").match(ws2022)).toBe(true);
  });

  it("refuses a release it does not reproduce, naming the option and the choices", () => {
    let error: unknown;
    try {
      only({ os: "windows", architecture: "amd64" }, { platforms: "rc.6" as never });
    } catch (e) {
      error = e;
    }
    expect(isUpstreamReleaseError(error)).toBe(true);
    expect(error).toMatchObject({ code: "UNKNOWN_RELEASE", upstream: "platforms", value: "rc.6" });
    expect((error as Error).message).toBe(
      'platforms: release "rc.6" is not one kubeimg reproduces; use one of "rc.4", "rc.5"',
    );
  });
});
