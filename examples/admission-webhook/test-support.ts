/**
 * Test support: a self-signed certificate for 127.0.0.1 made with openssl,
 * an HTTPS client that trusts it, and a "black hole" registry host that
 * accepts connections and never answers.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:https";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

/** Writes `tls.key` and `tls.crt` (CN and SAN 127.0.0.1) into `dir` and returns them. */
export function selfSignedCertificate(dir: string): { key: string; cert: string } {
  const key = join(dir, "tls.key");
  const cert = join(dir, "tls.crt");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
}

/** POSTs `body` as JSON over HTTPS, trusting `ca`; resolves the status and parsed or raw body. */
export function postJson(
  port: number,
  path: string,
  body: unknown,
  ca: string,
): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const payload = typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        ca,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // Plain-text answers (400, 404) stay strings.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, ms: performance.now() - started });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** A TCP server that accepts connections and never answers (a hung registry). */
export async function startBlackHole(): Promise<{ host: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
