/**
 * Test harness: small scripted HTTP servers on 127.0.0.1 for behaviour the
 * real registry cannot show (pagination, Retry-After, 5xx, hostile realms,
 * redirects, oversized bodies, hangs). Every request is logged.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

export interface LoggedRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly accept: string | undefined;
}

export interface ScriptedServer {
  readonly port: number;
  /** `127.0.0.1:PORT`. */
  readonly host: string;
  readonly url: string;
  readonly requests: LoggedRequest[];
  stop(): Promise<void>;
}

export async function startScriptedServer(
  handler: (req: IncomingMessage, res: ServerResponse, log: LoggedRequest[]) => void,
): Promise<ScriptedServer> {
  const requests: LoggedRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({
      method: req.method ?? "GET",
      url: req.url ?? "/",
      authorization: req.headers.authorization,
      accept: req.headers.accept,
    });
    handler(req, res, requests);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a distribution-style JSON error. */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ errors: [{ code, message: code.toLowerCase().replace(/_/g, " ") }] }));
}
