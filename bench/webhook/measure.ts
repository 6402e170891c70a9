/**
 * The load harness's view from inside a webhook process, loaded before the
 * program (`node --import tsx --import <this file> main.ts`), so that the
 * program a user copies carries no measurement of its own.
 *
 * It follows every `POST` the process's HTTP(S) servers receive through
 * Node's `http.server.request.start` diagnostics channel (published once a
 * request's headers are read: the admission deadline counts from there) to
 * its response's `finish` (the whole answer handed to the socket), and names
 * the answer's kind from its status and body. With the event loop's delay
 * and the process's CPU time, the figures are served as JSON at `GET
 * /timing` on a loopback listener of their own, announced on stderr as
 * `answer timing on http://127.0.0.1:PORT/timing`.
 */
import { subscribe } from "node:diagnostics_channel";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createHistogram,
  type IntervalHistogram,
  monitorEventLoopDelay,
  type RecordableHistogram,
} from "node:perf_hooks";

/** Count, p50, p99 and max, in milliseconds. */
export interface TimingSummary {
  readonly count: number;
  readonly p50?: number;
  readonly p99?: number;
  readonly max?: number;
}

/** What `GET /timing` answers. */
export interface WebhookTiming {
  /** How late the process's timers (deadlines among them) fired, since it started. */
  readonly eventLoopDelayMs: TimingSummary;
  /**
   * From a review's arrival (its headers read) to its whole answer handed to
   * the socket, as the process saw them: set beside a client's figures, it
   * tells time spent here from time spent queued in sockets or the client.
   */
  readonly answerMs: TimingSummary;
  /** The same, counted from the arrival of the request's last byte. */
  readonly answerFromBodyMs: TimingSummary;
  /** `answerMs` by {@link AnswerKind}. */
  readonly answerMsByKind: Readonly<Record<string, TimingSummary>>;
  /** CPU time the process used since it started (user + system), in ms. */
  readonly cpuMs: number;
}

/**
 * How the webhook answered, read from its answer: `patched` (a JSON Patch),
 * `too-busy` (no decision was started in time), `no-decision` (the answer
 * scheduler answered while the decision ran), `warned` (admitted unchanged
 * with another warning: a failure or a Pod the routing refused),
 * `unchanged` (nothing to change), `failed` (not HTTP 200).
 */
export type AnswerKind = "patched" | "unchanged" | "too-busy" | "no-decision" | "warned" | "failed";

/** The kind of an answer with HTTP `status` and body text `body`. */
export function answerKindOf(status: number, body: string): AnswerKind {
  if (status !== 200) return "failed";
  if (body.includes('"patch":')) return "patched";
  if (body.includes("too busy to decide within")) return "too-busy";
  if (body.includes("no decision within")) return "no-decision";
  return body.includes('"warnings":') ? "warned" : "unchanged";
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

const answerMicros = createHistogram();
const answerFromBodyMicros = createHistogram();
const byKind = new Map<AnswerKind, RecordableHistogram>();
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const micros = (from: number, to: number) => Math.max(1, Math.ceil((to - from) * 1000));

subscribe("http.server.request.start", (message) => {
  const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
  if (request.method !== "POST") return;
  const arrivedAt = performance.now();
  let bodyAt: number | undefined;
  request.once("end", () => {
    bodyAt = performance.now();
  });
  // The webhook writes each answer with one `end(text)`.
  let text = "";
  const end = response.end;
  response.end = function (this: ServerResponse, ...args: unknown[]) {
    if (typeof args[0] === "string" || Buffer.isBuffer(args[0])) text = String(args[0]);
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["end"];
  response.once("finish", () => {
    const at = performance.now();
    const kind = answerKindOf(response.statusCode, text);
    answerMicros.record(micros(arrivedAt, at));
    if (bodyAt !== undefined) answerFromBodyMicros.record(micros(bodyAt, at));
    const h = byKind.get(kind) ?? createHistogram();
    byKind.set(kind, h);
    h.record(micros(arrivedAt, at));
  });
});

function timing(): WebhookTiming {
  const { user, system } = process.cpuUsage();
  return {
    eventLoopDelayMs: summary(loopDelay, 1e6),
    answerMs: summary(answerMicros, 1000),
    answerFromBodyMs: summary(answerFromBodyMicros, 1000),
    answerMsByKind: Object.fromEntries([...byKind].map(([k, h]) => [k, summary(h, 1000)])),
    cpuMs: (user + system) / 1000,
  };
}

const listener = createServer((req, res) => {
  const found = req.method === "GET" && req.url === "/timing";
  const text = found ? JSON.stringify(timing()) : "not found";
  res.writeHead(found ? 200 : 404, { "Content-Length": Buffer.byteLength(text) });
  res.end(text);
});
await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
// The program decides when the process ends; this listener never holds it open.
listener.unref();
console.error(
  `answer timing on http://127.0.0.1:${(listener.address() as AddressInfo).port}/timing`,
);
