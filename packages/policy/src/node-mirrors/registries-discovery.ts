/**
 * Which `registries.conf` files containers/image reads on a node, in which
 * order, and the configuration they make together, from a map of the
 * node's files (`loadNodeRegistriesConf`); `node-mirrors/fs` reads the real
 * directories into that map.
 *
 * 5.40 (go.podman.io/storage `pkg/configfile`, used by `sysregistriesv2`
 * from 5.40 on): the first main file that exists of `$XDG_CONFIG_HOME` (or
 * `$HOME/.config`)`/containers/registries.conf`, `/etc/containers/…` and
 * `/usr/share/containers/…`; then the `.conf` files of the drop-in
 * directories (`getDropInPaths`, highest priority first: the user's
 * `registries.conf.d`; then under `/etc` and then `/usr/share`:
 * `registries.rootless.conf.d/<uid>` and `registries.rootless.conf.d` for a
 * uid above 0, `registries.rootful.conf.d` for uid 0, and
 * `registries.conf.d`), keyed by **basename across directories** — a name
 * in a higher directory masks the same name lower down — and read in byte
 * order of basename (`readDropInsFromPaths`); last the file named by
 * `CONTAINERS_REGISTRIES_CONF_OVERRIDE`. `CONTAINERS_REGISTRIES_CONF`
 * replaces the main files and turns the drop-ins off. Each file is merged
 * over the ones before.
 *
 * 5.36 (v5.36.1 `newConfigWrapperWithHomeDir`, `dropInConfigs`): the
 * user's `$HOME/.config/containers/registries.conf` when it exists, with
 * only the user's drop-in directory; otherwise `/etc/containers/registries.conf`
 * (missing: empty), then the `.conf` files of `/etc/containers/registries.conf.d`
 * and of the user's directory, each directory in name order, nothing
 * masked. It reads no environment variable (podman and CRI-O turn
 * `CONTAINERS_REGISTRIES_CONF` into an explicit path, which is
 * `loadRegistriesConf`'s `confPath`).
 */
import { path as goPath, strconv as goStrconv, strings as goStrings } from "@kubeimg/core/internal";
import { NodeMirrorsError, type NodeMirrorsWarning } from "./errors.js";
import { type NodeFileMap, NodeFiles, type NodePathProblem } from "./node-files.js";
import {
  type ContainersImageRelease,
  containersImageReleases,
  loadFile,
  mergeFiles,
} from "./registries-conf.js";
import type { ParsedFile } from "./registries-decode.js";
import type { RegistriesConf } from "./registries-types.js";

/** Where and as whom containers/image looks for `registries.conf`.
 *
 * @inline
 */
export interface RegistriesConfSearchOptions {
  /**
   * `RootForImplicitAbsolutePaths`: put in front of the `/etc` and
   * `/usr/share` paths, never of the `$HOME`, `$XDG_CONFIG_HOME` or
   * environment-variable paths. Absolute; default none.
   */
  readonly root?: string;
  /** The uid of the process that pulls (`unshare.GetRootlessUID`): 0 for CRI-O. Default 0. */
  readonly uid?: number;
  /** `$HOME` of that process. Absolute; default `/root` for uid 0, required otherwise. */
  readonly home?: string;
  /** `$XDG_CONFIG_HOME` when it is set (5.40 looks there instead of `$HOME/.config`). Absolute. */
  readonly xdgConfigHome?: string;
  /** The environment variables 5.40 reads; an empty value counts as unset, as in containers/image. */
  readonly env?: {
    readonly CONTAINERS_REGISTRIES_CONF?: string;
    readonly CONTAINERS_REGISTRIES_CONF_OVERRIDE?: string;
  };
}

/** Options of {@link loadNodeRegistriesConf}. */
export interface NodeRegistriesConfOptions extends RegistriesConfSearchOptions {
  /** The containers/image release reproduced. Default `"5.40"`. */
  readonly containersImage?: ContainersImageRelease;
  /** Paths that exist but could not be read (what `readNodeRegistriesConf` returns as `unreadable`). */
  readonly unreadable?: Readonly<Record<string, NodePathProblem>>;
}

