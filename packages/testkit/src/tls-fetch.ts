/**
 * Test harness: a `fetch` over `node:https` that trusts one extra CA, the
 * way a user injects a custom-CA fetch into the client (Node's global fetch
 * reads extra CAs only at process start, from NODE_EXTRA_CA_CERTS).
 * Covers what the client uses: method, headers, signal, manual redirects.
 */
import { request } from "node:https";
import { Readable } from "node:stream";

export function fetchTrusting(ca: string): typeof globalThis.fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = new Headers(init.headers);
      const req = request(
        url,
        {
          method: init.method ?? "GET",
          headers: Object.fromEntries(headers.entries()),
          ca,
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
          }
          const status = res.statusCode ?? 500;
          const noBody = init.method === "HEAD" || status === 204 || status === 304;
          if (noBody) res.resume();
          const body = noBody
            ? null
            : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
          resolve(new Response(body, { status, headers: responseHeaders }));
        },
      );
      req.on("error", reject);
      req.end();
    });
}
