/** The node-mirrors filesystem readers (see this folder's index for what they read and how). */
import { lstat } from "node:fs/promises";
import { CRI_DEFAULT_CONFIG_PATH } from "../containerd-hosts.js";
import { NodeMirrorsError, type NodeMirrorsWarning } from "../errors.js";
import type { NodePathProblem } from "../node-files.js";
import {
  REGISTRIES_CONF_DIR,
  REGISTRIES_CONF_PATH,
  type RegistriesConfInput,
} from "../registries-conf.js";

import { hostPath, kindOf, listDir, ReadBudget, readRegular } from "./read-file.js";

export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_FILES,
  DEFAULT_MAX_TOTAL_BYTES,
} from "./read-file.js";

export interface ReadNodeOptions {
  /**
   * Where the node's `/` is mounted (a chroot, a host path volume). Paths
   * in results stay node paths. Default `/`.
   */
  readonly root?: string;
  /** Per-file size cap in bytes. Default 1 MiB. */
  readonly maxFileBytes?: number;
  /** Directory entries looked at in one read, files and directories together. Default 10,000. */
  readonly maxFiles?: number;
  /** Bytes read in one read, all files together. Default 16 MiB. */
  readonly maxTotalBytes?: number;
}

export interface NodeContainerdFiles {
  /** Node path → text (`hosts.toml`) or `""` (certificate files); `dir/` for an empty directory. */
  readonly files: Readonly<Record<string, string>>;
  /**
   * Paths that exist but could not be read (a symlink loop, a permission, a
   * hosts.toml over the size cap or not UTF-8), for the `unreadable` option
   * of `resolveContainerdHosts` (`@kubeimg/policy/node-mirrors`): only the hosts whose lookup reaches
   * one are affected, as on the node.
   */
  readonly unreadable: Readonly<Record<string, NodePathProblem>>;
  /** The `config_path` these files were read for. */
  readonly configPath: string;
  readonly warnings: readonly NodeMirrorsWarning[];
}

export interface NodeRegistriesConf extends RegistriesConfInput {
  readonly warnings: readonly NodeMirrorsWarning[];
}

/**
 * Reads the containerd host directories under each root of `configPath`
 * (default: CRI's `/etc/containerd/certs.d:/etc/docker/certs.d`), for
 * `resolveContainerdHosts` (`@kubeimg/policy/node-mirrors`). Certificate files are listed, not read.
 *
 * A path that cannot be read (a symlink loop, a permission, a hosts.toml
 * over `maxFileBytes` or not UTF-8) does not stop the read: it is returned
 * in `unreadable` with a warning, and only the hosts whose lookup reaches
 * it fail (or, for a hosts.toml that is not UTF-8, fall back to the
 * directory's certificate files), as on the node. Past `maxFiles` entries
 * or `maxTotalBytes` bytes the read stops with `LIMIT_EXCEEDED`.
 *
 * @example
 * ```ts
 * import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { resolveContainerdHosts } from "@kubeimg/policy/node-mirrors";
 * import { readContainerdHostDirs } from "@kubeimg/policy/node-mirrors/fs";
 *
 * // On a node: `await readContainerdHostDirs()`. Here, a node's root made up in a temporary directory:
 * const root = mkdtempSync(join(tmpdir(), "node-"));
 * mkdirSync(join(root, "etc/containerd/certs.d/docker.io"), { recursive: true });
 * writeFileSync(join(root, "etc/containerd/certs.d/docker.io/hosts.toml"), 'server = "https://mirror.example.com"\n');
 *
 * const node = await readContainerdHostDirs("/etc/containerd/certs.d", { root });
 * const r = resolveContainerdHosts("docker.io", node.files, {
 *   configPath: node.configPath,
 *   unreadable: node.unreadable,
 * });
 * r.hosts.map((h) => `${h.scheme}://${h.host}${h.path}`); // ["https://mirror.example.com/v2"]
 * ```
 */
