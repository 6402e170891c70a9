/**
 * The HTTPS endpoint: `POST /mutate-pods` takes an AdmissionReview and
 * answers one; `GET /healthz` answers `ok` while the process runs, `GET
 * /readyz` once it is ready to decide (its shared state settled). Bodies are
 * capped one by one and together, and connections are capped. Nothing a
 * client sends can stop the process: a target that is not a path is
 * answered 400, an exception in any handler is logged and answered 500 (or
 * the connection closed), and an answer for a closed socket is dropped.
 *
 * And the operators' counters (`GET /stats`) on a plain HTTP listener of
 * their own, loopback by default, apart from the port the API server (and
 * anyone who reaches the Service) talks to.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { type AdmissionResponse, BadAdmissionReview, reviewReply } from "./admission-review.js";
import type { PodMutator } from "./mutator.js";

/**
 * Largest request body accepted, in bytes: the API server refuses objects
 * over 3 MiB, so an AdmissionReview past this is not one.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Default bound on the bytes of all bodies held at once: 16 of the largest,
 * or thousands of ordinary reviews (a 50-container Pod's is under 10 KB);
 * with their parsed copies, the process stays well under 512 MiB.
 */
export const MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Default bound on open connections: the API server keeps one per admission
 * in flight, and 2,048 idle TLS connections (about 150 KB each) stay near 300 MB.
 */
export const MAX_CONNECTIONS = 2048;

/** Seconds a client turned away for want of room is told to wait. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The path of an origin-form request target (`/mutate-pods?x=1` →
 * `/mutate-pods`), or `undefined` for any other form (`*`, an absolute URL).
 */
