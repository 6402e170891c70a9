import type { KuikConfig, RoutingResource, UnknownFieldPolicy } from "@kubeimg/policy/routing";
import { loadKuikConfig, loadRoutingResources } from "@kubeimg/policy/routing/yaml";
import { CliError } from "../../errors/cli-error.js";
import { readInputFile, readInputFiles } from "../../files/read-file.js";
import { yamlDocuments } from "../../files/yaml-documents.js";
import type { CliIo } from "../../io/io.js";

/** Prefixes a library error's message with the file it came from, keeping its code. */
function inFile(name: string, error: unknown): unknown {
  if (error instanceof Error) error.message = `${name}: ${error.message}`;
  return error;
}

/** How {@link loadRoutingFiles} reads and what it reports. */
export interface LoadRoutingFilesOptions {
  readonly lenient: boolean;
  readonly unknownFields: UnknownFieldPolicy;
  /** Receives warnings (unknown fields under `--validate=warn`) and, when verbose, what was skipped. */
  readonly note: (line: string) => void;
  readonly verbose: boolean;
  /** Whether files without any routing object are an error (default true). */
  readonly required?: boolean;
}

/**
 * Returns every kuik routing object of the files `names` (`-` is standard
 * input, a directory its YAML files), in file order. Objects of other kinds
 * are skipped, as `kubectl apply -f` users expect (counted with
 * `--verbose`). YAML syntax errors name the file, line and column; invalid
 * objects name the file, document, field and value.
 */
export async function loadRoutingFiles(
  names: readonly string[],
  io: CliIo,
  options: LoadRoutingFilesOptions,
): Promise<RoutingResource[]> {
  const resources: RoutingResource[] = [];
  let skipped = 0;
  for (const file of await readInputFiles(names, io)) {
    yamlDocuments(file, { version: "1.1" });
    let skippedHere = 0;
    try {
      resources.push(
        ...loadRoutingResources(file.text, {
          validation: options.lenient ? "lenient" : "crd",
          unknownFields: options.unknownFields,
          otherKinds: "ignore",
          onSkipped: () => {
            skippedHere++;
          },
          onWarning: (w) => options.note(`warning: ${file.name}: ${w.message}`),
        }),
      );
    } catch (error) {
      throw inFile(file.name, error);
    }
    if (options.verbose && skippedHere > 0) {
      options.note(`${file.name}: skipped ${skippedHere} object(s) of other kinds`);
    }
    skipped += skippedHere;
  }
  if (resources.length === 0 && options.required !== false) {
    throw new CliError(
      "MISSING_OBJECT",
      `${names.join(", ")}: no kuik.enix.io/v1alpha1 routing object found${skipped > 0 ? ` (${skipped} object(s) of other kinds skipped)` : ""}`,
      names.join(","),
    );
  }
  if (options.verbose) {
    options.note(
      `read ${resources.length} routing object(s); skipped ${skipped} object(s) of other kinds`,
    );
  }
  return resources;
}

/**
 * Returns kuik's operator configuration from the file `name` (defaults when
 * `name` is undefined), validated as kuik validates it (`INVALID_CONFIG`),
 * unknown keys handled as `--validate` says.
 */
export async function loadConfigFile(
  name: string | undefined,
  io: CliIo,
  options: { unknownFields: UnknownFieldPolicy; note: (line: string) => void },
): Promise<KuikConfig> {
  if (name === undefined) return loadKuikConfig("");
  const file = await readInputFile(name, io);
  yamlDocuments(file);
  try {
    return loadKuikConfig(file.text, {
      unknownFields: options.unknownFields,
      onWarning: (message) => options.note(`warning: ${name}: ${message}`),
    });
  } catch (error) {
    throw inFile(name, error);
  }
}
