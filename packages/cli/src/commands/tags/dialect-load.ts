/**
 * Finds the Argo CD Image Updater and Kargo objects among the files a user
 * gives — an Argo CD `Application` with the updater's annotations, an
 * `ImageUpdater`, a Kargo `Warehouse` — and reads each with the readers of
 * `@kubeimg/policy/tags` (which the playground uses too). What is left here
 * is the command's part: which files, how many of each object, and the
 * mapping of a reader's error to the command's, with the file name.
 */

import type { UnknownFieldPolicy } from "@kubeimg/policy/routing";
import {
  type ArgoConfigObject,
  readArgoApplication,
  readArgoImageUpdater,
} from "@kubeimg/policy/tags/argocd";
import {
  type DialectObjectKind,
  dialectObjectKind,
  TagDialectError,
  type TagInfo,
} from "@kubeimg/policy/tags/dialects";
import { type KargoSubscriptionObject, readKargoWarehouse } from "@kubeimg/policy/tags/kargo";
import { CliError } from "../../errors/cli-error.js";
import { readInputFile, readInputFiles } from "../../files/read-file.js";
import { yamlDocuments } from "../../files/yaml-documents.js";
import type { CliIo } from "../../io/io.js";

type Json = Record<string, unknown>;

/** How the loaders treat fields the CRDs do not define (`--validate`). */
export interface DialectLoadOptions {
  readonly unknownFields: UnknownFieldPolicy;
  readonly note: (line: string) => void;
}

