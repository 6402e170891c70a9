/**
 * `kubeimg tags --dialect argocd|kargo` and `kubeimg tags compare`: the Argo
 * CD Image Updater and Kargo tag selections of `@kubeimg/policy/tags`, with
 * their per-tag verdicts and notes, and the three updaters side by side.
 * Tags come from a file (names, or `TagInfo` objects carrying `created`,
 * `digest` and `platforms`) or, for one dialect, from the registry — with
 * image metadata fetched only when the strategy needs it, as the updaters do.
 */
import { makeDockerKeyring } from "@kubeimg/core/keyring";
import { parseNormalizedNamed, trimNamed } from "@kubeimg/core/reference";
import { argoStrategy, selectArgoTag } from "@kubeimg/policy/tags/argocd";
import {
  collectTagInfo,
  compareTagSelections,
  type DialectSelection,
  type DialectVerdict,
  needsTagMetadata,
  type TagInfo,
} from "@kubeimg/policy/tags/dialects";
import { selectKargoTag } from "@kubeimg/policy/tags/kargo";
import { createTagLister, createTagMetadataSource } from "@kubeimg/registry/adapters";
import { unknownFieldPolicy } from "../../args/validate-option.js";
import { CliError } from "../../errors/cli-error.js";
import { EXIT_CODES, type ExitCode } from "../../errors/exit-codes.js";
import type { Colors } from "../../output/color.js";
import { type Cell, renderFields, renderTable } from "../../output/table.js";
import { writeResult } from "../../output/write.js";
import { registryAccess } from "../../registry/registry-access.js";
import { type CommandContext, requireFileOptions, stringOption } from "../command.js";
import {
  type DialectLoadOptions,
  type LoadedArgo,
  loadArgoConfig,
  loadKargoSubscription,
  readTagInfoFile,
} from "./dialect-load.js";
import { loadImagePolicy } from "./load.js";

/** The values of `--dialect`. */
export type CliDialect = "flux" | "argocd" | "kargo";

/** Returns the `--dialect` value, refusing anything else. */
export function dialectOption(context: CommandContext): CliDialect {
  const value = stringOption(context.values, "dialect") ?? "flux";
  if (value !== "flux" && value !== "argocd" && value !== "kargo") {
    throw new CliError(
      "USAGE",
      `--dialect must be flux, argocd or kargo (got ${JSON.stringify(value)})`,
      value,
    );
  }
  return value;
}

function loadOptions(context: CommandContext): DialectLoadOptions {
  return { unknownFields: unknownFieldPolicy(context.values), note: context.note };
}

function subscriptionOption(context: CommandContext): number | undefined {
  const text = stringOption(context.values, "subscription");
  if (text === undefined) return undefined;
  if (!/^(0|[1-9]\d{0,5})$/.test(text)) {
    throw new CliError(
      "USAGE",
      `--subscription must be an index from 0 (got ${JSON.stringify(text)})`,
      text,
    );
  }
  return Number(text);
}

function verdictCell(verdict: DialectVerdict, c: Colors): Cell {
  if (verdict === "selected") return { text: verdict, style: c.green };
  if (verdict === "ranked") return verdict;
  return { text: verdict, style: c.dim };
}

/** Whether an Argo CD configuration may run a strategy that reads metadata. */
export function argoMayNeedMetadata(loaded: LoadedArgo): boolean {
  const config = loaded.config;
  const texts =
    "annotations" in config
      ? Object.entries(config.annotations)
          .filter(([key]) => key.endsWith(".update-strategy"))
          .map(([, value]) => value)
      : [
          config.settings?.image?.updateStrategy ??
            config.settings?.applicationRef?.updateStrategy ??
            config.settings?.spec?.updateStrategy,
        ];
  return texts.some((t) =>
    needsTagMetadata({ dialect: "argocd-image-updater", strategy: argoStrategy(t) }),
  );
}

