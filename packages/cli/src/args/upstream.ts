/**
 * `--upstream NAME=VERSION` (repeatable): which release of an upstream the
 * command reproduces, for the commands whose answer depends on it. Each
 * command lists the names it reads; the values are the library's version
 * options (`upstreams.json` at the repository root lists them all).
 */
import { type PlatformsRelease, platformsReleases } from "@kubeimg/core/platform";
import {
  type ContainersImageRelease,
  containerdReleases,
  containersImageReleases,
  type KubeletRelease,
  kubeletReleases,
  type SemverRelease,
  semverReleases,
} from "@kubeimg/policy/internal/releases";
import type { OptionSpec } from "../commands/command.js";
import { type CommandContext, stringOptions } from "../commands/command.js";
import { CliError } from "../errors/cli-error.js";

/** Every name `--upstream` knows. */
export const upstreamNames = Object.freeze([
  "platforms",
  "semver",
  "kubelet",
  "containerd",
  "containers-image",
] as const);

/** A name `--upstream` knows. */
export type UpstreamName = (typeof upstreamNames)[number];

/** What each name accepts, oldest first, and the release used when the flag is absent. */
const accepted: Readonly<Record<UpstreamName, { values: readonly string[]; fallback: string }>> = {
  platforms: { values: platformsReleases, fallback: "rc.5" },
  semver: { values: semverReleases, fallback: "v3.5.0" },
  kubelet: { values: kubeletReleases, fallback: "1.37" },
  containerd: { values: containerdReleases, fallback: "2.4" },
  "containers-image": { values: containersImageReleases, fallback: "5.40" },
};

/** The releases a command reproduces, one per name it reads. */
export interface UpstreamChoice {
  readonly platforms: PlatformsRelease;
  readonly kubelet: KubeletRelease;
  readonly containerd: (typeof containerdReleases)[number];
  readonly "containers-image": ContainersImageRelease;
  readonly semver: SemverRelease;
}

/**
 * Returns the `--upstream` option for a command reading `names`.
 */
export function upstreamOption(names: readonly UpstreamName[]): OptionSpec {
  return {
    type: "string",
    multiple: true,
    value: "NAME=VERSION",
    help: `the upstream release to reproduce: ${names
      .map((n) => `${n}=${accepted[n].values.join("|")} (default ${accepted[n].fallback})`)
      .join(", ")}`,
  };
}

/** The releases `name` accepts, oldest first. */
export function upstreamReleases(name: UpstreamName): readonly string[] {
  return accepted[name].values;
}

/**
 * Reads every `--upstream` of a command that reads `names`: the release per
 * name, the default where none was given. Throws a `USAGE` error naming the
 * flag and the value for a malformed pair, a name the command does not read,
 * a name given twice or a release kubeimg does not reproduce.
 */
export function upstreamChoice(
  values: CommandContext["values"],
  command: string,
  names: readonly UpstreamName[],
): UpstreamChoice {
  return upstreamPairs(stringOptions(values, "upstream"), command, names);
}

/** {@link upstreamChoice} over `NAME=VERSION` pairs given otherwise than on the command line. */
export function upstreamPairs(
  pairs: readonly string[],
  command: string,
  names: readonly UpstreamName[],
): UpstreamChoice {
  const chosen: Record<string, string> = {};
  for (const n of upstreamNames) chosen[n] = accepted[n].fallback;
  const seen = new Set<string>();
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const name = eq < 0 ? "" : pair.slice(0, eq);
    const version = eq < 0 ? "" : pair.slice(eq + 1);
    if (name === "" || version === "") {
      throw new CliError(
        "USAGE",
        `--upstream ${JSON.stringify(pair)}: expected NAME=VERSION`,
        pair,
      );
    }
    if (!(names as readonly string[]).includes(name)) {
      const reads = names.length === 0 ? "none" : names.join(", ");
      const known = (upstreamNames as readonly string[]).includes(name);
      throw new CliError(
        "USAGE",
        known
          ? `--upstream ${name}: kubeimg ${command} does not depend on it (it reads ${reads})`
          : `--upstream ${JSON.stringify(name)}: unknown upstream; kubeimg ${command} reads ${reads}`,
        pair,
      );
    }
    if (seen.has(name)) {
      throw new CliError("USAGE", `--upstream ${name} is given twice`, pair);
    }
    seen.add(name);
    const { values: ok } = accepted[name as UpstreamName];
    if (!ok.includes(version)) {
      const pinned = ok.length === 1 ? `; only the pinned release ${ok[0]} is reproduced yet` : "";
      throw new CliError(
        "USAGE",
        `--upstream ${name}=${version}: not a release kubeimg reproduces; use one of ${ok.join(", ")}${pinned}`,
        pair,
      );
    }
    chosen[name] = version;
  }
  return chosen as unknown as UpstreamChoice;
}