interface Checked {
  readonly root: string;
  readonly uid: number;
  readonly home: string | undefined;
  readonly xdgConfigHome: string | undefined;
  readonly conf: string;
  readonly override: string;
}

function invalid(key: string, message: string): NodeMirrorsError {
  return new NodeMirrorsError("INVALID_ARGUMENT", `${key}: ${message}`, { key });
}

function absolute(key: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !value.startsWith("/")) {
    throw invalid(key, `${JSON.stringify(value)} is not an absolute path`);
  }
  return value;
}

function check(options: RegistriesConfSearchOptions): Checked {
  const uid = options.uid ?? 0;
  if (!Number.isSafeInteger(uid) || uid < 0) {
    throw invalid("uid", `${JSON.stringify(uid)} is not a uid (an integer, 0 or more)`);
  }
  const root =
    options.root === undefined || options.root === "" ? "" : absolute("root", options.root);
  const xdgConfigHome = absolute("xdgConfigHome", options.xdgConfigHome);
  const home = absolute("home", options.home) ?? (uid === 0 ? "/root" : undefined);
  if (home === undefined) {
    throw invalid(
      "home",
      `needed for uid ${uid}: containers/image reads the user's registries.conf under $HOME; pass home`,
    );
  }
  const env = options.env ?? {};
  const conf = env.CONTAINERS_REGISTRIES_CONF ?? "";
  const override = env.CONTAINERS_REGISTRIES_CONF_OVERRIDE ?? "";
  if (conf !== "") absolute("env.CONTAINERS_REGISTRIES_CONF", conf);
  if (override !== "") absolute("env.CONTAINERS_REGISTRIES_CONF_OVERRIDE", override);
  return { root: root ?? "", uid, home, xdgConfigHome, conf, override };
}

const ETC = "/etc/containers/registries.conf";
const USR_SHARE = "/usr/share/containers/registries.conf";

function rooted(root: string, path: string): string {
  return root === "" ? path : goPath.Join(root, path);
}

/** The drop-in directories under one main path, highest priority first (`getDropInPathsUnderMain`). */
function dropInsUnder(main: string, uid: number): string[] {
  const special = `${main.slice(0, -".conf".length)}.${uid > 0 ? "rootless" : "rootful"}.conf.d`;
  return [...(uid > 0 ? [goPath.Join(special, String(uid))] : []), special, `${main}.d`];
}

/** What 5.40 looks at: main files and drop-in directories, highest priority first (`getSearchPaths`). */
function searchPaths540(o: Checked) {
  const user = goPath.Join(
    o.xdgConfigHome ?? goPath.Join(o.home as string, ".config"),
    "containers/registries.conf",
  );
  const etc = rooted(o.root, ETC);
  const usr = rooted(o.root, USR_SHARE);
  const named = o.conf !== "";
  return {
    mainFiles: named ? [o.conf] : [user, etc, usr],
    mainRequired: named,
    dropInDirs: named
      ? []
      : [`${user}.d`, ...dropInsUnder(etc, o.uid), ...dropInsUnder(usr, o.uid)],
    override: o.override === "" ? undefined : o.override,
  };
}

/**
 * Every path either release may read for these options (files, then
 * directories), so a filesystem reader can fetch exactly those.
 */
export function registriesConfCandidates(options: RegistriesConfSearchOptions): {
  readonly files: readonly string[];
  readonly dirs: readonly string[];
} {
  const o = check(options);
  const p = searchPaths540(o);
  const userFile = goPath.Join(o.home as string, ".config/containers/registries.conf");
  const files = new Set([
    ...p.mainFiles,
    ...(p.override === undefined ? [] : [p.override]),
    userFile,
    rooted(o.root, ETC),
  ]);
  const dirs = new Set([...p.dropInDirs, `${userFile}.d`, rooted(o.root, `${ETC}.d`)]);
  return { files: [...files], dirs: [...dirs] };
}

type Visit = (file: string, text: string, dropIn: boolean) => void;

