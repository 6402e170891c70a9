/**
 * What any client of the webhook's port can send: request targets that are
 * not paths, handlers that throw, many bodies held open at once, more
 * connections than the bound, and a look at `/stats`. All on loopback; the
 * bounds are checked by counting bytes and connections, never by timing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get as httpGet } from "node:http";
import { connect as netConnect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type TLSSocket, connect as tlsConnect } from "node:tls";
import { fileURLToPath } from "node:url";
import { podAdmissionReview } from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplica, writeCertificate } from "../../bench/webhook/cluster.js";
import { readAdmissionRequest } from "./admission-review.js";
import { startStatsServer, startWebhookServer, type WebhookServer } from "./server.js";
import { postJson } from "./test-support.js";

const noopPath = join(
  fileURLToPath(new URL(".", import.meta.url)),
  "..",
  "..",
  "bench",
  "webhook",
  "noop-webhook.ts",
);

let dir: string;
let tls: { cert: string; certFile: string; keyFile: string; key: string };
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "kubeimg-webhook-server-"));
  const written = writeCertificate(dir);
  tls = { ...written, key: readFileSync(written.keyFile, "utf8") };
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

const admitAll = async (body: unknown) => ({ uid: readAdmissionRequest(body).uid, allowed: true });

async function webhook(
  extra: Partial<Parameters<typeof startWebhookServer>[0]> = {},
): Promise<WebhookServer> {
  const server = await startWebhookServer({
    cert: tls.cert,
    key: tls.key,
    host: "127.0.0.1",
    mutator: admitAll,
    ...extra,
  });
  closers.push(() => server.close());
  return server;
}

function review(uid: string): unknown {
  return podAdmissionReview(uid, { containers: [] });
}

/** A raw HTTP exchange over TLS: what was answered (status line, headers, body) once the server closed or answered. */
interface RawClient {
  readonly socket: TLSSocket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves with the answer's status code once a whole status line and headers arrived. */
  readonly status: Promise<number>;
  /** Resolves once the server closed the connection. */
  readonly closed: Promise<void>;
}

function rawClient(port: number, request: string): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    let text = "";
    let onStatus: (n: number) => void = () => {};
    const status = new Promise<number>((r) => {
      onStatus = r;
    });
    let connected = false;
    const socket = tlsConnect({ host: "127.0.0.1", port, ca: tls.cert }, () => {
      connected = true;
      socket.write(request);
      resolve({ socket, received: () => text, status, closed });
    });
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
      const m = /^HTTP\/1\.1 (\d{3}) [^\r]*\r\n[\s\S]*?\r\n\r\n/.exec(text);
      if (m) onStatus(Number(m[1]));
    });
    socket.on("error", (error) => {
      if (!connected) reject(error);
    });
  });
}

