import { type ImagePolicy, parseImagePolicy } from "@kubeimg/policy/tags";
import { parse as parseYaml } from "yaml";
import { CliError } from "../../errors/cli-error.js";
import { type InputFile, readInputFile } from "../../files/read-file.js";
import { yamlDocuments } from "../../files/yaml-documents.js";
import type { CliIo } from "../../io/io.js";

const FLUX_IMAGE_GROUP = "image.toolkit.fluxcd.io/";

/** The fields of a Flux `ImageRepository` the CLI needs. */
export interface ImageRepositoryInfo {
  readonly name: string;
  readonly namespace: string | undefined;
  /** `spec.image`: the repository to list. */
  readonly image: string;
  /** `spec.exclusionList`: Go regexes of tags to drop (Flux's default drops `*.sig`). */
  readonly exclusionList: readonly string[] | undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function fluxObjects(file: InputFile, kind: string): unknown[] {
  return yamlDocuments(file).filter((d) => {
    const r = asRecord(d);
    return (
      r?.kind === kind &&
      typeof r.apiVersion === "string" &&
      r.apiVersion.startsWith(FLUX_IMAGE_GROUP)
    );
  });
}

/**
 * Returns the `ImagePolicy` of the files (the one named `name` when several
 * are present), validated with Flux's CRD rules and defaults, and every
 * `ImageRepository` found beside it.
 *
 * @example
 * ```ts
 * const { policy, repositories } = await loadImagePolicy(["podinfo.yaml"], undefined, io);
 * ```
 */
export async function loadImagePolicy(
  names: readonly string[],
  wanted: string | undefined,
  io: CliIo,
): Promise<{ policy: ImagePolicy; repositories: ImageRepositoryInfo[] }> {
  const policies: { file: string; value: unknown }[] = [];
  const repositories: ImageRepositoryInfo[] = [];
  for (const name of names) {
    const file = await readInputFile(name, io);
    for (const value of fluxObjects(file, "ImagePolicy")) policies.push({ file: name, value });
    fluxObjects(file, "ImageRepository").forEach((value, index) => {
      const record = asRecord(value);
      const metadata = asRecord(record?.metadata);
      const spec = asRecord(record?.spec);
      const image = spec?.image;
      const exclusionList = spec?.exclusionList;
      if (typeof metadata?.name !== "string" || typeof image !== "string" || image === "") {
        throw new CliError(
          "MISSING_OBJECT",
          `${name}: ImageRepository ${index}: metadata.name and spec.image are required`,
          name,
        );
      }
      if (
        exclusionList !== undefined &&
        !(Array.isArray(exclusionList) && exclusionList.every((e) => typeof e === "string"))
      ) {
        throw new CliError(
          "MISSING_OBJECT",
          `${name}: ImageRepository "${metadata.name}": spec.exclusionList must be a list of strings`,
          name,
        );
      }
      repositories.push({
        name: metadata.name,
        namespace: typeof metadata.namespace === "string" ? metadata.namespace : undefined,
        image,
        exclusionList,
      });
    });
  }
  const nameOf = (v: unknown) => asRecord(asRecord(v)?.metadata)?.name;
  const candidates =
    wanted === undefined ? policies : policies.filter((p) => nameOf(p.value) === wanted);
  if (candidates.length === 0) {
    throw new CliError(
      "MISSING_OBJECT",
      `${names.join(", ")}: no image.toolkit.fluxcd.io ImagePolicy${wanted === undefined ? "" : ` named "${wanted}"`} found`,
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
  try {
    return { policy: parseImagePolicy(chosen.value), repositories };
  } catch (error) {
    if (error instanceof Error) error.message = `${chosen.file}: ${error.message}`;
    throw error;
  }
}

/**
 * Returns the tags of a tags file: a YAML/JSON list of strings, a registry
 * `tags/list` answer (`{"name": …, "tags": […]}`), or plain text with one
 * tag per line (blank lines skipped).
 *
 * @example
 * ```ts
 * await readTagsFile("podinfo.tags", io); // ["5.0.3", "5.1.0", …]
 * ```
 */
export async function readTagsFile(name: string, io: CliIo): Promise<string[]> {
  const file = await readInputFile(name, io);
  if (/\.(ya?ml|json)$/i.test(name)) {
    yamlDocuments(file);
    const value: unknown = parseYaml(file.text);
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
