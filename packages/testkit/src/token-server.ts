/**
 * Test harness: a Bearer token server for distribution's `auth.token` mode,
 * on node built-ins. It signs RS256 JWTs whose header carries the signing
 * certificate (`x5c`), which the registry checks against its
 * `rootcertbundle`. `alice` may pull everything; anonymous callers may pull
 * `public/*` only. Every request is logged for assertions.
 */
import { createPrivateKey, randomUUID, sign, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";

export interface TokenRequestLog {
  readonly query: string;
  /** The auth scheme that came with the request (`Basic`), or null. */
  readonly auth: string | null;
  readonly user: string | null;
}

export interface RunningTokenServer {
  readonly port: number;
  readonly realm: string;
  readonly requests: TokenRequestLog[];
  stop(): Promise<void>;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

export async function startTokenServer(options: {
  readonly keyFile: string;
  readonly certFile: string;
  readonly issuer: string;
  readonly users: Readonly<Record<string, string>>;
}): Promise<RunningTokenServer> {
  const key = createPrivateKey(readFileSync(options.keyFile));
  const cert = new X509Certificate(readFileSync(options.certFile));
  const requests: TokenRequestLog[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://token.invalid");
    if (url.pathname !== "/token") {
      res.writeHead(404).end();
      return;
    }
    const header = req.headers.authorization ?? "";
    let account = "";
    if (header.startsWith("Basic ")) {
      const decoded = Buffer.from(header.slice(6), "base64").toString();
      const colon = decoded.indexOf(":");
      const user = decoded.slice(0, colon);
      requests.push({ query: url.search, auth: "Basic", user });
      if (colon < 0 || options.users[user] !== decoded.slice(colon + 1)) {
        res
          .writeHead(401, { "content-type": "application/json" })
          .end('{"details":"bad credentials"}');
        return;
      }
      account = user;
    } else {
      requests.push({
        query: url.search,
        auth: header ? (header.split(" ")[0] ?? null) : null,
        user: null,
      });
    }
    const access = url.searchParams
      .getAll("scope")
      .flatMap((s) => s.split(" "))
      .filter((s) => s !== "")
      .map((scope) => {
        const parts = scope.split(":");
        const type = parts[0] ?? "";
        const actions = (parts.pop() ?? "").split(",");
        const name = parts.slice(1).join(":");
        const allowed = account !== "" || name.startsWith("public/");
        return { type, name, actions: allowed ? actions.filter((a) => a === "pull") : [] };
      });
    const now = Math.floor(Date.now() / 1000);
    const jwtHeader = { typ: "JWT", alg: "RS256", x5c: [cert.raw.toString("base64")] };
    const claims = {
      iss: options.issuer,
      sub: account,
      aud: url.searchParams.get("service"),
      exp: now + 300,
      nbf: now - 10,
      iat: now,
      jti: randomUUID(),
      access,
    };
    const input = `${b64url(JSON.stringify(jwtHeader))}.${b64url(JSON.stringify(claims))}`;
    const token = `${input}.${b64url(sign("sha256", Buffer.from(input), key))}`;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ token, expires_in: 300, issued_at: new Date(now * 1000).toISOString() }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    realm: `http://127.0.0.1:${port}/token`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