/** Go's `os.Open` error texts for what the map can say about a path. */
function openError(path: string, what: "missing" | "not-a-directory" | NodePathProblem) {
  if (typeof what === "object") {
    if (what.code === "LIMIT_EXCEEDED") {
      return new NodeMirrorsError("LIMIT_EXCEEDED", `${path}: ${what.message}`, { file: path });
    }
    return new NodeMirrorsError("READ_ERROR", `open ${path}: ${what.message}`, { file: path });
  }
  return what === "missing"
    ? new NodeMirrorsError("NO_CONFIG_FILE", `open ${path}: no such file or directory`, {
        file: path,
      })
    : new NodeMirrorsError("READ_ERROR", `open ${path}: not a directory`, { file: path });
}

/**
 * Opens one file as `os.Open` and reads it as the TOML decoder does:
 * `undefined` when it is missing and `missingOk`; a directory opens but
 * fails the read, which is that file's error.
 */
function openAndVisit(
  files: NodeFiles,
  path: string,
  missingOk: boolean,
  dropIn: boolean,
  visit: Visit,
  release: ContainersImageRelease,
): boolean {
  const problem = files.problem(path);
  if (problem !== undefined) {
    // Opening a directory succeeds; reading it is what fails (a link to one, from the fs reader).
    if (problem.code === "READ_ERROR" && problem.message === "is a directory") {
      throw wrapped(release, path, "READ_ERROR", `read ${path}: is a directory`);
    }
    if (problem.code === "TOML_ERROR") {
      throw wrapped(release, path, "TOML_ERROR", `${path} is not valid UTF-8`);
    }
    throw openError(path, problem);
  }
  const read = files.read(path);
  if ("text" in read) {
    visit(path, read.text, dropIn);
    return true;
  }
  if (read.error === "missing" && missingOk) return false;
  if (read.error === "dir") {
    throw wrapped(release, path, "READ_ERROR", `read ${path}: is a directory`);
  }
  throw openError(path, read.error);
}

function wrapped(
  release: ContainersImageRelease,
  file: string,
  code: "READ_ERROR" | "TOML_ERROR",
  inner: string,
): NodeMirrorsError {
  const message =
    release === "5.36"
      ? inner
      : `loading registries configuration ${goStrconv.Quote(file)}: ${inner}`;
  return new NodeMirrorsError(code, message, { file });
}

/** `os.ReadDir` as configfile sees it: missing is no entries, anything else but a directory fails. */
function listDropIns(files: NodeFiles, dir: string): { name: string; isDir: boolean }[] {
  const problem = files.problem(dir);
  if (problem !== undefined) throw openError(dir, problem);
  const kind = files.stat(dir);
  if (kind === "missing") return [];
  if (kind === "not-a-directory") throw openError(dir, kind);
  if (kind === "file") {
    throw new NodeMirrorsError("READ_ERROR", `readdirent ${dir}: not a directory`, { file: dir });
  }
  return files.readDir(dir);
}

function walk540(files: NodeFiles, o: Checked, visit: Visit, warnings: NodeMirrorsWarning[]) {
  const paths = searchPaths540(o);
  for (const path of paths.mainFiles) {
    if (openAndVisit(files, path, !paths.mainRequired, false, visit, "5.40")) break;
  }
  // Lowest priority first, so a higher directory's file replaces the same basename.
  const chosen = new Map<string, string>();
  for (const dir of [...paths.dropInDirs].reverse()) {
    for (const entry of listDropIns(files, dir)) {
      const file = goPath.Join(dir, entry.name);
      if (entry.isDir || !entry.name.endsWith(".conf")) {
        warnings.push({
          code: "IGNORED_FILE",
          file,
          message: `containers/image reads only files ending in .conf from ${dir}; ${entry.name} is ignored`,
        });
        continue;
      }
      const masked = chosen.get(entry.name);
      if (masked !== undefined) {
        warnings.push({
          code: "IGNORED_FILE",
          file: masked,
          message: `${masked} is masked by ${file}, which containers/image reads instead (same name, higher-priority directory)`,
        });
      }
      chosen.set(entry.name, file);
    }
  }
  for (const name of [...chosen.keys()].sort(goStrings.Compare)) {
    openAndVisit(files, chosen.get(name) as string, true, true, visit, "5.40");
  }
  if (paths.override !== undefined) openAndVisit(files, paths.override, false, true, visit, "5.40");
}

