import { describe, expect, it } from "vitest";
import { isCliError } from "../errors/cli-error.js";
import { upstreamChoice, upstreamOption } from "./upstream.js";

function usage(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(isCliError(e) && e.code === "USAGE").toBe(true);
    return (e as Error).message;
  }
  throw new Error("no error");
}

describe("--upstream NAME=VERSION", () => {
  it("gives every name its newest release when the flag is absent", () => {
    expect(upstreamChoice({}, "inspect", ["platforms"])).toMatchObject({
      platforms: "rc.5",
      kubelet: "1.37",
      semver: "v3.5.0",
      containerd: "2.4",
      "containers-image": "5.40",
    });
  });

  it("reads each pair the command depends on", () => {
    const values = { upstream: ["platforms=rc.4"] };
    expect(upstreamChoice(values, "inspect", ["platforms"]).platforms).toBe("rc.4");
    expect(upstreamChoice({ upstream: "semver=v3.4.0" }, "tags", ["semver"]).semver).toBe("v3.4.0");
  });

  it.each([
    {
      values: { upstream: ["containerd=2.3.4"] },
      names: ["containerd", "containers-image"] as const,
      message: "--upstream containerd=2.3.4: not a release kubeimg reproduces; use one of 2.3, 2.4",
    },
    {
      values: { upstream: ["containers-image=5.38"] },
      names: ["containerd", "containers-image"] as const,
      message:
        "--upstream containers-image=5.38: not a release kubeimg reproduces; use one of 5.36, 5.40",
    },
    {
      values: { upstream: ["platforms=rc.4", "platforms=rc.5"] },
      names: ["platforms"] as const,
      message: "--upstream platforms is given twice",
    },
    {
      values: { upstream: ["semver=v3.4.0"] },
      names: [] as const,
      message: "--upstream semver: kubeimg route does not depend on it (it reads none)",
    },
    {
      values: { upstream: ["=rc.4"] },
      names: ["platforms"] as const,
      message: '--upstream "=rc.4": expected NAME=VERSION',
    },
  ])("refuses $values.upstream", ({ values, names, message }) => {
    expect(usage(() => upstreamChoice(values, "route", names))).toBe(message);
  });

  it("accepts the pinned node-mirror releases", () => {
    const values = { upstream: ["containerd=2.3", "containers-image=5.36"] };
    expect(upstreamChoice(values, "route", ["containerd", "containers-image"])).toMatchObject({
      containerd: "2.3",
      "containers-image": "5.36",
    });
  });

  it("lists each name's releases and default in its help", () => {
    expect(upstreamOption(["kubelet"]).help).toBe(
      "the upstream release to reproduce: kubelet=1.35|1.36|1.37 (default 1.37)",
    );
  });
});
