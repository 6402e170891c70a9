/**
 * The HTTPS endpoint: `POST /mutate-pods` takes an AdmissionReview and
 * answers one; `GET /healthz` answers `ok` while the process runs, `GET
 * /readyz` once it is ready to decide (its shared state settled). Bodies are capped (the API
 * server sends at most a few MB) and must be JSON. A client that goes away
 * mid-request is an ordinary event, never a process-killing one: request and
 * response errors are logged, and an answer for a closed socket is dropped.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import {
  createHistogram,
  type IntervalHistogram,
  monitorEventLoopDelay,
  type RecordableHistogram,
} from "node:perf_hooks";
import { type AdmissionResponse, BadAdmissionReview, reviewReply } from "./admission-review.js";
import type { PodMutator } from "./mutator.js";

/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A running webhook server. */
export interface WebhookServer {
  readonly server: Server;
  readonly port: number;
  /**
   * Microseconds from a review's arrival (its headers read: the admission
   * deadline counts from there) to its whole answer handed to the socket,
   * as this process saw them: set beside a client's figures, it tells time
   * spent here from time spent queued in sockets or in the client.
   */
  readonly answerMicros: RecordableHistogram;
  /** The same, counted from the arrival of the request's last byte. */
  readonly answerFromBodyMicros: RecordableHistogram;
  /**
   * Answer times in ms (count, p50, p99, max) and this process's event-loop
   * delay since it started: how late its timers, deadlines among them, fire.
   */
  timing(): WebhookTiming;
  close(): Promise<void>;
}

/** Count, p50, p99 and max, in milliseconds. */
export interface TimingSummary {
  readonly count: number;
  readonly p50?: number;
  readonly p99?: number;
  readonly max?: number;
}

/** What {@link WebhookServer.timing} answers. */
export interface WebhookTiming {
  readonly eventLoopDelayMs: TimingSummary;
  readonly answerMs: TimingSummary;
  readonly answerFromBodyMs: TimingSummary;
  /** `answerMs` by the kind of answer, when the server was given `kindOf`. */
  readonly answerMsByKind: Readonly<Record<string, TimingSummary>>;
  /** CPU time this process used since it started listening (user + system), in ms. */
  readonly cpuMs: number;
}

/** A histogram of values in `unitsPerMs` units per millisecond, summarized in ms. */
function summary(h: IntervalHistogram | RecordableHistogram, unitsPerMs: number): TimingSummary {
  return h.count === 0
    ? { count: 0 }
    : {
        count: h.count,
        p50: h.percentile(50) / unitsPerMs,
        p99: h.percentile(99) / unitsPerMs,
        max: h.max / unitsPerMs,
      };
}

/** Starts the webhook on `port` (0: any free port) of `host` with the PEM `cert` and `key`. */
export async function startWebhookServer(options: {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  readonly mutator: PodMutator;
  readonly port?: number;
  readonly host?: string;
  readonly path?: string;
  readonly log?: (line: string) => void;
  /**
   * The mutator's clock (its timers' `now`; default `performance.now`): a
   * request's arrival is read on it, and the admission deadline counts from there.
   */
  readonly now?: () => number;
  /**
   * Names the kind of an answer (for example `answerKindOf` of the mutator:
   * patched, unchanged, too-busy, no-decision, failed), to count answer
   * times by kind.
   */
  readonly kindOf?: (response: AdmissionResponse) => string | undefined;
  /** More `GET` endpoints answering JSON (for example `/stats`). */
  readonly get?: Readonly<Record<string, () => unknown>>;
  /** Whether `GET /readyz` answers 200 `ok` rather than 503 (default: always ready). */
  readonly ready?: () => boolean;
}): Promise<WebhookServer> {
  const path = options.path ?? "/mutate-pods";
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => performance.now());
  const answerMicros = createHistogram();
  const answerFromBodyMicros = createHistogram();
  const answerMicrosByKind = new Map<string, RecordableHistogram>();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  // The API server keeps its connections to a webhook open between calls.
  const server = createServer(
    { cert: options.cert, key: options.key, keepAliveTimeout: 60_000 },
    (req, res) => {
      const receivedAt = now();
      req.on("error", (error) => log(`request error: ${error.message}`));
      res.on("error", (error) => log(`response error: ${error.message}`));
      const send = (status: number, body: unknown) => {
        if (res.headersSent || res.destroyed) return;
        try {
          const text = typeof body === "string" ? body : JSON.stringify(body);
          res.writeHead(status, {
            "Content-Type": typeof body === "string" ? "text/plain" : "application/json",
            "Content-Length": Buffer.byteLength(text),
          });
          res.end(text);
        } catch (error) {
          log(`cannot answer: ${error instanceof Error ? error.message : String(error)}`);
          res.destroy();
        }
      };
      const url = new URL(req.url ?? "/", "https://webhook.invalid");
      if (req.method === "GET" && url.pathname === "/healthz") return send(200, "ok");
      if (req.method === "GET" && url.pathname === "/readyz") {
        return (options.ready?.() ?? true) ? send(200, "ok") : send(503, "not ready");
      }
      const extra = req.method === "GET" ? options.get?.[url.pathname] : undefined;
      if (extra && Object.hasOwn(options.get ?? {}, url.pathname)) return send(200, extra());
      if (req.method !== "POST" || url.pathname !== path) return send(404, "not found");
      const chunks: Buffer[] = [];
      let size = 0;
      req.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          send(413, "request body too large");
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      req.on("end", () => {
        if (res.headersSent) return;
        const bodyAt = now();
        let kind: string | undefined;
        res.once("finish", () => {
          const at = now();
          const micros = Math.max(1, Math.ceil((at - receivedAt) * 1000));
          answerMicros.record(micros);
          if (kind !== undefined) {
            let h = answerMicrosByKind.get(kind);
            if (h === undefined) {
              h = createHistogram();
              answerMicrosByKind.set(kind, h);
            }
            h.record(micros);
          }
          answerFromBodyMicros.record(Math.max(1, Math.ceil((at - bodyAt) * 1000)));
        });
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          return send(400, "request body is not JSON");
        }
        let answer: Promise<AdmissionResponse>;
        try {
          answer = options.mutator(body, { receivedAt });
        } catch (error) {
          answer = Promise.reject(error);
        }
        answer.then(
          (response) => {
            kind = options.kindOf?.(response);
            send(200, reviewReply(response));
          },
          (error: unknown) => {
            if (error instanceof BadAdmissionReview) return send(400, error.message);
            log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
            send(500, "internal error");
          },
        );
      });
    },
  );
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "0.0.0.0", resolve),
  );
  const { port } = server.address() as AddressInfo;
  const cpuAtStart = process.cpuUsage();
  return {
    server,
    port,
    answerMicros,
    answerFromBodyMicros,
    timing: () => ({
      eventLoopDelayMs: summary(loopDelay, 1e6),
      answerMs: summary(answerMicros, 1000),
      answerFromBodyMs: summary(answerFromBodyMicros, 1000),
      answerMsByKind: Object.fromEntries(
        [...answerMicrosByKind].map(([kind, h]) => [kind, summary(h, 1000)]),
      ),
      cpuMs: (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpuAtStart)),
    }),
    close: () =>
      new Promise<void>((resolve) => {
        loopDelay.disable();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