/** 5.36's order: `newConfigWrapperWithHomeDir`, then `dropInConfigs` over each directory. */
function walk536(files: NodeFiles, o: Checked, visit: Visit, warnings: NodeMirrorsWarning[]) {
  const userFile = goPath.Join(o.home as string, ".config/containers/registries.conf");
  const userDir = `${userFile}.d`;
  const userKind = files.stat(userFile);
  // fileutils.Exists: anything there, a directory included, makes the user's file the main one.
  const userExists =
    files.problem(userFile) !== undefined || userKind === "file" || userKind === "dir";
  const main = userExists ? userFile : rooted(o.root, ETC);
  const dirs = userExists ? [userDir] : [rooted(o.root, `${ETC}.d`), userDir];
  openAndVisit(files, main, true, false, visit, "5.36");
  // Every directory is listed before any drop-in is read (dropInConfigs, then the loads).
  const dropIns: string[] = [];
  for (const dir of dirs) {
    const problem = files.problem(dir);
    const kind = files.stat(dir);
    if (problem !== undefined || kind === "not-a-directory") {
      const why = problem === undefined ? "not a directory" : problem.message;
      throw new NodeMirrorsError("READ_ERROR", `reading registries.conf.d: lstat ${dir}: ${why}`, {
        file: dir,
      });
    }
    // WalkDir finds nothing in a missing directory, and skips a file there (its name ends in .d).
    if (kind !== "dir") continue;
    for (const entry of files.readDir(dir)) {
      const file = goPath.Join(dir, entry.name);
      if (entry.isDir || !entry.name.endsWith(".conf")) {
        warnings.push({
          code: "IGNORED_FILE",
          file,
          message: `containers/image reads only files ending in .conf from ${dir}; ${entry.name} is ignored`,
        });
        continue;
      }
      dropIns.push(file);
    }
  }
  for (const file of dropIns) openAndVisit(files, file, true, true, visit, "5.36");
}

/**
 * Loads the registries configuration a node's containers/image reads, from
 * the node's files as a map of absolute path → text (`dir/` for an empty
 * directory), for a given root, uid, home and environment (see this
 * module's doc for each release's discovery). Throws the
 * {@link NodeMirrorsError} that fails every pull on such a node: from 5.40
 * each file's own error is wrapped as
 * `loading registries configuration "<file>": …`, and an error opening or
 * listing a path is Go's `open <path>: …`.
 *
 * @example
 * ```ts
 * import { loadNodeRegistriesConf } from "@kubeimg/policy/node-mirrors";
 *
 * const conf = loadNodeRegistriesConf({
 *   "/etc/containers/registries.conf": 'unqualified-search-registries = ["docker.io"]\n',
 *   "/usr/share/containers/registries.conf.d/10-mirror.conf": '[[registry]]\nlocation = "quay.io"\n',
 *   "/etc/containers/registries.conf.d/10-mirror.conf": "", // masks the /usr/share file
 * });
 * conf.registries.length; // 0
 * ```
 */
export function loadNodeRegistriesConf(
  files: NodeFileMap,
  options: NodeRegistriesConfOptions = {},
): RegistriesConf {
  const release = options.containersImage ?? "5.40";
  if (!(containersImageReleases as readonly string[]).includes(release)) {
    throw invalid(
      "containersImage",
      `${JSON.stringify(release)} is not a reproduced release (${containersImageReleases.join(", ")})`,
    );
  }
  const checked = check(options);
  const nodeFiles = new NodeFiles(
    files,
    options.unreadable ? { unreadable: options.unreadable } : {},
  );
  const warnings: NodeMirrorsWarning[] = [];
  const loaded: ParsedFile[] = [];
  let main: ParsedFile | undefined;
  const visit: Visit = (file, text, dropIn) => {
    const parsed = loadFile(text, file, dropIn, warnings, release);
    if (release === "5.36" && !dropIn) main = parsed;
    else loaded.push(parsed);
  };
  if (release === "5.36") walk536(nodeFiles, checked, visit, warnings);
  else walk540(nodeFiles, checked, visit, warnings);
  return mergeFiles(main, loaded, release, warnings);
}
