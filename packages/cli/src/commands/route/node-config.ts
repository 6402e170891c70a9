import { stat } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { isKubeimgError } from "@kubeimg/core";
import { makeDockerKeyring, type PullSecret } from "@kubeimg/core/keyring";
import {
  type ContainersImageRelease,
  containerdReleases,
  containersImageReleases,
  loadNodeRegistriesConf,
  loadRegistriesConf,
  type PlanPullInput,
  type PullPlan,
  planPull,
} from "@kubeimg/policy/node-mirrors";
import {
  readContainerdHostDirs,
  readNodeRegistriesConf,
  readRegistriesConf,
} from "@kubeimg/policy/node-mirrors/fs";
import type { CompiledRouting, RouteContainerInput } from "@kubeimg/policy/routing";
import type { UpstreamChoice } from "../../args/upstream.js";
import { CliError } from "../../errors/cli-error.js";
import { type CommandContext, stringOption, stringOptions } from "../command.js";

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
  const { path, isDir } = await statFlagPath("--node-config", name, io);
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

/**
 * The variables of the pulling process that decide which registries.conf
 * files containers/image reads; given by `--node-env`, never taken from
 * the CLI's own environment (that is the machine running kubeimg, not the
 * node's CRI-O or podman).
 */
const NODE_ENV_NAMES = [
  "HOME",
  "XDG_CONFIG_HOME",
  "CONTAINERS_REGISTRIES_CONF",
  "CONTAINERS_REGISTRIES_CONF_OVERRIDE",
] as const;
type NodeEnvName = (typeof NODE_ENV_NAMES)[number];

/** `--node-uid`: a uid, 0 or more (0 when absent, as CRI-O runs). */
function nodeUid(flag: string | undefined): number {
  if (flag === undefined) return 0;
  const uid = /^[0-9]+$/.test(flag) ? Number(flag) : Number.NaN;
  if (!Number.isSafeInteger(uid)) {
    throw new CliError(
      "USAGE",
      `--node-uid must be a uid (an integer, 0 or more), not "${flag}"`,
      flag,
    );
  }
  return uid;
}

/** `--node-env NAME=PATH` values: known names only, each once, each an absolute path on the node. */
function nodeEnv(flags: readonly string[]): Partial<Record<NodeEnvName, string>> {
  const env: Partial<Record<NodeEnvName, string>> = {};
  for (const item of flags) {
    const eq = item.indexOf("=");
    const name = eq <= 0 ? "" : item.slice(0, eq);
    const value = item.slice(eq + 1);
    if (!(NODE_ENV_NAMES as readonly string[]).includes(name)) {
      throw new CliError(
        "USAGE",
        `--node-env must be NAME=PATH with NAME one of ${NODE_ENV_NAMES.join(", ")}, not "${item}"`,
        item,
      );
    }
    const key = name as NodeEnvName;
    if (env[key] !== undefined) {
      throw new CliError(
        "USAGE",
        `--node-env ${key} is given twice ("${env[key]}", "${value}")`,
        item,
      );
    }
    if (!value.startsWith("/")) {
      throw new CliError(
        "USAGE",
        `--node-env ${key} must be an absolute path on the node, not "${value}"`,
        item,
      );
    }
    env[key] = value;
  }
  return env;
}

/**
 * Reads `--node-root`: every registries.conf, drop-in directory and
 * override file containers/image (the release chosen) reads on that node,
 * for the pulling process's uid and environment. Every path the process
 * would open, `$HOME` and the variables' paths included, is looked up
 * under the root.
 */
