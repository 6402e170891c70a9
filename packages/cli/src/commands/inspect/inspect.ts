import { makeDockerKeyring } from "@kubeimg/core/keyring";
import {
  defaultMatcher,
  formatAllPlatform,
  normalizePlatform,
  orderIndexEntries,
  type Platform,
  type PlatformsRelease,
} from "@kubeimg/core/platform";
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import { keyringCredentials, RegistryError } from "@kubeimg/registry/client";
import {
  type ListedEntry,
  listImagePlatforms,
  type PlatformResolution,
  resolveImagePlatform,
} from "@kubeimg/registry/platform";
import { upstreamChoice, upstreamOption } from "../../args/upstream.js";
import { CliError } from "../../errors/cli-error.js";
import { EXIT_CODES } from "../../errors/exit-codes.js";
import type { Colors } from "../../output/color.js";
import { type Cell, renderFields, renderTable } from "../../output/table.js";
import { writeResult } from "../../output/write.js";
import { registryAccess } from "../../registry/registry-access.js";
import { REGISTRY_OPTIONS } from "../../registry/registry-options.js";
import { type Command, stringOption } from "../command.js";
import { defaultNodePlatform, nodePlatformOption } from "./node-platform.js";

/** One index entry as `inspect` reports it. */
interface EntryRow {
  /** Where the node tries it (1 = first), or null when it never would. */
  readonly try: number | null;
  readonly position: number;
  readonly platform: string | null;
  readonly digest: string;
  readonly mediaType: string;
  readonly attestation: boolean;
  readonly chosen: boolean;
  readonly nested?: readonly EntryRow[];
}

/** What a node of `platform` runs, as the chosen containerd/platforms release decides. */
function nodeMatcher(platform: Platform, release: PlatformsRelease) {
  const options = { host: platform, platforms: release };
  return defaultMatcher(normalizePlatform(platform, options), options);
}

const shortDigest = (digest: string) => (digest.length > 19 ? `${digest.slice(0, 19)}…` : digest);

function rows(
  entries: readonly ListedEntry[],
  platform: Platform,
  release: PlatformsRelease,
  chosenPath: readonly number[],
  depth = 0,
): EntryRow[] {
  const comparer = nodeMatcher(platform, release);
  const usable = entries.filter((e) => !e.attestation);
  const order = orderIndexEntries(comparer, usable).map((i) => (usable[i] as ListedEntry).position);
  const tried = (e: ListedEntry) => order.indexOf(e.position);
  const sorted = [...entries].sort((a, b) => {
    const ta = tried(a);
    const tb = tried(b);
    if (ta >= 0 && tb >= 0) return ta - tb;
    if (ta >= 0) return -1;
    if (tb >= 0) return 1;
    return a.position - b.position;
  });
  return sorted.map((e) => {
    const t = tried(e);
    const chosen = chosenPath[depth] === e.position;
    return {
      try: t >= 0 ? t + 1 : null,
      position: e.position,
      platform: e.platform === undefined ? null : formatAllPlatform(e.platform),
      digest: e.digest,
      mediaType: e.mediaType,
      attestation: e.attestation,
      chosen,
      ...(e.children
        ? { nested: rows(e.children, platform, release, chosen ? chosenPath : [], depth + 1) }
        : {}),
    };
  });
}

function entryTable(list: readonly EntryRow[], c: Colors, indent = ""): Cell[][] {
  const out: Cell[][] = [];
  for (const r of list) {
    const note = r.chosen
      ? { text: "chosen", style: c.green }
      : r.attestation
        ? { text: "attestation, never chosen", style: c.dim }
        : r.try === null
          ? { text: "not for this node", style: c.dim }
          : "";
    out.push([
      `${indent}${r.try ?? "-"}`,
      r.platform ?? "(none)",
      shortDigest(r.digest),
      r.mediaType,
      note,
    ]);
    if (r.nested) out.push(...entryTable(r.nested, c, `${indent}  `));
  }
  return out;
}

