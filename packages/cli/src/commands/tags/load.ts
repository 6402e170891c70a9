import type { UnknownFieldPolicy } from "@kubeimg/policy/routing";
import type { ImagePolicy, ImageRepository } from "@kubeimg/policy/tags";
import {
  type LoadTagObjectsOptions,
  loadTagObjects,
  type TagObject,
} from "@kubeimg/policy/tags/yaml";
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

/** How {@link readTagObjectFiles} reads and what it reports (`--validate`, `--verbose`). */
export interface TagFilesOptions {
  readonly unknownFields: UnknownFieldPolicy;
  readonly note: (line: string) => void;
  readonly verbose?: boolean;
}

/** A document {@link readTagObjectFiles} did not read: of another kind, or not selected. */
export type SkippedObject = Parameters<NonNullable<LoadTagObjectsOptions["onSkipped"]>>[0] & {
  readonly file: string;
};

/** A tag object of the files, with the file it came from. */
export type FileTagObject = TagObject & { readonly file: string };

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Prefixes a library error's message with the file it came from, keeping its code. */
function inFile(name: string, error: unknown): unknown {
  if (error instanceof Error) error.message = `${name}: ${error.message}`;
  return error;
}

/**
 * Returns the tag objects of the files `names` (`-` is standard input, a
 * directory its YAML files) that `read` selects, read by `loadTagObjects`
 * (`@kubeimg/policy/tags/yaml`), in file order, and what was skipped.
 * Errors are the library's, prefixed with the file name; unknown fields
 * under `--validate=warn` are noted. For example, the policies of a
 * directory: `readTagObjectFiles(["flux/"], io, options, { select: (o) => o.kind === "ImagePolicy" })`.
 */
export async function readTagObjectFiles(
  names: readonly string[],
  io: CliIo,
  options: TagFilesOptions,
  read: Pick<LoadTagObjectsOptions, "select" | "alias" | "subscription"> = {},
): Promise<{ objects: FileTagObject[]; skipped: SkippedObject[] }> {
  const objects: FileTagObject[] = [];
  const skipped: SkippedObject[] = [];
  for (const file of await readInputFiles(names, io)) {
    try {
      for (const object of loadTagObjects(file.text, {
        ...read,
        unknownFields: options.unknownFields,
        otherKinds: "ignore",
        onSkipped: (place) => skipped.push({ ...place, file: file.name }),
        onWarning: (w) => options.note(`warning: ${file.name}: ${w.message}, ignored`),
      })) {
        objects.push({ ...object, file: file.name });
      }
    } catch (error) {
      throw inFile(file.name, error);
    }
  }
  return { objects, skipped };
}

/** The fields of a parsed `ImageRepository` the command uses. */
export function repositoryInfo(repository: ImageRepository): ImageRepositoryInfo {
  return {
    name: repository.metadata.name,
    namespace: repository.metadata.namespace,
    image: repository.spec.image,
    exclusionList: repository.spec.exclusionList,
    insecure: repository.spec.insecure,
  };
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
  options: TagFilesOptions,
): Promise<{ policy: ImagePolicy; repositories: ImageRepositoryInfo[] }> {
  const { objects, skipped } = await readTagObjectFiles(names, io, options, {
    // Only the policy asked for is read: another one in the same files cannot fail the run.
    select: (o) =>
      o.kind === "ImageRepository" ||
      (o.kind === "ImagePolicy" && (wanted === undefined || o.name === wanted)),
  });
  const otherKinds = skipped.filter((o) => o.kind !== "ImagePolicy");
  const others = otherKinds.length;
  if (options.verbose === true) {
    for (const file of new Set(otherKinds.map((o) => o.file))) {
      const here = otherKinds.filter((o) => o.file === file).length;
      options.note(`${file}: skipped ${here} object(s) of other kinds`);
    }
  }
  const policies: ImagePolicy[] = [];
  const repositories: ImageRepositoryInfo[] = [];
  for (const o of objects) {
    if (o.kind === "ImagePolicy") policies.push(o.object);
    else if (o.kind === "ImageRepository") repositories.push(repositoryInfo(o.object));
  }
  if (policies.length === 0) {
    throw new CliError(
      "MISSING_OBJECT",
      `${names.join(", ")}: no image.toolkit.fluxcd.io ImagePolicy${wanted === undefined ? "" : ` named "${wanted}"`} found${others > 0 ? ` (${others} object(s) of other kinds skipped)` : ""}`,
      names.join(","),
    );
  }
  if (policies.length > 1) {
    throw new CliError(
      "USAGE",
      `${names.join(", ")}: ${policies.length} ImagePolicies found (${policies.map((p) => p.metadata.name).join(", ")}); choose one with --name`,
    );
  }
  return { policy: policies[0] as ImagePolicy, repositories };
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
