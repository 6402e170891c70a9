/**
 * Test support: an HTTPS client that trusts the test certificate (the
 * certificate, the reviews and the hung registry come from `@kubeimg/testkit`).
 */
import { request } from "node:https";

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
