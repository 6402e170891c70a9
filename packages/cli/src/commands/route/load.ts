import {
  type KuikConfig,
  loadKuikConfig,
  loadRoutingResources,
  type RoutingResource,
} from "@kubeimg/policy/routing";
import { CliError } from "../../errors/cli-error.js";
import { readInputFile } from "../../files/read-file.js";
import { yamlDocuments } from "../../files/yaml-documents.js";
import type { CliIo } from "../../io/io.js";

/** Prefixes a library error's message with the file it came from, keeping its code. */
function inFile(name: string, error: unknown): unknown {
  if (error instanceof Error) error.message = `${name}: ${error.message}`;
  return error;
}

/**
 * Returns every kuik routing object of the files `names`, in file order.
 * YAML syntax errors name the file, line and column; invalid objects name
 * the file, document, field and value (`INVALID_RESOURCE`).
 *
 * @example
 * ```ts
 * const resources = await loadRoutingFiles(["mirrors.yaml"], io, { lenient: false });
 * ```
 */
export async function loadRoutingFiles(
  names: readonly string[],
  io: CliIo,
  options: { lenient: boolean },
): Promise<RoutingResource[]> {
  const resources: RoutingResource[] = [];
  for (const name of names) {
    const file = await readInputFile(name, io);
    yamlDocuments(file);
    try {
      resources.push(
        ...loadRoutingResources(file.text, { validation: options.lenient ? "lenient" : "crd" }),
      );
    } catch (error) {
      throw inFile(name, error);
    }
  }
  if (resources.length === 0) {
    throw new CliError(
      "MISSING_OBJECT",
      `${names.join(", ")}: no kuik.enix.io/v1alpha1 routing object found`,
      names.join(","),
    );
  }
  return resources;
}

/**
 * Returns kuik's operator configuration from the file `name` (defaults when
 * `name` is undefined), validated as kuik validates it (`INVALID_CONFIG`).
 *
 * @example
 * ```ts
 * const config = await loadConfigFile("kuik-config.yaml", io);
 * ```
 */
export async function loadConfigFile(name: string | undefined, io: CliIo): Promise<KuikConfig> {
  if (name === undefined) return loadKuikConfig("");
  const file = await readInputFile(name, io);
  yamlDocuments(file);
  try {
    return loadKuikConfig(file.text);
  } catch (error) {
    throw inFile(name, error);
  }
}
