/** Reads the files containers/image may read for `registries.conf` on a node, for `loadNodeRegistriesConf`. */
import { lstat, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { path as goPath } from "@kubeimg/core/internal";
import type { NodePathProblem } from "../node-files.js";
import {
  type RegistriesConfSearchOptions,
  registriesConfCandidates,
} from "../registries-discovery.js";
import type { ReadNodeOptions } from "./read.js";
import { kindOf, listDir, ReadBudget, readRegular } from "./read-file.js";

/** Options of {@link readNodeRegistriesConf}: where and as whom to look, and the read caps. */
export interface ReadNodeRegistriesConfOptions
  extends RegistriesConfSearchOptions,
    Omit<ReadNodeOptions, "root"> {}

/** What {@link readNodeRegistriesConf} found, in the form `loadNodeRegistriesConf` takes.
 *
 * @inline
 */
export interface NodeRegistriesConfFiles {
  /** Path → text; `""` for a file that is listed but not read; `dir/` for a directory. */
  readonly files: Readonly<Record<string, string>>;
  /** Paths that exist but could not be read, for the `unreadable` option. */
  readonly unreadable: Readonly<Record<string, NodePathProblem>>;
}

/**
 * Reads, from the real filesystem, every main file, override file and
 * drop-in directory containers/image may read for these options (the
 * `.conf` files in each directory are read, other names only listed), as
 * a map for `loadNodeRegistriesConf` (`@kubeimg/policy/node-mirrors`).
 * Paths are the real ones: `root` is containers/image's
 * `RootForImplicitAbsolutePaths`, put in front of `/etc` and `/usr/share`
 * only, so pass the same options to both calls. Past `maxFiles` entries or
 * `maxTotalBytes` bytes the read stops with `LIMIT_EXCEEDED`.
 *
 * @example
 * ```ts
 * import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { loadNodeRegistriesConf } from "@kubeimg/policy/node-mirrors";
 * import { readNodeRegistriesConf } from "@kubeimg/policy/node-mirrors/fs";
 *
 * // On a node, `root` is left out. Here, a node's root made up in a temporary directory:
 * const root = mkdtempSync(join(tmpdir(), "node-"));
 * mkdirSync(join(root, "etc/containers"), { recursive: true });
 * writeFileSync(
 *   join(root, "etc/containers/registries.conf"),
 *   '[[registry]]\nprefix = "docker.io"\nlocation = "mirror.example.com"\n',
 * );
 *
 * const options = { root, uid: 0, home: "/root" };
 * const node = await readNodeRegistriesConf(options);
 * const conf = loadNodeRegistriesConf(node.files, { ...options, unreadable: node.unreadable });
 * conf.registries.map((r) => `${r.prefix} -> ${r.location}`); // ["docker.io -> mirror.example.com"]
 * ```
 */
export async function readNodeRegistriesConf(
  options: ReadNodeRegistriesConfOptions = {},
): Promise<NodeRegistriesConfFiles> {
  const { files: filePaths, dirs } = registriesConfCandidates(options);
  const budget = new ReadBudget(options);
  const files: Record<string, string> = {};
  const unreadable: Record<string, NodePathProblem> = {};

  /** A path through a regular file: record that file, so the map answers "not a directory" as the kernel does. */
  const throughFile = async (path: string) => {
    for (let p = dirname(path); p !== "/"; p = dirname(p)) {
      const info = await stat(p).catch(() => undefined);
      if (info === undefined) continue;
      if (!info.isDirectory()) files[p] ??= "";
      return;
    }
  };

  const readFile = async (path: string) => {
    const read = await readRegular(path, path, budget);
    if (read === undefined) return;
    if ("text" in read) files[path] = read.text;
    else if ("skipped" in read) unreadable[path] = { code: "READ_ERROR", message: read.skipped };
    else unreadable[path] = read.problem;
  };

  const visit = async (path: string, asFile: boolean) => {
    const kind = await kindOf(path);
    if (kind === undefined) {
      const code = await stat(path).then(
        () => undefined,
        (error: unknown) => (error as { code?: unknown }).code,
      );
      if (code === "ENOTDIR") await throughFile(path);
      return;
    }
    if (typeof kind === "object") {
      unreadable[path] = kind.problem;
      return;
    }
    if (kind === "dir") {
      files[`${path}/`] = "";
      if (asFile) return;
      const names = await listDir(path, path, budget);
      if (!Array.isArray(names)) {
        unreadable[path] = names.problem;
        return;
      }
      for (const name of names) {
        const entry = goPath.Join(path, name);
        const entryKind = await kindOf(entry);
        // containers/image lists by the entry's own type (a link is not a directory) and then opens it.
        const link = (await lstat(entry).catch(() => undefined))?.isSymbolicLink() === true;
        if (link && name.endsWith(".conf") && (entryKind === undefined || entryKind === "dir")) {
          if (entryKind === undefined) {
            // A dangling link still masks the name, and opening it finds nothing: as an empty file.
            files[entry] = "";
          } else {
            unreadable[entry] = { code: "READ_ERROR", message: "is a directory" };
          }
          continue;
        }
        if (entryKind === undefined) continue;
        if (typeof entryKind === "object") unreadable[entry] = entryKind.problem;
        else if (entryKind === "dir") files[`${entry}/`] = "";
        else if (name.endsWith(".conf")) await readFile(entry);
        else files[entry] = "";
      }
      return;
    }
    if (asFile) await readFile(path);
    else files[path] ??= "";
  };

  for (const path of filePaths) await visit(path, true);
  for (const path of dirs) await visit(path, false);
  return { files, unreadable };
}
