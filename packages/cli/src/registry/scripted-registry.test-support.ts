/**
 * A small scripted OCI registry for the CLI tests (node:http on 127.0.0.1):
 * answers `/v2/`, manifest HEAD/GET for the images it holds, and paginated
 * `tags/list`. The real registry server is exercised by `@kubeimg/registry`'s
 * own integration suite; here only the CLI's wiring is under test.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the scripted registry holds. */
export interface ScriptedRegistryContent {
  /** Repository (path, no host) → its tags; every tag has a manifest. */
  readonly repositories: Readonly<Record<string, readonly string[]>>;
  /** Tags per `tags/list` page (default: all at once). */
  readonly pageSize?: number;
}

/** A running scripted registry. */
export interface ScriptedRegistry {
  /** `127.0.0.1:PORT`. */
  readonly host: string;
  /** Every request as `METHOD path?query`. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

const MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json";

function manifestOf(repository: string, tag: string): string {
  return JSON.stringify({
    schemaVersion: 2,
    mediaType: MANIFEST_TYPE,
    config: {
      mediaType: "application/vnd.oci.image.config.v1+json",
      digest: `sha256:${createHash("sha256").update(`${repository}:${tag}`).digest("hex")}`,
      size: 2,
    },
    layers: [],
  });
}

/** Returns the `sha256:` digest the scripted registry serves for `repository:tag`. */
export function scriptedDigest(repository: string, tag: string): string {
  return `sha256:${createHash("sha256").update(manifestOf(repository, tag)).digest("hex")}`;
}

function errorBody(code: string, message: string): string {
  return JSON.stringify({ errors: [{ code, message }] });
}

/** Starts a scripted registry on a free loopback port. */
export async function startScriptedRegistry(
  content: ScriptedRegistryContent,
): Promise<ScriptedRegistry> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://registry.invalid");
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        "Docker-Distribution-API-Version": "registry/2.0",
        ...headers,
      });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (url.pathname === "/v2/") return send(200, "{}");
    const manifest = /^\/v2\/(.+)\/manifests\/([^/]+)$/.exec(url.pathname);
    if (manifest) {
      const [, repository = "", reference = ""] = manifest;
      const tags = content.repositories[repository];
      if (tags === undefined)
        return send(404, errorBody("NAME_UNKNOWN", "repository name not known to registry"));
      if (!tags.includes(reference))
        return send(404, errorBody("MANIFEST_UNKNOWN", "manifest unknown"));
      const body = manifestOf(repository, reference);
      return send(200, body, {
        "Content-Type": MANIFEST_TYPE,
        "Docker-Content-Digest": scriptedDigest(repository, reference),
      });
    }
    const list = /^\/v2\/(.+)\/tags\/list$/.exec(url.pathname);
    if (list) {
      const [, repository = ""] = list;
      const tags = content.repositories[repository];
      if (tags === undefined)
        return send(404, errorBody("NAME_UNKNOWN", "repository name not known to registry"));
      const size = content.pageSize ?? tags.length;
      const last = url.searchParams.get("last");
      const start = last === null ? 0 : tags.indexOf(last) + 1;
      const page = tags.slice(start, start + size);
      const more = start + size < tags.length;
      const headers: Record<string, string> = more
        ? {
            Link: `</v2/${repository}/tags/list?n=${size}&last=${encodeURIComponent(page.at(-1) ?? "")}>; rel="next"`,
          }
        : {};
      return send(200, JSON.stringify({ name: repository, tags: page }), headers);
    }
    return send(404, errorBody("UNSUPPORTED", "not scripted"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Returns a loopback `host:port` nothing listens on (bound, then closed). */
export async function closedLoopbackHost(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}
