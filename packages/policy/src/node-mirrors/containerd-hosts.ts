/**
 * containerd v2.3.4's registry host configuration: for the host an image
 * names, which endpoints the resolver tries, in which order, with which
 * scheme, TLS settings and headers.
 *
 * containerd fails quietly here. A hosts.toml it cannot parse is logged and
 * replaced by the directory's certificate files; a directory without
 * hosts.toml still hides `_default`; `server` replaces the upstream instead
 * of adding a fallback; the transfer service reads the CRI `config_path`
 * as one literal directory. Each of these is reproduced and reported as a
 * warning or an explain line, so a user sees what the node will really do.
 *
 * This file picks the directory and turns its hosts into endpoints; reading
 * one directory (its hosts.toml or certificate files) is `containerd-host-dir.ts`'s.
 */
import { path as goPath, time as goTime } from "@kubeimg/core/internal";
import {
  ALL_CAPABILITIES,
  checkReadable,
  emptyHost,
  type HostCapability,
  type HostConfig,
  joinName,
  loadHostDir,
  problemError,
  Trace,
} from "./containerd-host-dir.js";
import { isLocalhost, portOf } from "./containerd-localhost.js";
import { NodeMirrorsError, type NodeMirrorsWarning } from "./errors.js";
import { type NodeFileMap, NodeFiles, type NodePathProblem } from "./node-files.js";
import { containerdReleases } from "./releases.js";

export type { HostCapability } from "./containerd-host-dir.js";

export { containerdReleases } from "./releases.js";

/** Refuses a `containerd` option that names no reproduced release. */
function checkRelease(options: ContainerdHostsOptions): void {
  const release = options.containerd;
  if (release === undefined || (containerdReleases as readonly unknown[]).includes(release)) return;
  throw new NodeMirrorsError(
    "INVALID_ARGUMENT",
    `containerd: ${JSON.stringify(release)} is not a reproduced release (${containerdReleases.join(", ")})`,
    { key: "containerd" },
  );
}

/** The default CRI `config_path`. */
export const CRI_DEFAULT_CONFIG_PATH = "/etc/containerd/certs.d:/etc/docker/certs.d";
/** Where a relative file key and the single default root live. */
export const CONTAINERD_CERTS_DIR = "/etc/containerd/certs.d";

/** One endpoint containerd's resolver tries.
 *
 * @inline
 */
export interface ContainerdEndpoint {
  /** `http` or `https`, after the TLS switch. */
  readonly scheme: "http" | "https" | string;
  /** `host[:port]` as written. */
  readonly host: string;
  /** API root, usually `/v2`; may be `""`. */
  readonly path: string;
  readonly capabilities: readonly HostCapability[];
  /** Extra headers; keys exactly as written. */
  readonly header: Readonly<Record<string, readonly string[]>>;
  readonly skipVerify: boolean;
  /** HTTPS is tried first and plain HTTP on a TLS handshake failure. */
  readonly httpFallback: boolean;
  /** CA files, in order. */
  readonly ca: readonly string[];
  /** Client certificate pairs; key `""` means the key is in the cert file. */
  readonly client: readonly (readonly [string, string])[];
  /** Go duration text of `dial_timeout`, when set. */
  readonly dialTimeout?: string;
}

export interface ContainerdHostsOptions {
  /**
   * The containerd release whose hosts.toml reading to reproduce (default
   * the newest, `"2.4"`). They answer alike today: containerd's
   * `core/remotes/docker/config/hosts.go` is the same file in v2.3.4 (the LTS
   * line), v2.4.0-beta.0 and main at 301026e; a per-host `proxy` exists only
   * in an unmerged change, and `dial_timeout` is read by both. See
   * {@link containerdReleases}.
   */
  readonly containerd?: (typeof containerdReleases)[number];
  /**
   * The CRI `config_path` (`:`-separated roots). Absent: `/etc/containerd/certs.d`.
   * `""`: no host directory at all (as `ctr` without `--hosts-dir`).
   */
  readonly configPath?: string;
  /**
   * `roots` (default): each root of `configPath` in order (CRI local pull).
   * `single`: the whole `configPath` is one root (CRI pulling through the
   * transfer service, `ctr --hosts-dir`).
   */
  readonly lookup?: "roots" | "single";
  /** `ctr --plain-http` sets `http`. The CRI plugin sets none. */
  readonly defaultScheme?: string;
  /** Set by `ctr --skip-verify`/`--tlscacert`; its presence counts as "TLS configured". */
  readonly defaultTLS?: { readonly insecureSkipVerify?: boolean };
  /**
   * `check` (default): a CA or client file that the file map lacks is a
   * `LOAD_ERROR`, as on a node. `assume-present`: only paths that are
   * directories fail (for file maps that list hosts.toml files only).
   */
  readonly certificateFiles?: "check" | "assume-present";
  /**
   * Paths that exist on the node but could not be read, with why (what
   * `readContainerdHostDirs` returns as `unreadable`): a resolution that
   * reaches one fails as containerd's does, other hosts are unaffected.
   * Ignored when the files are given as a {@link NodeFiles}, which holds
   * its own.
   */
  readonly unreadable?: Readonly<Record<string, NodePathProblem>>;
}