export async function loadNodeRoot(
  name: string,
  io: CliIo,
  flags: { readonly uid: string | undefined; readonly env: readonly string[] },
  containersImage?: ContainersImageRelease,
): Promise<NodeRuntimeConfig> {
  const uid = nodeUid(flags.uid);
  const env = nodeEnv(flags.env);
  if (uid > 0 && env.HOME === undefined) {
    throw new CliError(
      "USAGE",
      `--node-uid ${uid} needs --node-env HOME=PATH: containers/image reads a rootless user's registries.conf under $HOME`,
      String(uid),
    );
  }
  const { path: root, isDir } = await statFlagPath("--node-root", name, io);
  if (!isDir) {
    throw new CliError(
      "USAGE",
      `--node-root ${name}: not a directory (give the node's file-system root, a copy or a mount; --node-config reads one registries.conf)`,
      name,
    );
  }
  const under = (path: string | undefined) => (path === undefined ? undefined : join(root, path));
  const options = {
    root,
    uid,
    home: under(env.HOME ?? "/root"),
    ...(env.XDG_CONFIG_HOME === undefined ? {} : { xdgConfigHome: under(env.XDG_CONFIG_HOME) }),
    env: {
      ...(env.CONTAINERS_REGISTRIES_CONF === undefined
        ? {}
        : { CONTAINERS_REGISTRIES_CONF: under(env.CONTAINERS_REGISTRIES_CONF) }),
      ...(env.CONTAINERS_REGISTRIES_CONF_OVERRIDE === undefined
        ? {}
        : { CONTAINERS_REGISTRIES_CONF_OVERRIDE: under(env.CONTAINERS_REGISTRIES_CONF_OVERRIDE) }),
    },
  };
  try {
    const node = await readNodeRegistriesConf(options);
    return {
      runtime: "containers-image",
      conf: loadNodeRegistriesConf(node.files, {
        ...options,
        unreadable: node.unreadable,
        ...(containersImage === undefined ? {} : { containersImage }),
      }),
    };
  } catch (error) {
    if (isKubeimgError(error)) throw error;
    const inner = (error as { path?: unknown }).path;
    const file = typeof inner === "string" && inner !== root ? relative(io.cwd, inner) : name;
    throw fileError(file, error, "--node-root");
  }
}

/** The node's runtime configuration from `--node-config` or `--node-root`, when one is given. */
export async function loadNode(
  values: CommandContext["values"],
  io: CommandContext["io"],
  upstream: Pick<UpstreamChoice, "containerd" | "containers-image">,
): Promise<NodeRuntimeConfig | undefined> {
  const nodeConfigName = stringOption(values, "node-config");
  const nodeRoot = stringOption(values, "node-root");
  const uid = stringOption(values, "node-uid");
  const env = stringOptions(values, "node-env");
  if (nodeConfigName !== undefined && nodeRoot !== undefined) {
    throw new CliError(
      "USAGE",
      "--node-config and --node-root both say where the node's configuration is: give one (--node-config for one registries.conf or a containerd hosts root, --node-root for a node's whole registries.conf set)",
      "--node-root",
    );
  }
  if (nodeRoot === undefined && (uid !== undefined || env.length > 0)) {
    const flag = uid !== undefined ? "--node-uid" : "--node-env";
    throw new CliError(
      "USAGE",
      `${flag} needs --node-root (the node whose files it describes)`,
      flag,
    );
  }
  if (nodeRoot !== undefined) {
    return loadNodeRoot(nodeRoot, io, { uid, env }, upstream["containers-image"]);
  }
  return nodeConfigName === undefined
    ? undefined
    : loadNodeConfig(nodeConfigName, io, upstream["containers-image"], upstream.containerd);
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
  const read = node.runtime === "containers-image" ? filesRead(node.conf.files) : [];
  if (upstream === undefined) return { ...plan, explain: [...read, ...plan.explain] };
  const release =
    node.runtime === "containerd"
      ? `containerd ${upstream.containerd}: hosts.toml read as that release does (--upstream containerd=${containerdReleases.join("|")})`
      : `containers/image ${upstream["containers-image"]}: registries.conf read as that release does (--upstream containers-image=${containersImageReleases.join("|")})`;
  return { ...plan, explain: [release, ...read, ...plan.explain] };
}

/** The explain lines naming the registries.conf files merged, in the order read. */
function filesRead(files: readonly string[]): string[] {
  if (files.length === 0)
    return ["no registries.conf file found: containers/image's defaults apply"];
  return files.map((file, i) => `registries.conf file ${i + 1} of ${files.length}: ${file}`);
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

/** The path a flag names (relative to the working directory), and whether it is a directory. */
async function statFlagPath(
  flag: string,
  name: string,
  io: CliIo,
): Promise<{ path: string; isDir: boolean }> {
  const path = isAbsolute(name) ? name : join(io.cwd, name);
  try {
    return { path, isDir: (await stat(path)).isDirectory() };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new CliError("FILE_NOT_FOUND", `${flag} ${name}: no such file or directory`, name, {
        cause: error,
      });
    }
    throw fileError(name, error, flag);
  }
}
