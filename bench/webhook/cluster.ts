/**
 * Running the webhook the way a cluster does, on loopback only: scripted
 * registries (one answering, one slow, one that accepts connections and never
 * answers), webhook replicas as separate processes, and an API server
 * stand-in that sends AdmissionReviews and times each answer. Shared by the
 * load test (`pnpm --filter @kubeimg/example-admission-webhook load-test`),
 * the integration tests and the `webhook` benchmark.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import {
  type ClientRequest,
  createServer,
  get as httpGet,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { Agent, request } from "node:https";
import type { Socket } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { podAdmissionReview, selfSignedCertificate } from "@kubeimg/testkit";
import type { WebhookIntake } from "../../examples/admission-webhook/server.js";
import type { WebhookTiming } from "./measure.js";

const here = fileURLToPath(new URL(".", import.meta.url));
/** The repository root (tsx and the workspace packages resolve from there). */
export const repoRoot = join(here, "..", "..");
const mainPath = join(repoRoot, "examples", "admission-webhook", "main.ts");
const measureUrl = pathToFileURL(join(here, "measure.ts")).href;

/** A scripted registry on 127.0.0.1 that counts the manifest requests it gets. */
export interface FakeRegistry {
  readonly host: string;
  /** Manifest requests received so far (each probe sends one). */
  manifestRequests(): number;
  /** Manifest requests per repository path (`/v2/<name>/manifests/<ref>`). */
  requestsByPath(): Record<string, number>;
  stop(): Promise<void>;
}

/**
 * Starts a registry answering every manifest request with 200 after
 * `delayMs`, or never (`"hang"`: it accepts the connection and keeps it open).
 */
export async function startFakeRegistry(
  behaviour: { delayMs: number } | "hang",
): Promise<FakeRegistry> {
  let manifests = 0;
  const byPath = new Map<string, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.includes("/manifests/")) {
      manifests++;
      byPath.set(req.url, (byPath.get(req.url) ?? 0) + 1);
    }
    if (behaviour === "hang") return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      res.writeHead(200, {
        "docker-content-digest": `sha256:${"a".repeat(64)}`,
        "content-type": "application/vnd.oci.image.manifest.v1+json",
        "content-length": "0",
      });
      res.end();
    }, behaviour.delayMs);
    timers.add(timer);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    host: `127.0.0.1:${port}`,
    manifestRequests: () => manifests,
    requestsByPath: () => Object.fromEntries(byPath),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Manifest requests of the scenario's registries. */
export interface RegistryCounts {
  readonly hung: number;
  readonly slow: number;
  readonly origin: number;
  readonly paths: {
    readonly hung: Record<string, number>;
    readonly slow: Record<string, number>;
    readonly origin: Record<string, number>;
  };
}

/** The scenario's three registries, served by a separate process. */
export interface RegistryProcess {
  readonly hung: string;
  readonly slow: string;
  readonly origin: string;
  /** Manifest requests each registry received so far, in all and per path. */
  counts(): Promise<RegistryCounts>;
  stop(): Promise<void>;
}

