/**
 * Test harness: a real CNCF distribution registry (Debian's
 * `docker-registry` 2.8.2) on a free 127.0.0.1 port with its own config and
 * storage root. Installed by `scripts/setup.d/registry.sh`; when it is
 * missing or does not start, `startRegistry` throws a message saying so,
 * so the suite fails instead of skipping.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where the Debian package puts the binary. */
export const REGISTRY_BINARY = process.env.KUBEIMG_REGISTRY_BINARY ?? "/usr/bin/docker-registry";

export interface RegistryConfig {
  /** Work directory for the config file and logs. */
  readonly dir: string;
  /** Storage root (several instances may share one, read-only after seeding). */
  readonly storageRoot: string;
  readonly name: string;
  readonly htpasswdFile?: string;
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
  readonly token?: {
    readonly realm: string;
    readonly service: string;
    readonly issuer: string;
    readonly rootCertBundle: string;
  };
}

export interface RunningRegistry {
  /** `127.0.0.1:PORT`, the registry host as written in image references. */
  readonly host: string;
  readonly port: number;
  /** Base URL, `http(s)://127.0.0.1:PORT`. */
  readonly url: string;
  stop(): Promise<void>;
}

function configYaml(config: RegistryConfig): string {
  const lines = [
    "version: 0.1",
    "log:",
    "  level: info",
    "  accesslog:",
    "    disabled: true",
    "storage:",
    "  filesystem:",
    `    rootdirectory: ${JSON.stringify(config.storageRoot)}`,
    "  delete:",
    "    enabled: true",
    "  maintenance:",
    "    uploadpurging:",
    "      enabled: false",
    "http:",
    '  addr: "127.0.0.1:0"',
    "  secret: test-only-secret",
  ];
  if (config.tls) {
    lines.push(
      "  tls:",
      `    certificate: ${JSON.stringify(config.tls.certFile)}`,
      `    key: ${JSON.stringify(config.tls.keyFile)}`,
    );
  }
  if (config.htpasswdFile) {
    lines.push(
      "auth:",
      "  htpasswd:",
      "    realm: test-realm",
      `    path: ${JSON.stringify(config.htpasswdFile)}`,
    );
  }
  if (config.token) {
    lines.push(
      "auth:",
      "  token:",
      `    realm: ${JSON.stringify(config.token.realm)}`,
      `    service: ${JSON.stringify(config.token.service)}`,
      `    issuer: ${JSON.stringify(config.token.issuer)}`,
      `    rootcertbundle: ${JSON.stringify(config.token.rootCertBundle)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Throws a clear error when the registry binary is absent. */
export function requireRegistryBinary(): void {
  if (!existsSync(REGISTRY_BINARY)) {
    throw new Error(
      `The real-registry integration suite needs ${REGISTRY_BINARY} (Debian package docker-registry). ` +
        "Install it with `bash scripts/setup.d/registry.sh` (run by scripts/bootstrap.sh); " +
        "this suite fails rather than skip when it is missing.",
    );
  }
}

/** Starts a registry and resolves once `/v2/` answers. */
export async function startRegistry(config: RegistryConfig): Promise<RunningRegistry> {
  requireRegistryBinary();
  const file = join(config.dir, `${config.name}.yml`);
  writeFileSync(file, configYaml(config));
  const child: ChildProcess = spawn(REGISTRY_BINARY, ["serve", file], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  let log = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`registry ${config.name} did not report its port within 10 s:\n${log}`));
    }, 10_000);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      log += chunk;
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${REGISTRY_BINARY}: ${error.message}`));
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`registry ${config.name} exited with ${code} before listening:\n${log}`));
    });
  });
  const scheme = config.tls ? "https" : "http";
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 3000).unref();
    });
  return { host: `127.0.0.1:${port}`, port, url: `${scheme}://127.0.0.1:${port}`, stop };
}
