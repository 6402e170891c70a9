/**
 * The Argo CD Image Updater and Kargo objects among the files a user gives
 * — an `ImageUpdater`, an Argo CD `Application` with the updater's
 * annotations, a Kargo `Warehouse` — read by `loadTagObjects`
 * (`@kubeimg/policy/tags/yaml`, which the `kubeimg tags` Flux path uses
 * too). What is left here is the command's part: which files, and how many
 * of each object it takes.
 */

import type { ArgoConfigObject } from "@kubeimg/policy/tags/argocd";
import type { TagInfo } from "@kubeimg/policy/tags/dialects";
import type { KargoSubscriptionObject } from "@kubeimg/policy/tags/kargo";
import { CliError } from "../../errors/cli-error.js";
import { readInputFile } from "../../files/read-file.js";
import { yamlDocuments } from "../../files/yaml-documents.js";
import type { CliIo } from "../../io/io.js";
import { readTagObjectFiles, type TagFilesOptions } from "./load.js";

type Json = Record<string, unknown>;

/** How the loaders treat fields the CRDs do not define (`--validate`). */
export type DialectLoadOptions = TagFilesOptions;

function asRecord(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

function fail(file: string, path: string, problem: string): never {
  throw new CliError("MISSING_OBJECT", `${file}: ${path}: ${problem}`, file);
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
  const updaters = (
    await readTagObjectFiles(names, io, options, {
      select: (o) => o.kind === "ImageUpdater",
      ...(alias === undefined ? {} : { alias }),
    })
  ).objects;
  if (updaters.length > 1) {
    throw new CliError(
      "USAGE",
      `${names.join(", ")}: ${updaters.length} ImageUpdaters found; give one file with one`,
    );
  }
  const [updater] = updaters;
  if (updater?.kind === "ImageUpdater") return updater.object;
  // Applications are read only when there is no ImageUpdater, as the updater itself prefers the CR.
  const apps = (
    await readTagObjectFiles(names, io, options, { select: (o) => o.kind === "Application" })
  ).objects;
  if (apps.length > 1) {
    throw new CliError(
      "USAGE",
      `${names.join(", ")}: ${apps.length} annotated Applications found; give one`,
    );
  }
  const [app] = apps;
  return app?.kind === "Application" ? app.object : undefined;
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
  const { objects } = await readTagObjectFiles(names, io, options, {
    select: (o) => o.kind === "Warehouse",
    ...(index === undefined ? {} : { subscription: index }),
  });
  if (objects.length > 1) {
    throw new CliError(
      "USAGE",
      `${names.join(", ")}: ${objects.length} Warehouses found; give one`,
    );
  }
  const [warehouse] = objects;
  return warehouse?.kind === "Warehouse" ? warehouse.object : undefined;
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