/** Resolves once `ready()` holds, checking after each turn of I/O; the test's own timeout bounds it. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 10));
}

function plainGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpGet({ host: "127.0.0.1", port, path }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    }).on("error", reject);
  });
}

describe("webhook server: hostile requests", () => {
  it("answers request targets that are not paths with 400 and keeps the process up", async () => {
    // The server in a process of its own: an exception escaping a handler ends that process.
    const replica = await startReplica({
      entry: noopPath,
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      routingFile: "unused.yaml",
      insecureRegistries: [],
      deadlineMs: 1000,
      probeTimeoutMs: 500,
    });
    closers.push(() => replica.kill());
    const answers: [string, number][] = [];
    for (const target of ["//", "//x/mutate-pods", "*", "http://[::1", "///healthz?"]) {
      const client = await rawClient(
        replica.port,
        `GET ${target} HTTP/1.1\r\nHost: webhook\r\nConnection: close\r\n\r\n`,
      );
      const status = await Promise.race([
        client.status,
        client.closed.then(() => 0),
        replica.exited.then((how) => {
          throw new Error(`the webhook process exited (${how}) on GET ${target}`);
        }),
      ]);
      answers.push([target, status]);
      client.socket.destroy();
    }
    expect(replica.child.exitCode).toBeNull();
    expect(answers).toEqual([
      ["//", 404],
      ["//x/mutate-pods", 404],
      ["*", 400],
      ["http://[::1", 400],
      ["///healthz?", 404],
    ]);
    const after = await postJson(replica.port, "/mutate-pods", review("after"), tls.cert);
    expect(after.status).toBe(200);
    expect(replica.child.exitCode).toBeNull();
  });

  it("answers 500 when a handler throws, and keeps serving", async () => {
    const lines: string[] = [];
    const server = await webhook({
      ready: () => {
        throw new Error("readiness failed");
      },
      log: (line) => lines.push(line),
    });
    const first = await rawClient(
      server.port,
      "GET /readyz HTTP/1.1\r\nHost: webhook\r\nConnection: close\r\n\r\n",
    );
    expect(await first.status).toBe(500);
    expect(lines.some((l) => l.includes("readiness failed"))).toBe(true);
    const after = await postJson(server.port, "/mutate-pods", review("after"), tls.cert);
    expect(after.status).toBe(200);
    const healthz = await rawClient(
      server.port,
      "GET /healthz HTTP/1.1\r\nHost: webhook\r\nConnection: close\r\n\r\n",
    );
    expect(await healthz.status).toBe(200);
  });

  it("bounds the bytes of all bodies held at once and turns the rest away with 503", async () => {
    const maxBodyBytes = 64 * 1024;
    const maxBufferedBodyBytes = 256 * 1024;
    const server = await webhook({ maxBodyBytes, maxBufferedBodyBytes });
    const clients = 12;
    const held = maxBodyBytes - 1;
    // Half declare their length, half send it chunked; each sends all but the last byte and holds.
    const opened = await Promise.all(
      Array.from({ length: clients }, (_, i) =>
        rawClient(
          server.port,
          i % 2 === 0
            ? `POST /mutate-pods HTTP/1.1\r\nHost: webhook\r\nContent-Length: ${maxBodyBytes}\r\n\r\n${"x".repeat(held)}`
            : `POST /mutate-pods HTTP/1.1\r\nHost: webhook\r\nTransfer-Encoding: chunked\r\n\r\n${held.toString(16)}\r\n${"x".repeat(held)}\r\n`,
        ),
      ),
    );
    const answered = () => opened.filter((c) => c.received() !== "").length;
    // Settled: every client either answered or holding its whole body in the server.
    await until(() => {
      const intake = server.intake();
      return answered() + intake.bodies === clients && intake.bodyBytes === intake.bodies * held;
    });
    const intake = server.intake();
    expect(intake.peakBodyBytes).toBeLessThanOrEqual(maxBufferedBodyBytes);
    expect(intake.bodyBytes).toBeLessThanOrEqual(maxBufferedBodyBytes);
    expect(intake.bodies).toBeGreaterThanOrEqual(1);
    expect(intake.shedBodies).toBe(clients - intake.bodies);
    const shed = opened.filter((c) => c.received() !== "");
    for (const c of shed) {
      expect(await c.status).toBe(503);
      expect(c.received()).toMatch(/\r\nRetry-After: 1\r\n/i);
      await c.closed;
    }
    // A body declared too large for what is left is turned away before it is sent.
    const late = await rawClient(
      server.port,
      `POST /mutate-pods HTTP/1.1\r\nHost: webhook\r\nContent-Length: ${maxBodyBytes}\r\n\r\n`,
    );
    expect(await late.status).toBe(503);
    expect(server.intake().shedBodies).toBe(clients - intake.bodies + 1);
    // The holders finish their bodies (not JSON: 400) and the room comes back.
    const holders = opened.filter((c) => c.received() === "");
    for (const [i, c] of holders.entries()) {
      c.socket.write(opened.indexOf(c) % 2 === 0 ? "x" : "1\r\nx\r\n0\r\n\r\n");
      expect(await c.status, `holder ${i}`).toBe(400);
      c.socket.destroy();
    }
    await until(() => server.intake().bodies === 0);
    expect(server.intake().bodyBytes).toBe(0);
    const after = await postJson(server.port, "/mutate-pods", review("after"), tls.cert);
    expect(after.status).toBe(200);
    expect(server.intake().peakBodyBytes).toBeLessThanOrEqual(maxBufferedBodyBytes);
  });

  it("answers 413 at once for a declared body over the cap", async () => {
    const server = await webhook({ maxBodyBytes: 1024 });
    const client = await rawClient(
      server.port,
      "POST /mutate-pods HTTP/1.1\r\nHost: webhook\r\nContent-Length: 1025\r\n\r\n",
    );
    expect(await client.status).toBe(413);
    await client.closed;
    expect(server.intake().bodyBytes).toBe(0);
  });

  it("closes connections past maxConnections as they arrive", async () => {
    const server = await webhook({ maxConnections: 3 });
    const sockets: Socket[] = [];
    for (let i = 0; i < 5; i++) {
      const s = netConnect({ host: "127.0.0.1", port: server.port });
      s.on("error", () => {});
      sockets.push(s);
    }
    await until(() => server.intake().connections + server.intake().droppedConnections === 5);
    expect(server.intake()).toMatchObject({ connections: 3, droppedConnections: 2 });
    for (const s of sockets) s.destroy();
    await until(() => server.intake().connections === 0);
    const after = await postJson(server.port, "/mutate-pods", review("after"), tls.cert);
    expect(after.status).toBe(200);
  });

  it("serves /stats on a loopback listener of its own, not on the webhook's port", async () => {
    const server = await webhook();
    const stats = await startStatsServer({ stats: () => ({ intake: server.intake() }) });
    const broken = await startStatsServer({
      stats: () => {
        throw new Error("no stats");
      },
    });
    closers.push(
      () => stats.close(),
      () => broken.close(),
    );
    expect(stats.host).toBe("127.0.0.1");
    const onWebhook = await rawClient(
      server.port,
      "GET /stats HTTP/1.1\r\nHost: webhook\r\nConnection: close\r\n\r\n",
    );
    expect(await onWebhook.status).toBe(404);
    const answer = await plainGet(stats.port, "/stats");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ intake: { bodyBytes: 0 } });
    expect((await plainGet(broken.port, "/stats")).status).toBe(500);
    expect((await plainGet(stats.port, "/other")).status).toBe(404);
    expect((await plainGet(stats.port, "//")).status).toBe(404);
  });
});