export function requestPath(target: string | undefined): string | undefined {
  if (target === undefined || !target.startsWith("/")) return undefined;
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Counts of what the server holds and what it turned away, as {@link WebhookServer.intake} answers. */
export interface WebhookIntake {
  /** Connections open now. */
  readonly connections: number;
  /** Connections closed on arrival because `maxConnections` were open. */
  readonly droppedConnections: number;
  /** Requests holding body bytes now (received and not yet answered). */
  readonly bodies: number;
  /** Bytes those bodies hold now. */
  readonly bodyBytes: number;
  /** The most `bodyBytes` has been since the server started. */
  readonly peakBodyBytes: number;
  /** Requests answered 503 because their body would not fit under `maxBufferedBodyBytes`. */
  readonly shedBodies: number;
}

/** A running listener. */
export interface Listening {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** A running webhook server. */
export interface WebhookServer extends Listening {
  /** What the server holds now (connections, body bytes) and what it turned away. */
  intake(): WebhookIntake;
}

/** Writes a whole answer: a string as plain text, anything else as JSON. */
function reply(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "Content-Type": typeof body === "string" ? "text/plain" : "application/json",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** Listens on `port` (0: any free port) of `host`; rejects when it cannot. */
async function listen(server: Server, port: number, host: string): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    host,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts the statistics listener (default host `127.0.0.1`): `GET /stats`
 * answers the JSON of `stats()`, anything else 404; a `stats()` that throws
 * is logged and answered 500.
 */
export function startStatsServer(options: {
  readonly stats: () => unknown;
  readonly port?: number;
  readonly host?: string;
  readonly log?: (line: string) => void;
}): Promise<Listening> {
  const server = createHttpServer((req, res) => {
    res.on("error", (error) => options.log?.(`stats response error: ${error.message}`));
    if (req.method !== "GET" || requestPath(req.url) !== "/stats") {
      return reply(res, 404, "not found");
    }
    try {
      reply(res, 200, options.stats());
    } catch (error) {
      options.log?.(`stats error: ${messageOf(error)}`);
      reply(res, 500, "internal error");
    }
  });
  server.maxConnections = 64;
  return listen(server, options.port ?? 0, options.host ?? "127.0.0.1");
}

/** Starts the webhook on `port` (0: any free port) of `host` with the PEM `cert` and `key`. */
export async function startWebhookServer(options: {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  readonly mutator: PodMutator;
  readonly port?: number;
  readonly host?: string;
  readonly log?: (line: string) => void;
  /** Largest body of one request, in bytes (default {@link MAX_BODY_BYTES}); past it, 413. */
  readonly maxBodyBytes?: number;
  /**
   * Largest total of the bodies held at once, from their first byte to their
   * answer (default {@link MAX_BUFFERED_BODY_BYTES}); a body that would not
   * fit is answered 503 with `Retry-After`, its connection closed.
   */
  readonly maxBufferedBodyBytes?: number;
  /** Most connections open at once (default {@link MAX_CONNECTIONS}); more are closed on arrival. */
  readonly maxConnections?: number;
  /** Whether `GET /readyz` answers 200 `ok` rather than 503 (default: always ready). */
  readonly ready?: () => boolean;
}): Promise<WebhookServer> {
  const log = options.log ?? (() => {});
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const maxBuffered = options.maxBufferedBodyBytes ?? MAX_BUFFERED_BODY_BYTES;
  const held = {
    connections: 0,
    droppedConnections: 0,
    bodies: 0,
    bodyBytes: 0,
    peakBodyBytes: 0,
    shedBodies: 0,
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // The admission deadline counts from here, on the mutator's clock (`nodeTimers`).
    const receivedAt = performance.now();
    req.on("error", (error) => log(`request error: ${error.message}`));
    res.on("error", (error) => log(`response error: ${error.message}`));
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (res.headersSent || res.destroyed) return;
      try {
        reply(res, status, body, headers);
      } catch (error) {
        log(`cannot answer: ${messageOf(error)}`);
        res.destroy();
      }
    };
    // Every listener below runs guarded: what one throws is logged and
    // answered, never left to reach the event loop and end the process.
    const guarded =
      <A extends unknown[]>(where: string, fn: (...args: A) => void) =>
      (...args: A) => {
        try {
          fn(...args);
        } catch (error) {
          log(`internal error (${where}): ${messageOf(error)}`);
          if (res.headersSent) res.destroy();
          else send(500, "internal error");
        }
      };
    guarded("request", () => {
      const pathname = requestPath(req.url);
      if (pathname === undefined) return send(400, "request target is not a path");
      if (req.method === "GET" && pathname === "/healthz") return send(200, "ok");
      if (req.method === "GET" && pathname === "/readyz") {
        return (options.ready?.() ?? true) ? send(200, "ok") : send(503, "not ready");
      }
      if (req.method !== "POST" || pathname !== "/mutate-pods") return send(404, "not found");
      // Turned away: the connection closes after the answer, the rest of the body unread.
      const refuse = (status: 413 | 503) => {
        if (status === 413) return send(413, "request body too large", { Connection: "close" });
        held.shedBodies += 1;
        send(503, "too many request bodies at once", {
          Connection: "close",
          "Retry-After": String(RETRY_AFTER_SECONDS),
        });
      };
      const declared = req.headers["content-length"];
      if (declared !== undefined) {
        const length = Number(declared);
        if (length > maxBodyBytes) return refuse(413);
        if (held.bodyBytes + length > maxBuffered) return refuse(503);
      }
      let chunks: Buffer[] = [];
      let size = 0;
      let refused = false;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        if (size > 0) held.bodies -= 1;
        held.bodyBytes -= size;
        chunks = [];
      };
      // Held from the first byte until the answer is written or the connection is gone.
      res.once("close", guarded("close", release));
      req.on(
        "data",
        guarded("data", (chunk: Buffer) => {
          if (refused || released) return;
          if (size + chunk.length > maxBodyBytes || held.bodyBytes + chunk.length > maxBuffered) {
            refused = true;
            release();
            return refuse(size + chunk.length > maxBodyBytes ? 413 : 503);
          }
          if (size === 0) held.bodies += 1;
          size += chunk.length;
          held.bodyBytes += chunk.length;
          held.peakBodyBytes = Math.max(held.peakBodyBytes, held.bodyBytes);
          chunks.push(chunk);
        }),
      );
      req.on(
        "end",
        guarded("end", () => {
          if (refused || res.headersSent) return;
          let body: unknown;
          try {
            const text = Buffer.concat(chunks).toString("utf8");
            // The bytes stay counted until the answer (they stand for the parsed
            // review too), but the buffers themselves are no longer needed.
            chunks = [];
            body = JSON.parse(text);
          } catch {
            return send(400, "request body is not JSON");
          }
          // A mutator that throws at once is answered as one that rejects.
          new Promise<AdmissionResponse>((resolve) =>
            resolve(options.mutator(body, { receivedAt })),
          ).then(
            guarded("answer", (response: AdmissionResponse) => send(200, reviewReply(response))),
            guarded("answer", (error: unknown) => {
              if (error instanceof BadAdmissionReview) return send(400, error.message);
              log(`internal error: ${messageOf(error)}`);
              send(500, "internal error");
            }),
          );
        }),
      );
    })();
  };

  // The API server keeps its connections to a webhook open between calls.
  const server = createServer(
    { cert: options.cert, key: options.key, keepAliveTimeout: 60_000 },
    handle,
  );
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  server.on("drop", () => {
    held.droppedConnections += 1;
  });
  server.on("connection", (socket: Socket) => {
    held.connections += 1;
    socket.once("close", () => {
      held.connections -= 1;
    });
  });
  const listening = await listen(server, options.port ?? 0, options.host ?? "0.0.0.0");
  return { ...listening, intake: () => ({ ...held }) };
}
