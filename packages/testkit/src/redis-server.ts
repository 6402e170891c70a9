/**
 * Test harness: a real `redis-server` (Debian package, installed by
 * `scripts/setup.d/redis.sh`) on a free loopback port, with no persistence,
 * that a test can SIGKILL and start again on the same port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createConnection, createServer } from "node:net";

/** Where the Debian package installs the server. */
export const REDIS_SERVER = "/usr/bin/redis-server";

/** A running redis-server. */
export interface RunningRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILL: no shutdown, no save, connections cut. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Throws a loud error when redis-server is not installed. */
export function requireRedisServer(): void {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} is missing: run scripts/setup.d/redis.sh (or scripts/bootstrap.sh) to install the redis-server package`,
    );
  }
}

/** Returns a TCP port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.on("error", () => finish(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    // A server with a password answers NOAUTH: it is up all the same.
    socket.on("data", (data) => finish(/^(\+PONG|-NOAUTH)/.test(data.toString())));
  });
}

/**
 * Starts redis-server on `options.port` (default: a free loopback port) and
 * waits until it answers PING. Extra `args` go on its command line
 * (`["--requirepass", "pw"]`).
 */
export async function startRedisServer(
  options: { readonly port?: number; readonly args?: readonly string[] } = {},
): Promise<RunningRedis> {
  requireRedisServer();
  const port = options.port ?? (await freePort());
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn(
      REDIS_SERVER,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
        ...(options.args ?? []),
      ],
      { stdio: "ignore" },
    );
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (await answersPing(port)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`redis-server did not answer on 127.0.0.1:${port} within 10 s`);
  };
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill("SIGKILL");
    });
  };
  await launch();
  return { port, url: `redis://127.0.0.1:${port}`, kill, restart: launch, stop: kill };
}