/** Lists `image`'s tags with their metadata when `needed`, as Argo CD and Kargo do. */
export async function tagsFromRegistry(
  context: CommandContext,
  image: string,
  needed: boolean,
): Promise<TagInfo[]> {
  let named: ReturnType<typeof parseNormalizedNamed>;
  try {
    named = parseNormalizedNamed(image);
  } catch (error) {
    if (error instanceof Error) error.message = `image ${JSON.stringify(image)}: ${error.message}`;
    throw error;
  }
  const repository = trimNamed(named);
  const access = await registryAccess(context, { defaultTimeoutMs: 30_000 });
  const keyring = makeDockerKeyring(access.secrets, access.keyring);
  const signal = context.io.signal;
  const names = await createTagLister({
    client: access.client,
    keyring,
    timeoutMs: access.timeoutMs,
  }).listTags(repository, signal ? { signal } : {});
  const source = createTagMetadataSource({
    client: access.client,
    keyring,
    timeoutMs: access.timeoutMs,
  });
  if (needed) context.note(`reading the image metadata of ${names.length} tags`);
  return collectTagInfo(names, { source, repository, needed, ...(signal ? { signal } : {}) });
}

async function readTags(
  context: CommandContext,
  image: () => string | undefined,
  needed: () => boolean,
): Promise<TagInfo[]> {
  const tagsFile = stringOption(context.values, "tags-file");
  const fromRegistry = context.values.registry === true;
  if ((tagsFile === undefined) === !fromRegistry) {
    throw new CliError(
      "USAGE",
      "give exactly one of --tags-file FILE or --registry (see 'kubeimg tags --help')",
    );
  }
  if (tagsFile !== undefined) return readTagInfoFile(tagsFile, context.io);
  const repository = stringOption(context.values, "image") ?? image();
  if (repository === undefined) {
    throw new CliError("USAGE", "--registry needs the repository: give --image");
  }
  return tagsFromRegistry(context, repository, needed());
}

/** Argo CD and Kargo outcomes that mean "nothing picked" (exit 1) rather than bad input. */
export const DIALECT_NOTHING_FOUND: ReadonlySet<string> = new Set(["NO_TAGS", "NO_CANDIDATES"]);

function exitFor(context: CommandContext, selection: DialectSelection): ExitCode {
  const outcome = selection.outcome;
  if (outcome === undefined) return EXIT_CODES.OK;
  if (DIALECT_NOTHING_FOUND.has(outcome.code)) return EXIT_CODES.NOTHING_FOUND;
  context.note(`${outcome.message} [${outcome.code}]`);
  return EXIT_CODES.BAD_INPUT;
}

/** `kubeimg tags --dialect argocd|kargo`. */
export async function runDialectTags(
  context: CommandContext,
  dialect: "argocd" | "kargo",
): Promise<ExitCode> {
  const { io, values, format, colors } = context;
  const files = requireFileOptions(values, "tags");
  let selection: DialectSelection;
  let source: string;
  let tagCount: number;
  if (dialect === "argocd") {
    const loaded = await loadArgoConfig(
      files,
      io,
      stringOption(values, "alias"),
      loadOptions(context),
    );
    if (loaded === undefined) {
      throw new CliError(
        "MISSING_OBJECT",
        `${files.join(", ")}: no ImageUpdater and no Application with argocd-image-updater.argoproj.io annotations found`,
        files.join(","),
      );
    }
    const tags = await readTags(
      context,
      () => loaded.image,
      () => argoMayNeedMetadata(loaded),
    );
    tagCount = tags.length;
    selection = selectArgoTag(loaded.config, tags, { explain: values.explain === true });
    source = loaded.source;
  } else {
    const loaded = await loadKargoSubscription(
      files,
      io,
      subscriptionOption(context),
      loadOptions(context),
    );
    if (loaded === undefined) {
      throw new CliError(
        "MISSING_OBJECT",
        `${files.join(", ")}: no kargo.akuity.io/v1alpha1 Warehouse found`,
        files.join(","),
      );
    }
    const tags = await readTags(
      context,
      () => loaded.subscription.repoURL,
      () => needsTagMetadata({ dialect: "kargo", subscription: loaded.subscription }),
    );
    tagCount = tags.length;
    selection = selectKargoTag(loaded.subscription, tags, { explain: values.explain === true });
    source = loaded.source;
  }
  const explain = values.explain === true;
  const data = {
    dialect: selection.dialect,
    source,
    tag: selection.tag ?? null,
    digest: selection.digest ?? null,
    discovered: selection.discovered,
    outcome: selection.outcome ?? null,
    notes: selection.notes,
    tagCount,
    ...(explain ? { tags: selection.tags } : {}),
  };
  writeResult(
    io,
    format,
    data,
    (c) => {
      const fields = renderFields(
        [
          ["dialect", selection.dialect],
          ["source", source],
          ["tags", String(tagCount)],
          selection.tag !== undefined
            ? ["selected", { text: selection.tag, style: c.green }]
            : ["selected", { text: `none: ${selection.outcome?.message ?? "?"}`, style: c.red }],
          ...(selection.digest !== undefined ? [["digest", selection.digest] as const] : []),
          ...selection.notes.map((n) => ["note", n] as const),
        ],
        c,
      );
      if (!explain || selection.tags.length === 0) return fields;
      return `${fields}\n${renderTable(
        ["TAG", "VERDICT", "WHY"],
        selection.tags.map((t) => [t.tag, verdictCell(t.verdict, c), t.reason]),
        c,
      )}`;
    },
    colors,
  );
  return exitFor(context, selection);
}

