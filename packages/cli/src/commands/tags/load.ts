import type { UnknownFieldPolicy } from "@kubeimg/policy/routing";
import {
  FLUX_IMAGE_API_VERSIONS,
  type ImagePolicy,
  type ImageRepository,
  parseImagePolicy,
  parseImageRepository,
} from "@kubeimg/policy/tags";
import { CliError } from "../../errors/cli-error.js";
import { readInputFile, readInputFiles } from "../../files/read-file.js";
import { yamlDocuments } from "../../files/yaml-documents.js";
import type { CliIo } from "../../io/io.js";

/** The fields of a Flux `ImageRepository` the CLI needs, from any served version. */
export interface ImageRepositoryInfo {
  readonly name: string;
  readonly namespace: string | undefined;
  /** `spec.image`: the repository to list. */
  readonly image: string;
  /** `spec.exclusionList`: Go regexes of tags to drop (Flux's default drops `*.sig`). */
  readonly exclusionList: readonly string[];
  /** `spec.insecure`: the registry speaks plain HTTP, as Flux then talks to it. */
  readonly insecure: boolean;
}

/** How {@link loadImagePolicy} reads and what it reports. */
export interface LoadImagePolicyOptions {
  readonly unknownFields: UnknownFieldPolicy;
  readonly note: (line: string) => void;
  readonly verbose: boolean;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function isFluxImageObject(value: unknown, kind: string): boolean {
  const r = asRecord(value);
  return r?.kind === kind && (FLUX_IMAGE_API_VERSIONS as readonly unknown[]).includes(r.apiVersion);
}

function inFile(name: string, error: unknown): unknown {
  if (error instanceof Error) error.message = `${name}: ${error.message}`;
  return error;
}

function repositoryInfo(repository: ImageRepository): ImageRepositoryInfo {
  return {
    name: repository.metadata.name,
    namespace: repository.metadata.namespace,
    image: repository.spec.image,
    exclusionList: repository.spec.exclusionList,
    insecure: repository.spec.insecure,
  };
}

/** The Flux image objects of some files: policies as found (parsed on demand), repositories parsed. */
export interface FluxImageObjects {
  readonly policies: readonly { readonly file: string; readonly value: unknown }[];
  readonly repositories: readonly ImageRepositoryInfo[];
  /** How many objects of other kinds were skipped. */
  readonly skipped: number;
}

function parseOptionsFor(options: LoadImagePolicyOptions, file: string) {
  return {
    unknownFields: options.unknownFields,
    onWarning: (issue: { message: string }) => options.note(`warning: ${file}: ${issue.message}`),
  };
}

/**
 * Returns every Flux `ImagePolicy` (unparsed, with its file) and every
 * `ImageRepository` (parsed) of the files; objects of other kinds are
 * skipped (counted with `--verbose`).
 */
export async function readFluxImageObjects(
  names: readonly string[],
  io: CliIo,
  options: LoadImagePolicyOptions,
): Promise<FluxImageObjects> {
  const policies: { file: string; value: unknown }[] = [];
  const repositories: ImageRepositoryInfo[] = [];
  let skipped = 0;
  for (const file of await readInputFiles(names, io)) {
    let skippedHere = 0;
    for (const value of yamlDocuments(file, { version: "1.1" })) {
      if (isFluxImageObject(value, "ImagePolicy")) {
        policies.push({ file: file.name, value });
      } else if (isFluxImageObject(value, "ImageRepository")) {
        try {
          repositories.push(
            repositoryInfo(parseImageRepository(value, parseOptionsFor(options, file.name))),
          );
        } catch (error) {
          throw inFile(file.name, error);
        }
      } else {
        skippedHere++;
      }
    }
    if (options.verbose && skippedHere > 0) {
      options.note(`${file.name}: skipped ${skippedHere} object(s) of other kinds`);
    }
    skipped += skippedHere;
  }
  return { policies, repositories, skipped };
}

/**
 * Returns a found `ImagePolicy` validated with Flux's CRD rules and
 * defaults and converted to v1; errors name its file.
 */
export function parseFluxImagePolicy(
  found: { readonly file: string; readonly value: unknown },
  options: LoadImagePolicyOptions,
): ImagePolicy {
  try {
    return parseImagePolicy(found.value, parseOptionsFor(options, found.file));
  } catch (error) {
    throw inFile(found.file, error);
  }
}

/**
 * Returns the `ImagePolicy` of the files (the one named `wanted` when
 * several are present), validated with Flux's CRD rules and defaults and
 * converted to v1 (v1beta2 and v1beta1 are read too), and every
 * `ImageRepository` found beside it. Objects of other kinds are skipped
 * (counted with `--verbose`); fields the CRD does not know are handled as
 * `--validate` says.
 */
export async function loadImagePolicy(
  names: readonly string[],
  wanted: string | undefined,
  io: CliIo,
  options: LoadImagePolicyOptions,
): Promise<{ policy: ImagePolicy; repositories: ImageRepositoryInfo[] }> {
  const { policies, repositories, skipped } = await readFluxImageObjects(names, io, options);
  const nameOf = (v: unknown) => asRecord(asRecord(v)?.metadata)?.name;
  const candidates =
    wanted === undefined ? policies : policies.filter((p) => nameOf(p.value) === wanted);
  if (candidates.length === 0) {
    throw new CliError(
      "MISSING_OBJECT",
      `${names.join(", ")}: no image.toolkit.fluxcd.io ImagePolicy${wanted === undefined ? "" : ` named "${wanted}"`} found${skipped > 0 ? ` (${skipped} object(s) of other kinds skipped)` : ""}`,
      names.join(","),
    );
  }
  if (candidates.length > 1) {
    throw new CliError(
      "USAGE",
      `${names.join(", ")}: ${candidates.length} ImagePolicies found (${candidates.map((p) => nameOf(p.value)).join(", ")}); choose one with --name`,
    );
  }
  const [chosen] = candidates as [{ file: string; value: unknown }];
  return { policy: parseFluxImagePolicy(chosen, options), repositories: [...repositories] };
}

/**
 * Returns the tags of a tags file: a YAML/JSON list of strings, a registry
 * `tags/list` answer (`{"name": …, "tags": […]}`), or plain text with one
 * tag per line (blank lines skipped). `-` reads standard input as text.
 */
export async function readTagsFile(name: string, io: CliIo): Promise<string[]> {
  const file = await readInputFile(name, io);
  if (/\.(ya?ml|json)$/i.test(name)) {
    const documents = yamlDocuments(file);
    const value: unknown = documents.length === 1 ? documents[0] : undefined;
    const list = Array.isArray(value) ? value : asRecord(value)?.tags;
    if (!Array.isArray(list) || !list.every((t) => typeof t === "string")) {
      throw new CliError(
        "MISSING_OBJECT",
        `${name}: expected a list of tags, or an object whose "tags" is a list of strings`,
        name,
      );
    }
    return list;
  }
  return file.text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
}
