import { stat } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { isKubeimgError } from "@kubeimg/core";
import { makeDockerKeyring, type PullSecret } from "@kubeimg/core/keyring";
import {
  type ContainersImageRelease,
  containerdReleases,
  containersImageReleases,
  loadRegistriesConf,
  type PlanPullInput,
  type PullPlan,
  planPull,
} from "@kubeimg/policy/node-mirrors";
import { readContainerdHostDirs, readRegistriesConf } from "@kubeimg/policy/node-mirrors/fs";
import type { CompiledRouting, RouteContainerInput } from "@kubeimg/policy/routing";
import type { UpstreamChoice } from "../../args/upstream.js";
import { CliError } from "../../errors/cli-error.js";

type NodeRuntimeConfig = PlanPullInput["node"];
type ContainerdRelease = (typeof containerdReleases)[number];

import { fileError } from "../../files/read-file.js";
import type { CliIo } from "../../io/io.js";
import type { Colors } from "../../output/color.js";
import { sanitizeText } from "../../output/sanitize.js";

/**
 * Reads `--node-config`: a directory is a containerd hosts root (CRI
 * `config_path`), a file is a registries.conf (drop-ins from `FILE.d`)
 * read as `containersImage` does.
 */
export async function loadNodeConfig(
  name: string,
  io: CliIo,
  containersImage?: ContainersImageRelease,
  containerd?: ContainerdRelease,
): Promise<NodeRuntimeConfig> {
  const path = isAbsolute(name) ? name : join(io.cwd, name);
  let isDir: boolean;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new CliError(
        "FILE_NOT_FOUND",
        `--node-config ${name}: no such file or directory`,
        name,
        { cause: error },
      );
    }
    throw fileError(name, error, "--node-config");
  }
  try {
    if (isDir) {
      const node = await readContainerdHostDirs(path);
      return {
        runtime: "containerd",
        files: node.files,
        options: {
          configPath: path,
          unreadable: node.unreadable,
          ...(containerd === undefined ? {} : { containerd }),
        },
      };
    }
    const input = await readRegistriesConf(path, `${path}.d`);
    return {
      runtime: "containers-image",
      conf: loadRegistriesConf(
        containersImage === undefined ? input : { ...input, containersImage },
      ),
    };
  } catch (error) {
    if (isKubeimgError(error)) throw error;
    // A system error from a file inside: name that file as the user would.
    const inner = (error as { path?: unknown }).path;
    const file = typeof inner === "string" && inner !== path ? relative(io.cwd, inner) : name;
    throw fileError(file, error, "--node-config");
  }
}

/** The pull plan for the container, each alternative's keyring holding its kuik credential secret; its explain names the release reproduced. */
export function nodePlan(
  routing: CompiledRouting,
  input: RouteContainerInput,
  node: NodeRuntimeConfig,
  secrets: ReadonlyMap<string, PullSecret>,
  upstream?: Pick<UpstreamChoice, "containerd" | "containers-image">,
): PullPlan {
  const plan = planned(routing, input, node, secrets);
  if (upstream === undefined) return plan;
  const release =
    node.runtime === "containerd"
      ? `containerd ${upstream.containerd}: hosts.toml read as that release does (--upstream containerd=${containerdReleases.join("|")})`
      : `containers/image ${upstream["containers-image"]}: registries.conf read as that release does (--upstream containers-image=${containersImageReleases.join("|")})`;
  return { ...plan, explain: [release, ...plan.explain] };
}

function planned(
  routing: CompiledRouting,
  input: RouteContainerInput,
  node: NodeRuntimeConfig,
  secrets: ReadonlyMap<string, PullSecret>,
): PullPlan {
  return planPull({
    ...input,
    routing,
    node,
    keyring: ({ credentialSecret }) => {
      const secret =
        credentialSecret === undefined
          ? undefined
          : secrets.get(`${credentialSecret.namespace}/${credentialSecret.name}`);
      return secret === undefined ? undefined : makeDockerKeyring([secret]);
    },
  });
}

/**
 * The whole-path view as text: each alternative, then its endpoints in
 * order with their explain lines. Everything but the labels comes from the
 * node's files, the CRs or the registry (header names, server URLs, CA
 * paths), so each piece goes through the sanitizer before it is styled.
 */
export function renderNodePlan(plan: PullPlan, c: Colors): string {
  const t = sanitizeText;
  const out: string[] = ["", c.bold("on the node:")];
  for (const line of plan.explain) out.push(`  ${t(line)}`);
  plan.alternatives.forEach((alt, i) => {
    out.push(`${i + 1}. ${t(alt.image)}  ${c.dim(t(alt.webhook))}`);
    for (const line of alt.explain) out.push(`     ${c.dim(t(line))}`);
    if (alt.error !== undefined)
      out.push(`     ${c.red(`fails: ${t(alt.error.code)}: ${t(alt.error.message)}`)}`);
    alt.endpoints.forEach((e, j) => {
      const blocked = e.blocked ? ` ${c.red("(blocked)")}` : "";
      const creds =
        e.credentials.source === "none"
          ? "anonymous"
          : `credential for ${t(e.credentials.matchedKey)}`;
      out.push(
        `   ${String.fromCharCode(97 + (j % 26))}. ${t(e.endpoint)} -> ${t(e.reference)}${blocked}; ${creds}`,
      );
      for (const line of e.explain) out.push(`      ${c.dim(t(line))}`);
    });
    for (const w of alt.warnings) out.push(`     ${c.yellow(`warning: ${t(w.message)}`)}`);
  });
  return out.join("\n");
}