export interface ContainerdHostsResult {
  /** The host directory used, or `null`. */
  readonly dir: string | null;
  readonly hosts: readonly ContainerdEndpoint[];
  /** Configs containerd ignores or works around, each saying what it does instead. */
  readonly warnings: readonly NodeMirrorsWarning[];
  /** One line per decision, in order. */
  readonly explain: readonly string[];
}

/** containerd's directory name for a host: the last `:` (not first char) becomes `_`, plus a trailing `_`. */
export function hostDirectoryName(host: string): string {
  const i = host.lastIndexOf(":");
  return i > 0 ? `${host.slice(0, i)}_${host.slice(i + 1)}_` : host;
}

/** The candidate directories under one root, in the order containerd checks them. */
export function hostPaths(root: string, host: string): string[] {
  const out: string[] = [];
  const ch = hostDirectoryName(host);
  // A name without `/` (nor `.`, `..`, empty) joins a cleaned root as one
  // more segment, which is what Join gives, without cleaning three times.
  if (host === "" || host === "." || host === ".." || host.includes("/")) {
    if (ch !== host) out.push(goPath.Join(root, ch));
    out.push(goPath.Join(root, host), goPath.Join(root, "_default"));
    return out;
  }
  const dir = goPath.Clean(root);
  if (ch !== host) out.push(joinName(dir, ch));
  out.push(joinName(dir, host), joinName(dir, "_default"));
  return out;
}

/** Go's `filepath.SplitList` on Unix. */
function splitList(path: string): string[] {
  return path === "" ? [] : path.includes(":") ? path.split(":") : [path];
}

function findHostDir(
  files: NodeFiles,
  roots: readonly string[],
  host: string,
  trace: Trace,
): string | null {
  for (const root of roots) {
    for (const candidate of hostPaths(root, host)) {
      const problem = files.problem(candidate);
      if (problem !== undefined) throw problemError(problem, "stat", candidate, "HOST_DIR_ERROR");
      const stat = files.stat(candidate);
      if (stat === "file" || stat === "dir") {
        trace.line(
          `host directory: ${candidate} exists${stat === "file" ? " (not a directory)" : ""}, used`,
        );
        return candidate;
      }
      if (stat === "not-a-directory") {
        throw new NodeMirrorsError("HOST_DIR_ERROR", `stat ${candidate}: not a directory`, {
          file: candidate,
        });
      }
      trace.line(`host directory: ${candidate} does not exist`);
    }
  }
  return null;
}

/**
 * Resolves the endpoints containerd tries for `host` (the registry host of
 * the normalized image: `docker.io`, `localhost:5000`), from the node's
 * files. Throws {@link NodeMirrorsError} `HOST_DIR_ERROR` or `LOAD_ERROR`
 * where containerd fails the pull.
 *
 * @example
 * ```ts
 * import { resolveContainerdHosts } from "@kubeimg/policy/node-mirrors";
 *
 * const r = resolveContainerdHosts("docker.io", {
 *   "/etc/containerd/certs.d/docker.io/hosts.toml": 'server = "https://mirror.example"',
 * });
 * r.hosts.map((h) => `${h.scheme}://${h.host}${h.path}`); // ["https://mirror.example/v2"]
 * ```
 */
export function resolveContainerdHosts(
  host: string,
  fileMap: NodeFileMap | NodeFiles,
  options: ContainerdHostsOptions = {},
): ContainerdHostsResult {
  checkRelease(options);
  return resolveWith(nodeFiles(fileMap, options), options, undefined, host);
}

