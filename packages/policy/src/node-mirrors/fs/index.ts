/**
 * Node-only: reads a real node's runtime mirror configuration into the
 * plain maps the pure readers take, so the same resolution runs on a node,
 * in CI and in a browser. Read-only; only regular files are read (a FIFO or
 * device among the config files would otherwise block or stream forever),
 * each up to a size cap; directories are walked to the depth the runtimes
 * look (containerd: `<root>/<host>/<file>`; containers/image: the `.conf`
 * files directly in `registries.conf.d`).
 */
import { constants } from "node:fs";
import { lstat, open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { CRI_DEFAULT_CONFIG_PATH } from "../containerd-hosts.js";
import { NodeMirrorsError, type NodeMirrorsWarning } from "../errors.js";
import {
  REGISTRIES_CONF_DIR,
  REGISTRIES_CONF_PATH,
  type RegistriesConfInput,
} from "../registries-conf.js";

/** Default cap on one config file: no sane hosts.toml or registries.conf comes near it. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

export interface ReadNodeOptions {
  /**
   * Where the node's `/` is mounted (a chroot, a host path volume). Paths
   * in results stay node paths. Default `/`.
   */
  readonly root?: string;
  /** Per-file size cap in bytes. Default 1 MiB. */
  readonly maxFileBytes?: number;
}

export interface NodeContainerdFiles {
  /** Node path → text (`hosts.toml`) or `""` (certificate files); `dir/` for an empty directory. */
  readonly files: Readonly<Record<string, string>>;
  /** The `config_path` these files were read for. */
  readonly configPath: string;
  readonly warnings: readonly NodeMirrorsWarning[];
}

export interface NodeRegistriesConf extends RegistriesConfInput {
  readonly warnings: readonly NodeMirrorsWarning[];
}

function hostPath(root: string, nodePath: string): string {
  return root === "/" ? nodePath : join(root, nodePath);
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** Reads one regular file, refusing anything else and anything over the cap. */
async function readRegular(
  path: string,
  nodePath: string,
  maxBytes: number,
): Promise<{ text: string } | { skipped: string } | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new NodeMirrorsError("READ_ERROR", `open ${nodePath}: ${(error as Error).message}`, {
      file: nodePath,
    });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile())
      return { skipped: `${nodePath} is not a regular file; kubeimg does not read it` };
    if (info.size > maxBytes) {
      throw new NodeMirrorsError(
        "READ_ERROR",
        `${nodePath} is ${info.size} bytes, over the ${maxBytes}-byte cap`,
        { file: nodePath },
      );
    }
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) {
        throw new NodeMirrorsError(
          "READ_ERROR",
          `${nodePath} grew over the ${maxBytes}-byte cap while read`,
          {
            file: nodePath,
          },
        );
      }
      if (length === buffer.length) break;
    }
    try {
      return { text: new TextDecoder("utf-8", { fatal: true }).decode(buffer.subarray(0, length)) };
    } catch {
      throw new NodeMirrorsError("TOML_ERROR", `${nodePath} is not valid UTF-8`, {
        file: nodePath,
      });
    }
  } finally {
    await handle.close();
  }
}

/** The kind of a path (following symlinks, as the runtimes' `os.Stat` does), or undefined when missing. */
async function kindOf(path: string): Promise<"file" | "dir" | "other" | undefined> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? "dir" : info.isFile() ? "file" : "other";
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * Reads the containerd host directories under each root of `configPath`
 * (default: CRI's `/etc/containerd/certs.d:/etc/docker/certs.d`), for
 * `resolveContainerdHosts` (`@kubeimg/policy/node-mirrors`). Certificate files are listed, not read.
 *
 * @example
 * ```ts
 * const node = await readContainerdHostDirs();
 * resolveContainerdHosts("docker.io", node.files, { configPath: node.configPath });
 * ```
 */
export async function readContainerdHostDirs(
  configPath: string = CRI_DEFAULT_CONFIG_PATH,
  options: ReadNodeOptions = {},
): Promise<NodeContainerdFiles> {
  const root = options.root ?? "/";
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const files: Record<string, string> = {};
  const warnings: NodeMirrorsWarning[] = [];
  for (const nodeRoot of configPath === "" ? [] : configPath.split(":")) {
    if (!nodeRoot.startsWith("/")) continue;
    const rootKind = await kindOf(hostPath(root, nodeRoot));
    if (rootKind === undefined) continue;
    if (rootKind !== "dir") {
      files[nodeRoot] = "";
      continue;
    }
    const hosts = await readdir(hostPath(root, nodeRoot));
    for (const host of hosts) {
      const nodeDir = `${nodeRoot.replace(/\/+$/, "")}/${host}`;
      const kind = await kindOf(hostPath(root, nodeDir));
      if (kind === undefined) continue;
      if (kind !== "dir") {
        files[nodeDir] = "";
        continue;
      }
      const entries = await readdir(hostPath(root, nodeDir));
      if (entries.length === 0) files[`${nodeDir}/`] = "";
      for (const name of entries) {
        const nodePath = `${nodeDir}/${name}`;
        const entryKind = await kindOf(hostPath(root, nodePath));
        if (entryKind === undefined) continue;
        if (entryKind === "dir") {
          files[`${nodePath}/`] = "";
          continue;
        }
        if (name !== "hosts.toml") {
          files[nodePath] = "";
          continue;
        }
        const read = await readRegular(hostPath(root, nodePath), nodePath, maxBytes);
        if (read === undefined) continue;
        if ("skipped" in read) {
          warnings.push({ code: "IGNORED_FILE", file: nodePath, message: read.skipped });
          continue;
        }
        files[nodePath] = read.text;
      }
    }
  }
  return { files, configPath, warnings };
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
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const warnings: NodeMirrorsWarning[] = [];
  const main = await readRegular(hostPath(root, confPath), confPath, maxBytes);
  if (main !== undefined && "skipped" in main) {
    throw new NodeMirrorsError("READ_ERROR", main.skipped, { file: confPath });
  }
  const dropIns: Record<string, string> = {};
  let names: string[] = [];
  try {
    names = await readdir(hostPath(root, dropInDir));
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  for (const name of names) {
    if (!name.endsWith(".conf")) continue;
    const nodePath = `${dropInDir}/${name}`;
    const info = await lstat(hostPath(root, nodePath)).catch(() => undefined);
    if (info === undefined || info.isDirectory()) continue;
    const read = await readRegular(hostPath(root, nodePath), nodePath, maxBytes);
    if (read === undefined) continue;
    if ("skipped" in read) {
      warnings.push({ code: "IGNORED_FILE", file: nodePath, message: read.skipped });
      continue;
    }
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