/** `kubeimg inspect` */
export const inspectCommand: Command = {
  name: "inspect",
  summary: "show an image's platforms and the manifest a node of a platform pulls",
  usage: "kubeimg inspect IMAGE [--platform P]",
  description: [
    "Reads an image's index from its registry and lists its platforms in the order a",
    "node of platform P tries them (containerd's rules: a linux/arm64 node also runs",
    "arm/v8 down to arm/v5, an amd64/v3 node runs v2, v1 and 386), then the manifest",
    "that node pulls, its digest, and its config's platform and `created` time.",
    "Attestation manifests are listed but never chosen; a nested index is shown",
    "inside its entry.",
    "",
    "P is a containerd platform specifier (linux/arm64/v8, windows(10.0.20348)/amd64);",
    "the default is a Linux node with this machine's CPU. Exit 1 when the image has",
    "nothing for P.",
  ].join("\n"),
  options: {
    platform: {
      type: "string",
      value: "P",
      help: "the node's platform (default: linux/<this CPU>)",
    },
    upstream: upstreamOption(["platforms"]),
    ...REGISTRY_OPTIONS,
  },
  positionals: true,
  examples: [
    ["what does an arm64 node pull?", "kubeimg inspect nginx:1.27 --platform linux/arm64"],
    [
      "a Windows Server 2022 node",
      "kubeimg inspect mcr.microsoft.com/windows/nanoserver:ltsc2022 --platform 'windows(10.0.20348)/amd64'",
    ],
  ],
  async run(context) {
    const { positionals, values, format, colors, io } = context;
    if (positionals.length !== 1) {
      throw new CliError(
        "USAGE",
        "inspect takes exactly one IMAGE (see 'kubeimg inspect --help')",
        "IMAGE",
      );
    }
    const image = positionals[0] as string;
    const upstream = upstreamChoice(values, "inspect", ["platforms"]);
    const named = parseNormalizedNamed(image);
    const flag = stringOption(values, "platform");
    const platform =
      flag === undefined
        ? (normalizePlatform(defaultNodePlatform()) as Platform)
        : nodePlatformOption(flag);
    const access = await registryAccess(context, { defaultTimeoutMs: 30_000 });
    // Credentials as the kubelet has them: --secret-file Secrets, then the node's --docker-config.
    const credentials = keyringCredentials(makeDockerKeyring(access.secrets, access.keyring));
    const call = {
      ...(io.signal ? { signal: io.signal } : {}),
      credentials,
      timeoutMs: access.timeoutMs,
    };
    const listing = await listImagePlatforms(access.client, named, call);
    let resolution: PlatformResolution | undefined;
    let noMatch: string | undefined;
    try {
      resolution = await resolveImagePlatform(access.client, named, {
        ...call,
        matcher: nodeMatcher(platform, upstream.platforms),
      });
    } catch (error) {
      if (!(error instanceof RegistryError) || error.code !== "NO_MATCHING_PLATFORM") throw error;
      noMatch = error.message;
    }
    const chosenPath = resolution?.indexes.map((i) => i.chosen) ?? [];
    const entries =
      listing.kind === "index"
        ? rows(listing.entries, platform, upstream.platforms, chosenPath)
        : [];
    const platformName = formatAllPlatform(platform);
    const data = {
      image,
      platform: platformName,
      platforms: upstream.platforms,
      digest: listing.digest,
      mediaType: listing.mediaType,
      kind: listing.kind,
      entries,
      manifest: resolution
        ? {
            digest: resolution.manifest.digest,
            mediaType: resolution.manifest.mediaType,
            size: resolution.manifest.size,
          }
        : null,
      config: resolution
        ? {
            digest: resolution.config.digest,
            platform: formatAllPlatform(resolution.config),
            created: resolution.config.created ?? null,
            labels: { ...resolution.config.labels },
          }
        : null,
      configMatches: resolution?.configMatches ?? false,
      ...(noMatch ? { error: noMatch } : {}),
    };
    writeResult(
      io,
      format,
      data,
      (c) => {
        const header = renderFields(
          [
            ["image", image],
            ["digest", listing.digest],
            ["media type", listing.mediaType],
            ["node platform", platformName],
            ["containerd/platforms", upstream.platforms],
          ],
          c,
        );
        const table =
          entries.length === 0
            ? ""
            : `\n${renderTable(["TRY", "PLATFORM", "DIGEST", "MEDIA TYPE", ""], entryTable(entries, c), c)}`;
        const footer = resolution
          ? renderFields(
              [
                ["pulls", { text: resolution.manifest.digest, style: c.green }],
                ["config", resolution.config.digest],
                [
                  "config platform",
                  resolution.configMatches
                    ? formatAllPlatform(resolution.config)
                    : {
                        text: `${formatAllPlatform(resolution.config)} (does not match ${platformName}: the node pulls it and fails with "exec format error")`,
                        style: c.red,
                      },
                ],
                ["created", resolution.config.created ?? "-"],
              ],
              c,
            )
          : renderFields([["pulls", { text: `nothing: ${noMatch ?? ""}`, style: c.red }]], c);
        return `${header}${table}\n${footer}`;
      },
      colors,
    );
    return resolution?.configMatches ? EXIT_CODES.OK : EXIT_CODES.NOTHING_FOUND;
  },
};