/** Starts `fake-registries.ts` in its own process and waits for its hosts. */
export async function startRegistryProcess(slowMs: number): Promise<RegistryProcess> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      // From source, as the replicas: the tests need no build.
      "--conditions=@kubeimg/source",
      join(here, "fake-registries.ts"),
      "--slow-ms",
      String(slowMs),
    ],
    { cwd: repoRoot, stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const hosts = await new Promise<{ hung: string; slow: string; origin: string; control: number }>(
    (resolve, reject) => {
      let buffer = "";
      child.stdout?.setEncoding("utf8");
      child.stdout?.on("data", (chunk: string) => {
        buffer += chunk;
        const newline = buffer.indexOf("\n");
        if (newline !== -1) resolve(JSON.parse(buffer.slice(0, newline)));
      });
      void exited.then(() => reject(new Error("the registry process exited before it listened")));
    },
  );
  return {
    hung: hosts.hung,
    slow: hosts.slow,
    origin: hosts.origin,
    counts: async () => {
      const response = await fetch(`http://127.0.0.1:${hosts.control}/counts`);
      return (await response.json()) as RegistryCounts;
    },
    stop: async () => {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Writes an ECDSA P-256 certificate for 127.0.0.1 into `dir` (cheap TLS
 * handshakes: a thousand concurrent reviews must measure the webhook, not
 * RSA) and returns the PEM texts and file paths.
 */
export function writeCertificate(dir: string): { cert: string; certFile: string; keyFile: string } {
  const { cert, certFile, keyFile } = selfSignedCertificate(dir, "ec");
  return { cert, certFile, keyFile };
}

/**
 * Writes the routing of the scenario: every image is mirrored first on the
 * hung registry, then on the slow one; the original (on `origin`) comes last.
 */
export function writeRouting(dir: string, hung: string, slow: string): string {
  const file = join(dir, "routing.yaml");
  writeFileSync(
    file,
    `apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: mirrors }
spec:
  priority: -1
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: ${hung}
      path: /hung
    - registry: ${slow}
      path: /slow
`,
  );
  return file;
}

/** One webhook replica: a separate Node process running `main.ts`. */
export interface Replica {
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Lines the replica wrote to stderr. */
  readonly log: string[];
  /** Resolves with the exit code or signal when the process ends. */
  readonly exited: Promise<string>;
  /** The loopback port of its statistics listener. */
  readonly statsPort: number;
  /** GET /stats. */
  stats(): Promise<ReplicaStats>;
  /** The answer times, event-loop delay and CPU time `measure.ts` took inside the replica. */
  timing(): Promise<WebhookTiming>;
  /** Polls `GET /readyz` until it answers 200 (rejects after `timeoutMs`). */
  ready(ca: string, timeoutMs?: number): Promise<void>;
  /** Peak resident memory so far (VmHWM), in bytes. */
  peakRss(): number;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** What `/stats` answers (the no-op floor has no gate). */
export interface ReplicaStats {
  readonly gate?: {
    readonly probes: number;
    readonly peerVerdicts: number;
    readonly timeouts: number;
  };
  readonly state?: { readonly failures: number; readonly localAnswers: number };
  readonly mode: string;
  readonly rss: number;
  readonly intake: WebhookIntake;
}

/** Options of {@link startReplica}. */
export interface ReplicaOptions {
  readonly certFile: string;
  readonly keyFile: string;
  readonly routingFile: string;
  readonly insecureRegistries: readonly string[];
  readonly deadlineMs: number;
  readonly probeTimeoutMs: number;
  readonly redisUrl?: string;
  readonly redisPrefix?: string;
  readonly redisBudgetMs?: number;
  readonly redisReadyTimeoutMs?: number;
  /** Extra Node flags for the replica (`--cpu-prof`, `--max-old-space-size=…`). */
  readonly nodeArgs?: readonly string[];
  /** The script to run instead of `main.ts` (the load test's no-op floor). */
  readonly entry?: string;
}

/**
 * Starts `main.ts` in its own process, with `measure.ts` preloaded, on a
 * free loopback port and waits until it listens.
 */
export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  const args = [
    ...(options.nodeArgs ?? []),
    "--import",
    "tsx",
    "--import",
    measureUrl,
    "--conditions=@kubeimg/source",
    options.entry ?? mainPath,
    "--cert",
    options.certFile,
    "--key",
    options.keyFile,
    "-f",
    options.routingFile,
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    "--stats-port",
    "0",
    "--deadline-ms",
    String(options.deadlineMs),
    "--probe-timeout-ms",
    String(options.probeTimeoutMs),
    ...options.insecureRegistries.flatMap((h) => ["--insecure-registry", h]),
    ...(options.redisUrl ? ["--redis-url", options.redisUrl] : []),
    ...(options.redisPrefix ? ["--redis-prefix", options.redisPrefix] : []),
    ...(options.redisBudgetMs ? ["--redis-budget-ms", String(options.redisBudgetMs)] : []),
    ...(options.redisReadyTimeoutMs
      ? ["--redis-ready-timeout-ms", String(options.redisReadyTimeoutMs)]
      : []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, REDIS_URL: "" },
  });
  const log: string[] = [];
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? String(code))),
  );
  let timingPort = 0;
  const [port, statsPort] = await new Promise<[number, number]>((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(
      () => reject(new Error(`replica did not start:\n${log.join("\n")}`)),
      60_000,
    );
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        log.push(line);
        const timing = /^answer timing on http:\/\/127\.0\.0\.1:(\d+)\/timing$/.exec(line);
        if (timing) timingPort = Number(timing[1]);
        const m = /listening on :(\d+).*statistics on http:\/\/[^ ]+:(\d+)\/stats/.exec(line);
        // The preload announces its listener before the program runs.
        if (m && timingPort === 0) {
          reject(new Error(`replica started without measure.ts:\n${log.join("\n")}`));
        } else if (m) {
          clearTimeout(timer);
          resolve([Number(m[1]), Number(m[2])]);
        }
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`replica exited (${how}) before listening:\n${log.join("\n")}`));
    });
  });
  const pid = child.pid ?? 0;
  return {
    port,
    statsPort,
    pid,
    child,
    log,
    exited,
    stats: async () => JSON.parse((await getPlain(statsPort, "/stats")).body) as ReplicaStats,
    timing: async () => JSON.parse((await getPlain(timingPort, "/timing")).body) as WebhookTiming,
    ready: async (ca, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { status } = await get(port, "/readyz", ca);
        if (status === 200) return;
        if (Date.now() > deadline) {
          throw new Error(
            `replica not ready (${status}) within ${timeoutMs} ms:\n${log.join("\n")}`,
          );
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    peakRss: () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        return m ? Number(m[1]) * 1024 : 0;
      } catch {
        return 0;
      }
    },
    kill: async (signal = "SIGTERM") => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

type Reply = { status: number; body: string };

/** The status and text of one answer to `req`. */
function replyOf(req: ClientRequest): Promise<Reply> {
  return new Promise((resolve, reject) => {
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** GET `path` from a replica's webhook port, over TLS trusting `ca`. */
function get(port: number, path: string, ca: string): Promise<Reply> {
  return replyOf(request({ host: "127.0.0.1", port, path, method: "GET", ca }));
}

/** GET `path` from a replica's plain HTTP listener on loopback (statistics or timing). */
function getPlain(port: number, path: string): Promise<Reply> {
  return replyOf(httpGet({ host: "127.0.0.1", port, path }));
}

/** An AdmissionReview of a Pod whose containers run `images`. */
export function podReview(uid: string, images: readonly string[]): unknown {
  return podAdmissionReview(uid, {
    namespace: "load",
    metadata: { generateName: "load-", namespace: "load" },
    containers: images.map((image, i) => ({ name: `c${i}`, image })),
  });
}

/** How one review went. */
export interface ReviewOutcome {
  readonly uid: string;
  /** Milliseconds from sending the request to the end of the answer. */
  readonly ms: number;
  /**
   * Milliseconds from the start until this client had handed the whole
   * request to its socket (`finish`): the part of `ms` the client itself
   * spent, a busy client being slow to write as well as to read.
   */
  readonly sentMs: number;
  readonly status: number;
  readonly allowed: boolean;
  readonly patched: boolean;
  readonly error?: string;
}

/**
 * Sends every review at once (each on its own connection, as concurrent API
 * server calls are), round-robin over `ports`, and times each answer. Each
 * request is cut off after `timeoutMs`.
 */
export async function sendReviews(options: {
  readonly ports: readonly number[];
  readonly ca: string;
  readonly reviews: readonly { uid: string; body: unknown }[];
  readonly timeoutMs: number;
  /**
   * Called once every connection is open and every body serialized; the
   * reviews go when it resolves (a pool of client processes starts together).
   */
  readonly beforeSending?: () => Promise<void>;
}): Promise<ReviewOutcome[]> {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: Number.POSITIVE_INFINITY,
    // Node keeps at most 256 idle sockets per host by default and closes the
    // others: every connection opened below must stay open for the burst.
    maxFreeSockets: Number.POSITIVE_INFINITY,
    ca: options.ca,
  });
  try {
    // Open every connection first (the API server keeps its connections to a
    // webhook alive): the timing is of the webhook's answers, not of TLS
    // handshakes in this process.
    await Promise.all(
      options.reviews.map(
        (_, i) =>
          new Promise<void>((resolve) => {
            const port = options.ports[i % options.ports.length] as number;
            const req = request({ host: "127.0.0.1", port, path: "/healthz", agent }, (res) => {
              res.resume();
              res.on("end", () => resolve());
            });
            req.on("error", () => resolve());
            req.end();
          }),
      ),
    );
    const bodies = options.reviews.map(({ body }) => JSON.stringify(body));
    await options.beforeSending?.();
    return await Promise.all(
      options.reviews.map(
        ({ uid }, i) =>
          new Promise<ReviewOutcome>((resolve) => {
            const text = bodies[i] as string;
            const started = performance.now();
            const port = options.ports[i % options.ports.length] as number;
            let sentMs = Number.NaN;
            const finish = (outcome: Omit<ReviewOutcome, "uid" | "ms" | "sentMs">) =>
              resolve({ uid, ms: performance.now() - started, sentMs, ...outcome });
            const req = request(
              {
                host: "127.0.0.1",
                port,
                path: "/mutate-pods",
                method: "POST",
                agent,
                headers: {
                  "content-type": "application/json",
                  "content-length": Buffer.byteLength(text),
                },
                timeout: options.timeoutMs,
              },
              (res) => {
                let raw = "";
                res.setEncoding("utf8");
                res.on("data", (c: string) => {
                  raw += c;
                });
                res.on("error", (e) =>
                  finish({ status: 0, allowed: false, patched: false, error: e.message }),
                );
                res.on("end", () => {
                  try {
                    const reply = JSON.parse(raw) as {
                      response?: { uid?: string; allowed?: boolean; patch?: string };
                    };
                    finish({
                      status: res.statusCode ?? 0,
                      allowed: reply.response?.allowed === true && reply.response.uid === uid,
                      patched: typeof reply.response?.patch === "string",
                    });
                  } catch {
                    finish({
                      status: res.statusCode ?? 0,
                      allowed: false,
                      patched: false,
                      error: raw.slice(0, 200),
                    });
                  }
                });
              },
            );
            req.on("timeout", () =>
              req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
            );
            req.on("error", (e) =>
              finish({ status: 0, allowed: false, patched: false, error: e.message }),
            );
            req.on("finish", () => {
              sentMs = performance.now() - started;
            });
            req.end(text);
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

/** The `q`-quantile (0..1) of `values`, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}
