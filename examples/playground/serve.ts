/**
 * A tiny static file server for dist/, on loopback only: the playground needs
 * no backend, this only lets a browser load the worker script from http://.
 * `main.ts` runs it (`pnpm playground`).
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { extname, join, normalize, sep } from "node:path";

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
};

/**
 * The file under `root` that a request target names, or `undefined` when the
 * target is not a path, does not decode, or leaves `root`. Never throws: the
 * target is whatever a client wrote.
 */
export function fileFor(root: string, target: string | undefined): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(target ?? "/", "http://localhost").pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes("\0")) return undefined;
  const file = normalize(join(root, pathname === "/" ? "index.html" : pathname));
  return file.startsWith(root) ? file : undefined;
}

/** Serves `dir` on 127.0.0.1:`port` (0 picks a free port); resolves with the server and its URL. */
export function serve(dir: string, port = 0): Promise<{ server: Server; url: string }> {
  const root = normalize(dir + sep);
  const server = createServer((req, res) => {
    // Whatever a request holds, it gets an answer and the server stays up.
    const answer = (status: number) => {
      if (!res.headersSent) res.writeHead(status);
      res.end();
    };
    try {
      if (req.method !== "GET" && req.method !== "HEAD") return answer(404);
      const file = fileFor(root, req.url);
      if (file === undefined) return answer(400);
      readFile(file)
        .then(
          (body) => {
            res.writeHead(200, {
              "content-type": types[extname(file)] ?? "application/octet-stream",
              "cache-control": "no-store",
              // The page makes no network request; the policy says so to the browser too.
              "content-security-policy":
                "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'",
            });
            res.end(req.method === "HEAD" ? undefined : body);
          },
          () => answer(404),
        )
        .catch(() => res.destroy());
    } catch {
      try {
        answer(500);
      } catch {
        res.destroy();
      }
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const p = typeof address === "object" && address !== null ? address.port : port;
      resolve({ server, url: `http://127.0.0.1:${p}/` });
    });
  });
}
