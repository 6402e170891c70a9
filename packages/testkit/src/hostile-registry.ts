/**
 * A hostile registry on 127.0.0.1, driven by a seeded random source: each
 * answer picks a status, `WWW-Authenticate`, `Link`, `Location`,
 * `Retry-After`, digest and warning headers, a body (JSON, garbage, huge,
 * slow, cut short) and a delay. The client under test holds seeded secrets
 * (a password, and tokens the server hands out, some with characters a
 * header cannot carry). `runHostileRegistry` makes calls against it and
 * reports every violation of the client's promises: an error that is not a
 * `RegistryError`, an unhandled rejection, a secret in an error or a log
 * line, a call outliving its deadline, memory past a bound.
 *
 * Used by `pnpm fuzz registry` (long) and by a short unit test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRegistryClient, RegistryError } from "@kubeimg/registry/client";
import { seededRandom } from "./seeded-random.js";
import { settlesBefore } from "./timer-order.js";

export interface HostileRunOptions {
  readonly seed: number;
  /** Calls to make. */
  readonly calls: number;
  /** Calls in flight at once. */
  readonly concurrency?: number;
  /** Budget of one call in ms. */
  readonly timeoutMs?: number;
  /** Largest resident set size allowed, in bytes. */
  readonly maxRssBytes?: number;
}

export interface HostileRunReport {
  readonly calls: number;
  readonly resolved: number;
  readonly codes: Readonly<Record<string, number>>;
  readonly violations: readonly string[];
  readonly peakRssBytes: number;
}

const STATUSES = [
  200, 200, 200, 201, 204, 206, 301, 302, 303, 304, 307, 308, 400, 401, 401, 401, 403, 404, 405,
  408, 409, 416, 429, 500, 501, 502, 503, 504, 505, 599, 999,
];