/** `kubeimg tags compare -f FILE... --tags-file F`. */
export async function runTagsCompare(context: CommandContext): Promise<ExitCode> {
  const { io, values, format, colors } = context;
  const files = requireFileOptions(values, "tags compare");
  const tagsFile = stringOption(values, "tags-file");
  if (tagsFile === undefined) {
    throw new CliError("USAGE", "tags compare needs --tags-file FILE (see 'kubeimg tags --help')");
  }
  let flux: Awaited<ReturnType<typeof loadImagePolicy>> | undefined;
  try {
    flux = await loadImagePolicy(files, stringOption(values, "name"), io, {
      ...loadOptions(context),
      verbose: values.verbose === true,
    });
  } catch (error) {
    if (
      !(
        error instanceof CliError &&
        error.code === "MISSING_OBJECT" &&
        /no image\.toolkit\.fluxcd\.io ImagePolicy/.test(error.message)
      )
    ) {
      throw error;
    }
  }
  const argo = await loadArgoConfig(files, io, stringOption(values, "alias"), loadOptions(context));
  const kargo = await loadKargoSubscription(
    files,
    io,
    subscriptionOption(context),
    loadOptions(context),
  );
  const given = [flux, argo, kargo].filter((x) => x !== undefined).length;
  if (given < 2) {
    throw new CliError(
      "MISSING_OBJECT",
      `${files.join(", ")}: tags compare needs at least two of a Flux ImagePolicy, an Argo CD ImageUpdater or annotated Application, and a Kargo Warehouse (found ${given})`,
      files.join(","),
    );
  }
  const tags = await readTagInfoFile(tagsFile, io);
  const comparison = compareTagSelections({
    tags,
    ...(flux ? { flux: flux.policy.spec } : {}),
    ...(argo ? { argocd: argo.config } : {}),
    ...(kargo ? { kargo: kargo.subscription } : {}),
  });
  const data = {
    tagCount: tags.length,
    picks: comparison.picks.map((p) => ({
      dialect: p.dialect,
      tag: p.tag ?? null,
      digest: p.digest ?? null,
      outcome: p.outcome ?? null,
      message: p.message ?? null,
    })),
    differences: comparison.differences,
  };
  writeResult(
    io,
    format,
    data,
    (c) => {
      const picks = renderTable(
        ["DIALECT", "PICK", "WHY NOT / DIGEST"],
        comparison.picks.map((p) => [
          p.dialect,
          p.tag !== undefined ? { text: p.tag, style: c.green } : { text: "none", style: c.red },
          p.tag !== undefined ? (p.digest ?? "") : `${p.outcome}: ${p.message ?? ""}`,
        ]),
        c,
      );
      if (comparison.differences.length === 0) return `${picks}\nall agree\n`;
      return `${picks}\n${renderTable(
        ["A", "B", "WHAT SEPARATES THEM"],
        comparison.differences.map((d) => [d.a, d.b, d.summary]),
        c,
      )}`;
    },
    colors,
  );
  return comparison.picks.every((p) => p.tag !== undefined)
    ? EXIT_CODES.OK
    : EXIT_CODES.NOTHING_FOUND;
}