function nodeFiles(fileMap: NodeFileMap | NodeFiles, options: ContainerdHostsOptions): NodeFiles {
  if (fileMap instanceof NodeFiles) return fileMap;
  return new NodeFiles(
    fileMap,
    options.unreadable === undefined ? {} : { unreadable: options.unreadable },
  );
}

/** A loaded host directory: what `loadHostDir` gave, or the error it threw. */
type LoadedDir =
  | { readonly hosts: readonly HostConfig[]; readonly trace: Trace }
  | { readonly error: unknown };

/** Resolves hosts against the same node files repeatedly, each host directory read and parsed once. */
export interface ContainerdHostsResolver {
  resolve(host: string): ContainerdHostsResult;
}

/**
 * Loads the node's files once for many resolutions: each host directory's
 * hosts.toml is parsed the first time it is used (or all at once with
 * `preload`), so a resolution after that only walks the candidate
 * directories and applies the defaults.
 *
 * @example
 * ```ts
 * import { createContainerdHostsResolver } from "@kubeimg/policy/node-mirrors";
 *
 * const resolver = createContainerdHostsResolver(
 *   {
 *     "/etc/containerd/certs.d/docker.io/hosts.toml":
 *       'server = "https://registry-1.docker.io"\n[host."https://mirror.example.com"]\n',
 *     "/etc/containerd/certs.d/_default/hosts.toml": '[host."https://fallback.example.com"]\n',
 *   },
 *   { preload: true },
 * );
 * resolver.resolve("docker.io").hosts.map((h) => h.host); // ["mirror.example.com", "registry-1.docker.io"]
 * resolver.resolve("quay.io").hosts.map((h) => h.host); // ["fallback.example.com", "quay.io"]
 * ```
 */
export function createContainerdHostsResolver(
  fileMap: NodeFileMap | NodeFiles,
  options: ContainerdHostsOptions & { readonly preload?: boolean } = {},
): ContainerdHostsResolver {
  checkRelease(options);
  const files = nodeFiles(fileMap, options);
  const cache = new Map<string, LoadedDir>();
  if (options.preload === true) {
    const configPath = options.configPath ?? CONTAINERD_CERTS_DIR;
    const roots = options.lookup === "single" ? [configPath] : splitList(configPath);
    for (const root of roots) {
      if (files.stat(root) !== "dir") continue;
      for (const entry of files.readDir(root))
        loadCached(files, cache, goPath.Join(root, entry.name));
    }
  }
  return { resolve: (host) => resolveWith(files, options, cache, host) };
}

function loadCached(files: NodeFiles, cache: Map<string, LoadedDir>, dir: string): LoadedDir {
  let loaded = cache.get(dir);
  if (loaded === undefined) {
    const trace = new Trace();
    try {
      loaded = { hosts: loadHostDir(files, dir, trace), trace };
    } catch (error) {
      loaded = { error };
    }
    cache.set(dir, loaded);
  }
  return loaded;
}

