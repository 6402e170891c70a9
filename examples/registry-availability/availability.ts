/**
 * For each image, the availability of its alternatives: the same
 * repository and tag on each configured registry, in order (the first
 * available one is what a mirror-routing webhook would pick).
 */
import {
  createDockerKeyring,
  type DockerKeyring,
  parseDockerConfigJson,
} from "@kubeimg/core/keyring";
import type { Availability } from "@kubeimg/core/ports";
import { createAvailabilityChecker } from "@kubeimg/registry/adapters";
import { createRegistryClient, type RegistryHostOptions } from "@kubeimg/registry/client";

export interface AlternativeReport {
  readonly image: string;
  readonly alternatives: readonly {
    readonly image: string;
    readonly availability: Availability;
  }[];
  /** The first available alternative, if any. */
  readonly selected: string | undefined;
}

export interface CheckOptions {
  /** Registry base URLs, in preference order, e.g. `http://127.0.0.1:5000`. */
  readonly registries: readonly string[];
  /** Images as `repository[:tag|@digest]`, without a registry host. */
  readonly images: readonly string[];
  /** A docker `config.json` text for credentials. */
  readonly dockerConfig?: string;
  /** Budget of each check in ms. */
  readonly timeoutMs?: number;
}

/** Returns `host[:port]` and whether the registry speaks plain http. */
function registryHost(url: string): { host: string; insecure: boolean } {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(`registry URL must be http(s): ${url}`);
  }
  return { host: parsed.host, insecure: parsed.protocol === "http:" };
}

/** Checks every alternative of every image, one at a time, and reports them. */
export async function checkAlternatives(options: CheckOptions): Promise<AlternativeReport[]> {
  const registries = options.registries.map(registryHost);
  // Registries named on the command line are trusted explicitly, private addresses included.
  const hosts: Record<string, RegistryHostOptions> = Object.fromEntries(
    registries.map((r) => [r.host, { insecure: r.insecure, allowPrivateAddress: true }]),
  );
  const keyring: DockerKeyring | undefined = options.dockerConfig
    ? createDockerKeyring([{ config: parseDockerConfigJson(options.dockerConfig) }])
    : undefined;
  const client = createRegistryClient({ registries: hosts, retries: 1 });
  const checker = createAvailabilityChecker({
    client,
    ...(keyring ? { keyring } : {}),
    timeoutMs: options.timeoutMs ?? 3000,
  });
  const reports: AlternativeReport[] = [];
  for (const image of options.images) {
    const alternatives = [];
    for (const registry of registries) {
      const candidate = `${registry.host}/${image}`;
      alternatives.push({
        image: candidate,
        availability: await checker.check(candidate, undefined, {}),
      });
    }
    reports.push({
      image,
      alternatives,
      selected: alternatives.find((a) => a.availability.available)?.image,
    });
  }
  return reports;
}

/** Formats reports for a terminal. */
export function formatReports(reports: readonly AlternativeReport[]): string {
  return reports
    .map((report) => {
      const lines = report.alternatives.map(({ image, availability }, i) => {
        const state = availability.available
          ? "available"
          : `not available${availability.retryable ? " (retryable)" : ""}: ${availability.reason}`;
        return `  ${i + 1}. ${image}  ${state}`;
      });
      return [`${report.image} -> ${report.selected ?? "(none available)"}`, ...lines].join("\n");
    })
    .join("\n");
}
