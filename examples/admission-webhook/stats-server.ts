/**
 * The operators' counters (`/stats`) on a plain HTTP listener of their own,
 * loopback by default, apart from the port the API server reaches.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { messageOf, requestPath } from "./server.js";

/** A running statistics listener. */
export interface StatsServer {
  readonly server: Server;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts a plain HTTP listener on `port` (0: any free port) of `host`
 * (default `127.0.0.1`) answering `GET /stats` with the JSON of `stats()`.
 * Every other request is 404; a `stats()` that throws is logged and
 * answered 500.
 */
export async function startStatsServer(options: {
  readonly stats: () => unknown;
  readonly port?: number;
  readonly host?: string;
  readonly log?: (line: string) => void;
}): Promise<StatsServer> {
  const log = options.log ?? (() => {});
  const host = options.host ?? "127.0.0.1";
  const server = createHttpServer((req, res) => {
    res.on("error", (error) => log(`stats response error: ${error.message}`));
    let status = 200;
    let text: string;
    try {
      if (req.method === "GET" && requestPath(req.url) === "/stats") {
        text = JSON.stringify(options.stats());
      } else {
        status = 404;
        text = "not found";
      }
    } catch (error) {
      log(`stats error: ${messageOf(error)}`);
      status = 500;
      text = "internal error";
    }
    res.writeHead(status, {
      "Content-Type": status === 200 ? "application/json" : "text/plain",
      "Content-Length": Buffer.byteLength(text),
    });
    res.end(text);
  });
  server.maxConnections = 64;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