export async function readContainerdHostDirs(
  configPath: string = CRI_DEFAULT_CONFIG_PATH,
  options: ReadNodeOptions = {},
): Promise<NodeContainerdFiles> {
  const root = options.root ?? "/";
  const budget = new ReadBudget(options);
  const files: Record<string, string> = {};
  const unreadable: Record<string, NodePathProblem> = {};
  const warnings: NodeMirrorsWarning[] = [];
  const cannotRead = (nodePath: string, problem: NodePathProblem) => {
    unreadable[nodePath] = problem;
    warnings.push(
      problem.code === "TOML_ERROR"
        ? {
            code: "HOSTS_TOML_IGNORED",
            file: nodePath,
            message: `${nodePath} is not valid UTF-8: containerd fails to decode it and uses the directory's certificate files instead`,
          }
        : {
            code: "UNREADABLE_PATH",
            file: nodePath,
            message:
              problem.code === "LIMIT_EXCEEDED"
                ? `${nodePath} was not read: ${problem.message}; resolving a host that uses it fails`
                : `${nodePath} cannot be read (${problem.message}): containerd fails every pull whose host lookup reaches it, and so does resolving it here`,
          },
    );
  };
  for (const nodeRoot of configPath === "" ? [] : configPath.split(":")) {
    if (!nodeRoot.startsWith("/")) continue;
    const rootKind = await kindOf(hostPath(root, nodeRoot));
    if (rootKind === undefined) continue;
    if (typeof rootKind === "object") {
      cannotRead(nodeRoot, rootKind.problem);
      continue;
    }
    if (rootKind !== "dir") {
      files[nodeRoot] = "";
      continue;
    }
    const hosts = await listDir(hostPath(root, nodeRoot), nodeRoot, budget);
    if (!Array.isArray(hosts)) {
      cannotRead(nodeRoot, hosts.problem);
      continue;
    }
    for (const host of hosts) {
      const nodeDir = `${nodeRoot.replace(/\/+$/, "")}/${host}`;
      const kind = await kindOf(hostPath(root, nodeDir));
      if (kind === undefined) continue;
      if (typeof kind === "object") {
        cannotRead(nodeDir, kind.problem);
        continue;
      }
      if (kind !== "dir") {
        files[nodeDir] = "";
        continue;
      }
      const entries = await listDir(hostPath(root, nodeDir), nodeDir, budget);
      if (!Array.isArray(entries)) {
        cannotRead(nodeDir, entries.problem);
        continue;
      }
      if (entries.length === 0) files[`${nodeDir}/`] = "";
      for (const name of entries) {
        const nodePath = `${nodeDir}/${name}`;
        const entryKind = await kindOf(hostPath(root, nodePath));
        if (entryKind === undefined) continue;
        if (typeof entryKind === "object") {
          cannotRead(nodePath, entryKind.problem);
          continue;
        }
        if (entryKind === "dir") {
          files[`${nodePath}/`] = "";
          continue;
        }
        if (name !== "hosts.toml") {
          files[nodePath] = "";
          continue;
        }
        const read = await readRegular(hostPath(root, nodePath), nodePath, budget);
        if (read === undefined) continue;
        if ("skipped" in read) {
          warnings.push({ code: "IGNORED_FILE", file: nodePath, message: read.skipped });
          continue;
        }
        if ("problem" in read) {
          cannotRead(nodePath, read.problem);
          continue;
        }
        files[nodePath] = read.text;
      }
    }
  }
  return { files, unreadable, configPath, warnings };
}

/** A registries.conf file that cannot be read fails the whole configuration, as in containers/image. */
function refuse(problem: NodePathProblem, nodePath: string): NodeMirrorsError {
  const message =
    problem.code === "TOML_ERROR"
      ? `${nodePath} is not valid UTF-8`
      : problem.code === "LIMIT_EXCEEDED"
        ? `${nodePath}: ${problem.message}`
        : `open ${nodePath}: ${problem.message}`;
  return new NodeMirrorsError(problem.code, message, { file: nodePath });
}

/**
 * Reads `registries.conf` and the `.conf` files directly in its drop-in
 * directory, in the form `loadRegistriesConf` (`@kubeimg/policy/node-mirrors`) takes. A missing main
 * file at the default path counts as empty (as containers/image treats the
 * implicit system file); at a path given explicitly it stays `null`
 * (`NO_CONFIG_FILE`, as CRI-O fails).
 */
export async function readRegistriesConf(
  confPath: string = REGISTRIES_CONF_PATH,
  dropInDir: string = confPath === REGISTRIES_CONF_PATH ? REGISTRIES_CONF_DIR : `${confPath}.d`,
  options: ReadNodeOptions = {},
): Promise<NodeRegistriesConf> {
  const root = options.root ?? "/";
  const budget = new ReadBudget(options);
  const warnings: NodeMirrorsWarning[] = [];
  const main = await readRegular(hostPath(root, confPath), confPath, budget);
  if (main !== undefined && "skipped" in main) {
    throw new NodeMirrorsError("READ_ERROR", main.skipped, { file: confPath });
  }
  if (main !== undefined && "problem" in main) throw refuse(main.problem, confPath);
  const dropIns: Record<string, string> = {};
  const names = await listDir(hostPath(root, dropInDir), dropInDir, budget);
  if (!Array.isArray(names)) throw refuse(names.problem, dropInDir);
  for (const name of names) {
    if (!name.endsWith(".conf")) continue;
    const nodePath = `${dropInDir}/${name}`;
    const info = await lstat(hostPath(root, nodePath)).catch(() => undefined);
    if (info === undefined || info.isDirectory()) continue;
    const read = await readRegular(hostPath(root, nodePath), nodePath, budget);
    if (read === undefined) continue;
    if ("skipped" in read) {
      warnings.push({ code: "IGNORED_FILE", file: nodePath, message: read.skipped });
      continue;
    }
    if ("problem" in read) throw refuse(read.problem, nodePath);
    dropIns[name] = read.text;
  }
  return {
    conf: main === undefined ? null : main.text,
    dropIns,
    confPath,
    dropInDir,
    missingConf: confPath === REGISTRIES_CONF_PATH ? "empty" : "error",
    warnings,
  };
}
