/**
 * A node's files as a plain map of absolute path → text, so the readers run
 * without a filesystem (browsers, tests). A key ending in `/` is an empty
 * directory; every parent of a key is a directory. The questions asked of
 * it are the ones the runtimes ask of the real filesystem: does this path
 * exist (and as what), what does this file hold, what is in this directory.
 */

import { path as goPath, strings as goStrings } from "@kubeimg/core/internal";

/** File contents by absolute path; a key ending in `/` is an empty directory. */
export type NodeFileMap = Readonly<Record<string, string>> | ReadonlyMap<string, string>;

/** @inline */
export type StatResult = "file" | "dir" | "missing" | "not-a-directory";

/**
 * A node path that exists but whose contents the reader could not hand
 * over. A resolution that reaches it (or a path below it) fails as the
 * runtime would, or says which of kubeimg's bounds stopped it.
 *
 * @inline
 */
export interface NodePathProblem {
  /**
   * `READ_ERROR`: a stat, open or listing failed (a symlink loop, a
   * permission), which fails the runtime's own call the same way.
   * `TOML_ERROR`: the file is not valid UTF-8, which the TOML library
   * rejects as it would a syntax error. `LIMIT_EXCEEDED`: the file is over
   * kubeimg's size cap, so what the runtime makes of it is unknown.
   */
  readonly code: "READ_ERROR" | "TOML_ERROR" | "LIMIT_EXCEEDED";
  /** Why, as the runtime's error would say it (`too many levels of symbolic links`). */
  readonly message: string;
}

/** @inline */
export interface DirEntry {
  readonly name: string;
  readonly isDir: boolean;
}

/** An in-memory view of a node's files. */
export class NodeFiles {
  private readonly files = new Map<string, string>();
  private readonly dirs = new Set<string>(["/"]);
  /** Each directory's child names, built on the first listing: one pass over the map, not one per listing. */
  private children: Map<string, Set<string>> | undefined;
  private readonly problems = new Map<string, NodePathProblem>();
  /** Whether some path is both a file and a directory (a file map with `/a` and `/a/b`). */
  private dirIsFile: boolean | undefined;

  /**
   * @param options.unreadable Paths that exist but could not be read, each
   * with its problem (what `readContainerdHostDirs` returns as `unreadable`).
   */
  constructor(
    input: NodeFileMap,
    options: { readonly unreadable?: Readonly<Record<string, NodePathProblem>> } = {},
  ) {
    for (const [rawPath, problem] of Object.entries(options.unreadable ?? {})) {
      if (!rawPath.startsWith("/")) {
        throw new TypeError(`node file path ${JSON.stringify(rawPath)} is not absolute`);
      }
      this.problems.set(goPath.Clean(rawPath), problem);
    }
    const entries = input instanceof Map ? [...input.entries()] : Object.entries(input);
    for (const [rawPath, text] of entries) {
      if (!rawPath.startsWith("/")) {
        throw new TypeError(`node file path ${JSON.stringify(rawPath)} is not absolute`);
      }
      const isDir = rawPath.endsWith("/") && rawPath !== "/";
      const path = goPath.Clean(rawPath);
      if (isDir) this.dirs.add(path);
      else this.files.set(path, text);
      this.addParents(path);
    }
    for (const path of this.problems.keys()) this.addParents(path);
  }

  private addParents(path: string): void {
    for (let parent = parentOf(path); parent !== undefined; parent = parentOf(parent)) {
      if (this.dirs.has(parent)) break;
      this.dirs.add(parent);
    }
  }

  /** The problem of this path or of the nearest directory above it that has one. */
  problem(rawPath: string): NodePathProblem | undefined {
    if (this.problems.size === 0) return undefined;
    for (
      let path: string | undefined = goPath.Clean(rawPath);
      path !== undefined;
      path = parentOf(path)
    ) {
      const problem = this.problems.get(path);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  /** What `os.Stat` would find: a file, a directory, nothing, or a path through a file (`ENOTDIR`). */
  stat(rawPath: string): StatResult {
    // Keys are clean paths: one found as given needs no cleaning.
    if (this.files.has(rawPath)) return "file";
    if (this.dirs.has(rawPath)) return "dir";
    const path = goPath.Clean(rawPath);
    if (path !== rawPath) {
      if (this.files.has(path)) return "file";
      if (this.dirs.has(path)) return "dir";
    }
    return this.throughFile(path) ? "not-a-directory" : "missing";
  }

  /** Whether a directory above `path` is a file (`ENOTDIR`). */
  private throughFile(path: string): boolean {
    this.dirIsFile ??= [...this.dirs].some((dir) => this.files.has(dir));
    for (let parent = parentOf(path); parent !== undefined; parent = parentOf(parent)) {
      if (this.files.has(parent)) return true;
      // Every directory's parents are directories: unless some directory
      // is also a file, none above this one is a file.
      if (!this.dirIsFile && this.dirs.has(parent)) return false;
    }
    return false;
  }

  /** The text of a regular file, or the stat result explaining why there is none. */
  read(rawPath: string): { text: string } | { error: Exclude<StatResult, "file"> } {
    const found = this.files.get(rawPath);
    if (found !== undefined) return { text: found };
    const path = goPath.Clean(rawPath);
    const text = this.files.get(path);
    if (text !== undefined) return { text };
    return { error: this.stat(path) as Exclude<StatResult, "file"> };
  }

  /** Direct children of a directory, in Go's byte order of names (`os.ReadDir`). */
  readDir(rawPath: string): DirEntry[] {
    const path = goPath.Clean(rawPath);
    const children = this.index().get(path);
    if (children === undefined) return [];
    const prefix = path === "/" ? "/" : `${path}/`;
    return [...children]
      .map((name) => ({ name, isDir: this.dirs.has(prefix + name) }))
      .sort((a, b) => goStrings.Compare(a.name, b.name));
  }

  private index(): Map<string, Set<string>> {
    if (this.children !== undefined) return this.children;
    const children = new Map<string, Set<string>>();
    const add = (path: string) => {
      const parent = parentOf(path);
      if (parent === undefined) return;
      let names = children.get(parent);
      if (names === undefined) {
        names = new Set();
        children.set(parent, names);
      }
      names.add(path.slice(parent === "/" ? 1 : parent.length + 1));
    };
    for (const file of this.files.keys()) add(file);
    for (const dir of this.dirs) add(dir);
    for (const path of this.problems.keys()) add(path);
    this.children = children;
    return children;
  }
}

function parentOf(path: string): string | undefined {
  if (path === "/") return undefined;
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}