function resolveWith(
  files: NodeFiles,
  options: ContainerdHostsOptions,
  cache: Map<string, LoadedDir> | undefined,
  host: string,
): ContainerdHostsResult {
  const trace = new Trace();
  const configPath = options.configPath ?? CONTAINERD_CERTS_DIR;
  const lookup = options.lookup ?? "roots";
  const roots =
    lookup === "single" ? (configPath === "" ? [] : [configPath]) : splitList(configPath);
  if (roots.length === 0) trace.line("no host directory configured: defaults only");
  if (lookup === "single" && configPath.includes(":")) {
    trace.warn({
      code: "TRANSFER_SERVICE_IGNORES_HOSTS",
      message: `the transfer service looks for host directories under the single literal path ${JSON.stringify(configPath)}, so the hosts.toml files under its parts are ignored`,
    });
  }
  const dir = roots.length === 0 ? null : findHostDir(files, roots, host, trace);
  let hosts: HostConfig[] | undefined;
  if (dir !== null) {
    if (cache === undefined) {
      hosts = loadHostDir(files, dir, trace);
    } else {
      const loaded = loadCached(files, cache, dir);
      if ("error" in loaded) throw loaded.error;
      trace.explain.push(...loaded.trace.explain);
      trace.warnings.push(...loaded.trace.warnings);
      // The cached entries are shared: each resolution fills in its own copies.
      hosts = loaded.hosts.map((h) => ({ ...h }));
    }
  } else if (roots.length > 0) trace.line("no host directory found: defaults only");
  if (hosts === undefined) hosts = [emptyHost()];
  const last = hosts[hosts.length - 1] as HostConfig;
  if (hosts.length > 0 && last.host === "") {
    if (host === "docker.io") {
      last.scheme = "https";
      last.host = "registry-1.docker.io";
      trace.line("last entry: the upstream docker.io, as https://registry-1.docker.io");
    } else if (isLocalhost(host)) {
      last.host = host;
      if ((options.defaultScheme ?? "") === "") {
        const port = portOf(host);
        last.scheme = port === "" || port === "443" ? "https" : "http";
        if (port !== "80") last.skipVerify = true;
        trace.line(
          `last entry: the local upstream ${host} over ${last.scheme}${port !== "80" ? ", TLS verification off (localhost)" : ""}`,
        );
      } else {
        last.scheme = options.defaultScheme as string;
        trace.line(`last entry: the local upstream ${host} over ${last.scheme}`);
      }
    } else {
      last.host = host;
      last.scheme =
        (options.defaultScheme ?? "") !== "" ? (options.defaultScheme as string) : "https";
      trace.line(`last entry: the upstream ${host} over ${last.scheme}`);
    }
    last.path = "/v2";
    last.capabilities = ALL_CAPABILITIES.slice();
  } else if (hosts.length > 0 && last.host !== host) {
    trace.warn({
      code: "SERVER_HIDES_UPSTREAM",
      ...(dir !== null ? { file: goPath.Join(dir, "hosts.toml") } : {}),
      key: "server",
      message: `server = ${JSON.stringify(last.host)} replaces the upstream ${host}: containerd never contacts ${host} itself (it is not a fallback)`,
    });
    trace.line(`last entry: server ${last.host} (the upstream ${host} is never contacted)`);
  } else if (hosts.length > 0) {
    trace.line(`last entry: server ${last.host}, the upstream itself`);
  }

  const tlsConfigured = options.defaultTLS !== undefined;
  const certMode = options.certificateFiles ?? "check";
  let sharedSwitched = false;
  const own: (boolean | undefined)[] = [];
  for (const h of hosts) {
    const explicitTLSFromHost =
      h.caCerts !== undefined || h.clientPairs !== undefined || h.skipVerify !== undefined;
    const explicitTLS = tlsConfigured || explicitTLSFromHost;
    const hasHeader = h.header !== undefined && h.header.size > 0;
    let ownFallback: boolean | undefined;
    if (explicitTLSFromHost || h.dialTimeoutNs !== undefined || hasHeader) {
      ownFallback = explicitTLSFromHost || h.dialTimeoutNs !== undefined ? false : sharedSwitched;
      if (explicitTLSFromHost) {
        for (const ca of h.caCerts ?? []) checkReadable(files, ca, "CA cert", certMode);
        for (const [cert, key] of h.clientPairs ?? []) {
          checkReadable(files, cert, "CERT file", certMode);
          if (key !== "") checkReadable(files, key, "CERT file", certMode);
        }
      }
    }
    if (h.scheme === "http" && explicitTLS && portOf(h.host) !== "80") {
      h.scheme = "https";
      if (ownFallback !== undefined) ownFallback = true;
      else sharedSwitched = true;
      trace.line(
        `${h.host}: http with TLS settings: https first, then plain http on a TLS failure`,
      );
    }
    own.push(ownFallback);
  }

  const endpoints = hosts.map((h, i): ContainerdEndpoint => {
    const skipVerify = h.skipVerify ?? options.defaultTLS?.insecureSkipVerify ?? false;
    const header: Record<string, readonly string[]> = {};
    if (h.header !== undefined) for (const [name, values] of h.header) setOwn(header, name, values);
    const endpoint: { -readonly [K in keyof ContainerdEndpoint]: ContainerdEndpoint[K] } = {
      scheme: h.scheme,
      host: h.host,
      path: h.path,
      capabilities: h.capabilities,
      header,
      skipVerify,
      httpFallback: own[i] ?? sharedSwitched,
      ca: h.caCerts ?? [],
      client: h.clientPairs ?? [],
    };
    if (h.dialTimeoutNs !== undefined)
      endpoint.dialTimeout = goTime.DurationString(h.dialTimeoutNs);
    return endpoint;
  });
  return { dir, hosts: endpoints, warnings: trace.warnings, explain: trace.explain };
}

/** Sets an own property, `__proto__` included (as `Object.fromEntries` does). */
function setOwn(record: Record<string, readonly string[]>, key: string, value: readonly string[]) {
  if (key === "__proto__")
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else record[key] = value;
}
