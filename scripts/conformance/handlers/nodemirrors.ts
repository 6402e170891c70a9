/**
 * The `nodemirrors` suite: containerd v2.3.4 host directories and
 * containers/image v5.36.1 registries.conf. See `conformance/nodemirrors/FORMAT.md`.
 */

import { nodeMirrors } from "@kubeimg/policy/internal";
import {
  findRegistry,
  loadRegistriesConf,
  NodeMirrorsError,
  pullSources,
  type RegistriesConf,
  resolveContainerdHosts,
  resolveShortName,
  resolveShortNameLocally,
} from "@kubeimg/policy/node-mirrors";
import { expectOrError } from "../compare.js";
import type { SuiteHandler, Vector } from "../types.js";

const { CONTAINERD_CERTS_DIR, rewriteReference } = nodeMirrors;

function nodeFiles(files: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(files)) {
    out[key.startsWith("/") ? key : `${CONTAINERD_CERTS_DIR}/${key}`] = text;
  }
  return out;
}

function hosts(vector: Vector) {
  const options = (vector.options ?? {}) as {
    defaultScheme?: string;
    defaultTLS?: { insecureSkipVerify?: boolean };
  };
  const result = resolveContainerdHosts(
    vector.host as string,
    nodeFiles(vector.files as Record<string, string>),
    {
      ...(typeof vector.configPath === "string" ? { configPath: vector.configPath } : {}),
      ...(vector.lookup === "single" ? { lookup: "single" as const } : {}),
      ...(options.defaultScheme !== undefined ? { defaultScheme: options.defaultScheme } : {}),
      ...(options.defaultTLS !== undefined ? { defaultTLS: options.defaultTLS } : {}),
      certificateFiles: "assume-present",
    },
  );
  return { dir: result.dir, hosts: result.hosts };
}

function load(vector: Vector): RegistriesConf {
  return loadRegistriesConf({
    conf: vector.conf as string | null,
    // The vectors are v5.36.1's answers (FORMAT.md).
    containersImage: "5.36",
    ...(vector.dropIns !== undefined ? { dropIns: vector.dropIns as Record<string, string> } : {}),
  });
}

function effective(conf: RegistriesConf) {
  const { warnings: _warnings, files: _files, ...rest } = conf;
  return rest;
}

function canonical(image: string): string {
  // The vectors' `rewrite` input must already be canonical; anything else is INVALID_REFERENCE.
  const normalized = pullSources({ registries: [] }, image).reference;
  const stripped =
    normalized.endsWith(":latest") && !image.endsWith(":latest")
      ? normalized.slice(0, -7)
      : normalized;
  if (stripped !== image)
    throw new NodeMirrorsError("INVALID_REFERENCE", `${image} is not canonical`);
  return image;
}

function shortNameOptions(vector: Vector) {
  return {
    ...(typeof vector.mode === "string" ? { mode: vector.mode as "disabled" } : {}),
    ...(vector.forceDockerHub === true ? { forceDockerHub: true } : {}),
  };
}

const handler: SuiteHandler = {
  run(vector) {
    switch (vector.op) {
      case "hosts":
        return expectOrError(vector, () => hosts(vector));
      case "load":
        return expectOrError(vector, () => effective(load(vector)));
      case "findRegistry":
        return expectOrError(vector, () => ({
          registry: findRegistry(load(vector), vector.name as string),
        }));
      case "searchRegistries":
        return expectOrError(vector, () => {
          const conf = load(vector);
          return {
            registries: conf.unqualifiedSearchRegistries,
            origin: conf.unqualifiedSearchRegistriesOrigin,
          };
        });
      case "pullSources":
        return expectOrError(vector, () => {
          // Loaded after the image parses: containers/image reports a bad image before a bad config.
          const result = pullSources(() => load(vector), vector.image as string);
          return {
            registry: result.registry,
            reference: result.reference,
            sources: result.sources.map(({ explain: _explain, ...source }) => source),
          };
        });
      case "rewrite":
        return expectOrError(vector, () => ({
          reference: rewriteReference(
            canonical(vector.image as string),
            vector.prefix as string,
            vector.location as string,
          ),
        }));
      case "shortName":
        return expectOrError(vector, () => {
          const r = resolveShortName(
            () => load(vector),
            vector.name as string,
            shortNameOptions(vector),
          );
          return { candidates: r.candidates, description: r.description };
        });
      case "shortNameLocal":
        return expectOrError(vector, () => ({
          candidates: resolveShortNameLocally(
            () => load(vector),
            vector.name as string,
            shortNameOptions(vector),
          ),
        }));
      default:
        return { ok: false, expected: vector.op, got: "unknown op" };
    }
  },
};

export default handler;