export async function runHostileRegistry(options: HostileRunOptions): Promise<HostileRunReport> {
  const rnd = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const secretPassword = `PW-SECRET-${options.seed}-q9`;
  const secretToken = `TOKEN-SECRET-${options.seed}-z7`;
  const secrets = [secretPassword, secretToken, btoa(`alice:${secretPassword}`)];
  const timeoutMs = options.timeoutMs ?? 250;
  let host = "";

  const realm = () =>
    pick([
      `http://${host}/token`,
      `http://${host}/token?x=1`,
      "https://[::1/token",
      "https://0x7f.1/token",
      "https://[::ffff:7f00:1]/token",
      "https://evil.example/token",
      "file:///etc/passwd",
      "",
      `http://${host}/token"garbage`,
    ]);
  // What the client sent, echoed back: a registry may quote a request header in its answers.
  let echo = "";
  const header = (): Record<string, string> => {
    const h: Record<string, string> = {};
    if (rnd() < 0.5) {
      h["www-authenticate"] = pick([
        `Bearer realm="${realm()}",service="svc",scope="repository:team/app:pull"`,
        `Bearer realm="${realm()}",error="insufficient_scope",scope="repository:x:push"`,
        `Bearer realm="${realm()}",error="invalid_token"`,
        `Basic realm="r"`,
        `Basic realm="r", Bearer realm="${realm()}"`,
        `Bearer realm="\\"${"a".repeat(Math.floor(rnd() * 5000))}`,
        "Negotiate",
        '=,="',
      ]);
    }
    if (rnd() < 0.3) {
      h.link = pick([
        '</v2/team/app/tags/list?n=1>; rel="next"',
        `<http://${host}/v2/team/app/tags/list?last=${Math.floor(rnd() * 9)}>; rel=next`,
        '<https://evil.example/v2/x>; rel="next"',
        '<//[::1/x>; rel="next"',
        '<>; rel="next"',
        `<${"x".repeat(3000)}>; rel="next"`,
      ]);
    }
    if (rnd() < 0.3) {
      h.location = pick([
        `http://${host}/v2/team/app/manifests/1`,
        "http://[::ffff:127.0.0.1]/v2/",
        "https://2130706433/",
        "http://169.254.43518/latest/meta-data",
        "ftp://x/",
        "http://[::1",
        "/v2/",
      ]);
    }
    if (rnd() < 0.2)
      h["retry-after"] = pick([
        "0",
        "1",
        "99999999999",
        "-1",
        "soon",
        "Wed, 21 Oct 2099 07:28:00 GMT",
      ]);
    if (rnd() < 0.4) {
      h["docker-content-digest"] = pick([
        `sha256:${"a".repeat(64)}`,
        `sha512:${"b".repeat(128)}`,
        "sha256:zz",
        "",
        `md5:${"c".repeat(32)}`,
      ]);
    }
    if (rnd() < 0.2)
      h.warning = pick(['299 - "deprecated"', `299 - "${"w".repeat(500)}"`, "garbage"]);
    if (rnd() < 0.2) h["ratelimit-remaining"] = pick(["5;w=60", "x", "99999999999999999999"]);
    if (rnd() < 0.3)
      h["content-type"] = pick([
        "application/json",
        "application/vnd.oci.image.manifest.v1+json",
        "text/html",
      ]);
    return h;
  };
  const body = (req: IncomingMessage): string | Buffer => {
    if ((req.url ?? "").startsWith("/token")) {
      return JSON.stringify(
        pick([
          { token: secretToken },
          { access_token: secretToken, expires_in: 1 },
          { token: `${secretToken}\nX-Evil: 1` },
          { token: `${secretToken} ${secretToken}` },
          { token: "" },
          { token: 42 },
          null,
        ]),
      );
    }
    return pick<string | Buffer>([
      "",
      '{"tags":["1","2",null,"latest"]}',
      '{"tags":null}',
      '{"tags":[1,2]}',
      '{"errors":[{"code":"MANIFEST_UNKNOWN","message":"no such manifest"}]}',
      '{"errors":[{"code":"DENIED","message":"\\u001b[2Jfake"}]}',
      JSON.stringify({ errors: [{ code: "UNAUTHORIZED", message: `bad credentials: ${echo}` }] }),
      JSON.stringify({ errors: [{ code: echo, message: echo }] }),
      '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json"}',
      "<html>not json</html>",
      "{",
      Buffer.alloc(200_000, 120),
    ]);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    echo = req.headers.authorization ?? "";
    const delay = rnd() < 0.2 ? Math.floor(rnd() * 100) : 0;
    const mode = rnd();
    setTimeout(() => {
      if (res.destroyed) return;
      if (mode < 0.03) return res.destroy();
      if (mode < 0.05) return; // hang: the client's deadline must end the call
      const status = (req.url ?? "").startsWith("/token") && rnd() < 0.6 ? 200 : pick(STATUSES);
      try {
        res.writeHead(status === 999 ? 200 : status, header());
      } catch {
        res.writeHead(500);
      }
      const payload = body(req);
      if (mode < 0.1 && payload.length > 1) {
        res.write(payload.slice(0, Math.floor(payload.length / 2)));
        setTimeout(() => res.destroy(), 5);
        return;
      }
      res.end(req.method === "HEAD" ? undefined : payload);
    }, delay);
  });
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  host = `127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  const violations: string[] = [];
  const logLines: string[] = [];
  const onUnhandled = (reason: unknown) => {
    violations.push(`unhandled rejection: ${String(reason).slice(0, 200)}`);
  };
  process.on("unhandledRejection", onUnhandled);
  const client = createRegistryClient({
    registries: { [host]: { insecure: true, allowPrivateAddress: true } },
    credentials: () => [{ username: "alice", password: secretPassword }],
    retries: 1,
    retryBaseDelayMs: 1,
    timeoutMs,
    foreignRealm: rnd() < 0.5 ? "anonymous" : "fail",
    limits: { manifestBytes: 64 * 1024, tagsPageBytes: 64 * 1024, maxPages: 4 },
    onWarning: (text, registry) => logLines.push(`warning ${registry}: ${text}`),
    onRateLimit: (registry, info) =>
      logLines.push(`ratelimit ${registry}: ${JSON.stringify(info)}`),
  });
  const image = { domain: host, path: "team/app" };
  const operations = [
    () => client.ping(host),
    () => client.headManifest({ ...image, tag: "1" }),
    () => client.getManifest({ ...image, tag: "1" }),
    () => client.getManifest({ ...image, digest: `sha512:${"b".repeat(128)}` }),
    () => client.resolveDigest({ ...image, digest: `sha256:${"a".repeat(64)}` }),
    () => client.listTags(image),
  ];

  const codes: Record<string, number> = {};
  let resolved = 0;
  let peakRssBytes = 0;
  const leaks = (text: string) => secrets.some((s) => text.includes(s));
  const textOf = (error: unknown): string => {
    const parts: string[] = [];
    for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
      parts.push(String(e), JSON.stringify(e) ?? "", (e as Error).stack ?? "");
      e = (e as { cause?: unknown }).cause;
    }
    return parts.join("\n");
  };
  let next = 0;
  const worker = async () => {
    while (next < options.calls) {
      next++;
      const operation = pick(operations);
      // Outran its deadline: still pending when a timer armed with the call,
      // due 2 s after the deadline's own, has fired (see settlesBefore).
      const call = Promise.resolve().then((): Promise<unknown> => operation());
      const inTime = settlesBefore(call, timeoutMs + 2000);
      try {
        await call;
        resolved++;
      } catch (error) {
        if (!(error instanceof RegistryError)) {
          violations.push(`untyped error: ${String(error).slice(0, 200)}`);
        } else {
          codes[error.code] = (codes[error.code] ?? 0) + 1;
        }
        if (leaks(textOf(error)))
          violations.push(`secret in an error: ${String(error).slice(0, 200)}`);
      }
      if (!(await inTime))
        violations.push(`a call outran its ${timeoutMs} ms budget by more than 2 s`);
      peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  await new Promise((resolve) => setTimeout(resolve, 100));
  process.off("unhandledRejection", onUnhandled);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const line of logLines)
    if (leaks(line)) violations.push(`secret in a log line: ${line.slice(0, 200)}`);
  if (options.maxRssBytes !== undefined && peakRssBytes > options.maxRssBytes) {
    violations.push(`peak RSS ${peakRssBytes} bytes above ${options.maxRssBytes}`);
  }
  return { calls: options.calls, resolved, codes, violations, peakRssBytes };
}