function asRecord(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

function fail(file: string, path: string, problem: string): never {
  throw new CliError("MISSING_OBJECT", `${file}: ${path}: ${problem}`, file);
}

/** A dialect object found in a file. */
export interface FoundDialectObject {
  readonly file: string;
  /** The object's document index in its file. */
  readonly index: number;
  readonly value: unknown;
}

/** Returns every object of `kind` in the files, with its file and document index. */
export async function findDialectObjects(
  names: readonly string[],
  io: CliIo,
  kind: DialectObjectKind,
): Promise<FoundDialectObject[]> {
  const found: FoundDialectObject[] = [];
  for (const file of await readInputFiles(names, io)) {
    yamlDocuments(file).forEach((value, index) => {
      if (dialectObjectKind(value) === kind) found.push({ file: file.name, index, value });
    });
  }
  return found;
}

/** Runs one reader on a found object, its errors and unknown-field notes naming the file. */
function read<T>(
  found: FoundDialectObject,
  kind: string,
  options: DialectLoadOptions,
  reader: (at: string, onUnknownField: (path: string, suggestion?: string) => void) => T,
): T {
  try {
    return reader(`${kind}[${found.index}]`, (path, suggestion) =>
      options.note(
        `${found.file}: ${path}: unknown field${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}, ignored`,
      ),
    );
  } catch (error) {
    if (error instanceof TagDialectError) {
      throw new CliError("MISSING_OBJECT", `${found.file}: ${error.message}`, found.file);
    }
    throw error;
  }
}

/** The Argo CD configuration found, with where it came from. */
export type LoadedArgo = ArgoConfigObject;

/**
 * Returns the one Argo CD Image Updater configuration of the files: an
 * `ImageUpdater` (the image `alias`, or the first), or else an Argo CD
 * `Application` carrying `argocd-image-updater.argoproj.io/` annotations.
 * Undefined when the files hold neither.
 */
export async function loadArgoConfig(
  names: readonly string[],
  io: CliIo,
  alias: string | undefined,
  options: DialectLoadOptions,
): Promise<LoadedArgo | undefined> {
  const updaters = await findDialectObjects(names, io, "argocd-image-updater");
  if (updaters.length > 1) {
    throw new CliError(
      "USAGE",
      `${names.join(", ")}: ${updaters.length} ImageUpdaters found; give one file with one`,
    );
  }
  const updater = updaters[0];
  if (updater !== undefined) {
    return readArgoUpdaterObject(updater, alias, options);
  }
  const apps = await findDialectObjects(names, io, "argocd-application");
  if (apps.length > 1) {
    throw new CliError(
      "USAGE",
      `${names.join(", ")}: ${apps.length} annotated Applications found; give one`,
    );
  }
  const app = apps[0];
  if (app === undefined) return undefined;
  return readArgoApplicationObject(app, options);
}

/** Reads a found `ImageUpdater` (the image `alias`, or the first); errors name the file. */
export function readArgoUpdaterObject(
  updater: FoundDialectObject,
  alias: string | undefined,
  options: DialectLoadOptions,
): LoadedArgo {
  return read(updater, "ImageUpdater", options, (at, onUnknownField) =>
    readArgoImageUpdater(updater.value, {
      at,
      unknownFields: options.unknownFields,
      onUnknownField,
      ...(alias === undefined ? {} : { alias }),
    }),
  );
}

/** Reads a found annotated Argo CD `Application`; errors name the file. */
export function readArgoApplicationObject(
  app: FoundDialectObject,
  options: DialectLoadOptions,
): LoadedArgo {
  return read(app, "Application", options, (at, onUnknownField) =>
    readArgoApplication(app.value, { at, unknownFields: options.unknownFields, onUnknownField }),
  );
}

/** The Kargo subscription found, with where it came from. */
export type LoadedKargo = KargoSubscriptionObject;

/**
 * Returns the image subscription of the files' Kargo `Warehouse`: the
 * `index`-th subscription (which must be an image one), or the first image
 * subscription. Undefined when the files hold no Warehouse.
 */
export async function loadKargoSubscription(
  names: readonly string[],
  io: CliIo,
  index: number | undefined,
  options: DialectLoadOptions,
): Promise<LoadedKargo | undefined> {
  const found = await findDialectObjects(names, io, "kargo-warehouse");
  if (found.length > 1) {
    throw new CliError("USAGE", `${names.join(", ")}: ${found.length} Warehouses found; give one`);
  }
  const warehouse = found[0];
  if (warehouse === undefined) return undefined;
  return readKargoWarehouseObject(warehouse, index, options);
}

/** Reads a found `Warehouse`'s `index`-th (or first image) subscription; errors name the file. */
export function readKargoWarehouseObject(
  warehouse: FoundDialectObject,
  index: number | undefined,
  options: DialectLoadOptions,
): LoadedKargo {
  return read(warehouse, "Warehouse", options, (at, onUnknownField) =>
    readKargoWarehouse(warehouse.value, {
      at,
      unknownFields: options.unknownFields,
      onUnknownField,
      ...(index === undefined ? {} : { subscription: index }),
    }),
  );
}

/**
 * Returns the tags of a tags file with their metadata: a JSON/YAML list
 * whose entries are tag names or `TagInfo` objects (`name`, `created`,
 * `digest`, `platforms`), a registry `tags/list` answer, or one tag per line.
 */
export async function readTagInfoFile(name: string, io: CliIo): Promise<TagInfo[]> {
  const file = await readInputFile(name, io);
  if (!/\.(ya?ml|json)$/i.test(name)) {
    return file.text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== "")
      .map((tag) => ({ name: tag }));
  }
  // Read through the one bounded YAML reader, as every other file.
  const documents = yamlDocuments(file);
  if (documents.length > 1) {
    fail(name, "(top)", `expected one YAML document, found ${documents.length}`);
  }
  const value: unknown = documents[0];
  const list = Array.isArray(value) ? value : asRecord(value)?.tags;
  if (!Array.isArray(list)) {
    fail(name, "(top)", 'expected a list of tags, or an object whose "tags" is a list');
  }
  // Objects are checked field by field by the dialects themselves (path `tags[i].…`).
  return list.map((entry: unknown, i: number) => {
    if (typeof entry === "string") return { name: entry };
    if (asRecord(entry) === undefined) {
      fail(
        name,
        `tags[${i}]`,
        `must be a tag or a TagInfo object (got ${JSON.stringify(entry)?.slice(0, 80)})`,
      );
    }
    return entry as TagInfo;
  });
}
