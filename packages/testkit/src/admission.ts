/**
 * The admission side of a webhook test: the AdmissionReview the API server
 * sends for a Pod, a TLS certificate for 127.0.0.1, and a registry host that
 * accepts connections and never answers.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";

/** What {@link podAdmissionReview} puts in the review. */
export interface PodReviewOptions {
  /** The request's and the Pod's namespace (default `default`). */
  readonly namespace?: string;
  /** The Pod's containers; `imagePullPolicy` is `IfNotPresent` unless given. */
  readonly containers: readonly {
    readonly name: string;
    readonly image: string;
    readonly imagePullPolicy?: string;
  }[];
  /** The Pod's metadata (default `{ generateName: "pod-", namespace }`). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** More fields of `request` (`dryRun`, `userInfo` …). */
  readonly request?: Readonly<Record<string, unknown>>;
}

/** An AdmissionReview v1 for the CREATE of a Pod, as the API server sends it to a mutating webhook. */
export function podAdmissionReview(
  uid: string,
  options: PodReviewOptions,
): { apiVersion: string; kind: string; request: Record<string, unknown> } {
  const namespace = options.namespace ?? "default";
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid,
      kind: { group: "", version: "v1", kind: "Pod" },
      resource: { group: "", version: "v1", resource: "pods" },
      operation: "CREATE",
      namespace,
      object: {
        apiVersion: "v1",
        kind: "Pod",
        metadata: options.metadata ?? { generateName: "pod-", namespace },
        spec: {
          containers: options.containers.map((c) => ({ imagePullPolicy: "IfNotPresent", ...c })),
        },
      },
      ...options.request,
    },
  };
}

/**
 * Writes `tls.key` and `tls.crt` for 127.0.0.1 (CN and IP SAN) into `dir`
 * with openssl and returns the PEM texts and the files. `ec` (P-256, the
 * default) makes handshakes cheap, so a burst of reviews measures the
 * webhook rather than RSA.
 */
export function selfSignedCertificate(
  dir: string,
  keyType: "ec" | "rsa" = "ec",
): { key: string; cert: string; keyFile: string; certFile: string } {
  const keyFile = join(dir, "tls.key");
  const certFile = join(dir, "tls.crt");
  const newKey =
    keyType === "ec"
      ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
      : ["-newkey", "rsa:2048"];
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      ...newKey,
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "ignore" },
  );
  return {
    key: readFileSync(keyFile, "utf8"),
    cert: readFileSync(certFile, "utf8"),
    keyFile,
    certFile,
  };
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers: a hung registry. */
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
