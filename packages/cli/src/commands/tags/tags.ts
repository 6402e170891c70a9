import { makeDockerKeyring } from "@kubeimg/core/keyring";
import type { DigestResolver, TagLister } from "@kubeimg/core/ports";
import { parseNormalizedNamed } from "@kubeimg/core/reference";
import * as fluxInternals from "@kubeimg/policy/internal/tags";
import {
  excludeTags,
  explainTagSelection,
  type ImagePolicyResolution,
  resolveImagePolicy,
  safeSelectLatestTag,
  type TagExplanation,
  TagPolicyError,
  type TagVerdict,
} from "@kubeimg/policy/tags";
import { createDigestResolver, createTagLister } from "@kubeimg/registry/adapters";
import { upstreamChoice, upstreamOption } from "../../args/upstream.js";
import { unknownFieldPolicy, VALIDATE_OPTION } from "../../args/validate-option.js";
import { CliError } from "../../errors/cli-error.js";
import { EXIT_CODES } from "../../errors/exit-codes.js";
import type { CliIo } from "../../io/io.js";
import type { Colors } from "../../output/color.js";
import { sanitizeText } from "../../output/sanitize.js";
import { type Cell, renderFields, renderTable } from "../../output/table.js";
import { writeResult } from "../../output/write.js";
import { registryAccess } from "../../registry/registry-access.js";
import { REGISTRY_OPTIONS } from "../../registry/registry-options.js";
import { type Command, type CommandContext, requireFileOptions, stringOption } from "../command.js";
import { dialectOption, runDialectTags, runTagsCompare } from "./dialect-run.js";
import { loadImagePolicy, readTagsFile } from "./load.js";

/** Flux errors that mean "the policy found nothing" (exit 1) rather than bad input (exit 2). */
export const NOTHING_FOUND: ReadonlySet<string> = new Set([
  "NO_TAGS",
  "ALL_TAGS_FILTERED",
  "NO_MATCHING_VERSION",
]);

function verdictCell(verdict: TagVerdict, c: Colors): Cell {
  switch (verdict) {
    case "selected":
      return { text: verdict, style: c.green };
    case "ranked":
      return verdict;
    default:
      return { text: verdict, style: c.dim };
  }
}

/**
 * Wraps `fetch` to report each page of a tag listing on stderr. It looks at
 * the URL and status only, never at the body: the client reads each page
 * under its own size cap, and a copy read here would not be (a hostile page
 * of hundreds of megabytes would be buffered whole, twice).
 */
function progressFetch(
  context: CommandContext,
  repository: string,
): {
  fetch: typeof globalThis.fetch;
  done(): void;
} {
  const { io } = context;
  let pages = 0;
  const tty = io.stderr.isTTY === true;
  const report = (line: string) => {
    if (tty) io.stderr.write(`\r\u001b[2K${line}`);
    else io.stderr.write(`${line}\n`);
  };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await io.fetch(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (/\/tags\/list(\?|$)/.test(url) && response.ok) {
      pages++;
      report(`kubeimg tags: listing ${sanitizeText(repository)}: page ${pages}`);
    }
    return response;
  };
  return { fetch, done: () => tty && pages > 0 && io.stderr.write("\r\u001b[2K") };
}

/** A Flux ImageRepository's registry, reached with the command's registry options. */
interface FluxRegistry {
  readonly tagLister: TagLister;
  readonly digestResolver: DigestResolver;
  /** Clears the progress line. */
  done(): void;
}

async function fluxRegistry(
  context: CommandContext,
  image: string,
  insecure: boolean,
): Promise<FluxRegistry> {
  let repository: ReturnType<typeof parseNormalizedNamed>;
  try {
    repository = parseNormalizedNamed(image);
  } catch (error) {
    if (error instanceof Error) error.message = `image ${JSON.stringify(image)}: ${error.message}`;
    throw error;
  }
  const progress = progressFetch(context, repository.name);
  const io: CliIo = { ...context.io, fetch: progress.fetch };
  // `spec.insecure: true`: Flux talks plain HTTP to that registry.
  const access = await registryAccess(
    { ...context, io },
    { defaultTimeoutMs: 30_000, insecureHosts: insecure ? [repository.domain] : [] },
  );
  const adapterOptions = {
    client: access.client,
    keyring: makeDockerKeyring(access.secrets, access.keyring),
    timeoutMs: access.timeoutMs,
  };
  return {
    tagLister: createTagLister(adapterOptions),
    digestResolver: createDigestResolver(adapterOptions),
    done: progress.done,
  };
}

/**
 * Lists `image`'s tags from its registry as Flux's scan does (`insecure`),
 * before the ImageRepository's `exclusionList` (see `excludeTags`).
 */
export async function listFromRegistry(
  context: CommandContext,
  image: string,
  insecure: boolean,
): Promise<string[]> {
  const registry = await fluxRegistry(context, image, insecure);
  try {
    return await registry.tagLister.listTags(
      parseNormalizedNamed(image),
      context.io.signal ? { signal: context.io.signal } : {},
    );
  } finally {
    registry.done();
  }
}

/** Rethrows what stopped a reconciliation before any selection (the registry's own error). */
function throwUnlessSelection(resolution: ImagePolicyResolution, image: string): void {
  const error = resolution.error;
  if (error === undefined || error instanceof TagPolicyError) return;
  if (resolution.tags === undefined && !(error.cause instanceof Error)) {
    // The image itself did not parse.
    error.message = `image ${JSON.stringify(image)}: ${error.message}`;
    throw error;
  }
  throw error.cause instanceof Error ? error.cause : error;
}

function selectOnly(
  tags: readonly string[],
  spec: Parameters<typeof safeSelectLatestTag>[1],
): { tag: string | undefined; error: TagPolicyError | undefined; tags: readonly TagExplanation[] } {
  const r = safeSelectLatestTag(tags, spec);
  return r.success
    ? { tag: r.tag, error: undefined, tags: [] }
    : { tag: undefined, error: r.error, tags: [] };
}

/** `kubeimg tags` */
export const tagsCommand: Command = {
  name: "tags",
  summary: "show which tag Flux, Argo CD Image Updater or Kargo selects, and why the others lost",
  usage: [
    "kubeimg tags [--dialect flux|argocd|kargo] -f FILE... (--tags-file FILE | --registry) [--explain]",
    "       kubeimg tags compare -f FILE... --tags-file FILE",
  ].join("\n"),
  description: [
    "Evaluates a Flux ImagePolicy (image.toolkit.fluxcd.io/v1; v1beta2 and v1beta1 are",
    "converted to v1 as the API server converts them) exactly as the",
    "image-reflector-controller v1.2.0 does: filterTags pattern and extract (Go RE2 and",
    "Expand), then the semver range (Masterminds/semver v3), alphabetical or numerical",
    "order. The tags come from a file (one per line, a YAML/JSON list, or a registry",
    "tags/list answer) or, with --registry, from the registry of the ImageRepository in",
    "the same files (or --image), with a progress line on stderr while pages arrive.",
    "With --explain every tag gets a verdict: filtered out, not a version, outside the",
    "range, ranked lower, or selected. Exit 1 when the policy selects nothing.",
    "",
    "--dialect argocd reads an ImageUpdater (argocd-image-updater.argoproj.io/v1alpha1; the",
    "image --alias, default the first) or an Argo CD Application with the updater's",
    "annotations and answers as Argo CD Image Updater v1.3.0; --dialect kargo reads a",
    "kargo.akuity.io/v1alpha1 Warehouse (its first image subscription, or --subscription N)",
    "and answers as Kargo v1.11.2. Their tags files may list TagInfo objects (name,",
    "created, digest, platforms) for the newest-build, digest and platform strategies;",
    "with --registry that metadata is read from the registry when the strategy needs it.",
    "Fields these objects do not define are refused with their path.",
    "",
    "'tags compare' runs every updater configured in the files over the same tags and",
    "prints each pick side by side, with what separates each pair that differs.",
    "",
    "-f - reads standard input; -f DIR reads the directory's .yaml, .yml and .json files.",
    "Objects of other kinds are skipped. Fields the CRDs do not know are errors unless",
    "--validate=warn or --validate=ignore. The ImageRepository's spec.insecure: true",
    "means plain HTTP to its registry, as Flux does.",
  ].join("\n"),
  options: {
    upstream: upstreamOption(["semver"]),
    file: {
      type: "string",
      short: "f",
      multiple: true,
      value: "FILE",
      help: "YAML with the ImagePolicy (and optionally its ImageRepository)",
    },
    name: {
      type: "string",
      value: "NAME",
      help: "the ImagePolicy to use when the files hold several",
    },
    "tags-file": { type: "string", value: "FILE", help: "the repository's tags" },
    registry: { type: "boolean", help: "list the tags from the registry" },
    image: {
      type: "string",
      value: "REPOSITORY",
      help: "the repository to list (default: spec.image of the ImageRepository)",
    },
    explain: { type: "boolean", help: "show every tag's verdict" },
    ...VALIDATE_OPTION,
    dialect: {
      type: "string",
      value: "DIALECT",
      help: "flux (default), argocd or kargo: whose rules pick the tag",
    },
    alias: { type: "string", value: "ALIAS", help: "argocd: the ImageUpdater image to use" },
    subscription: {
      type: "string",
      value: "N",
      help: "kargo: the Warehouse subscription to use (default: the first image one)",
    },
    ...REGISTRY_OPTIONS,
  },
  positionals: true,
  examples: [
    [
      "which tag does this policy pick from these tags, and why not the others?",
      "kubeimg tags -f podinfo-policy.yaml --tags-file tags.txt --explain",
    ],
    [
      "ask the registry (ImageRepository and ImagePolicy in one file)",
      "kubeimg tags -f podinfo.yaml --registry --docker-config ~/.docker/config.json",
    ],
    [
      "what Kargo picks from these tags, and why",
      "kubeimg tags --dialect kargo -f warehouse.yaml --tags-file tags.json --explain",
    ],
    [
      "Flux, Argo CD and Kargo side by side",
      "kubeimg tags compare -f policy.yaml -f image-updater.yaml -f warehouse.yaml --tags-file tags.txt",
    ],
  ],
  async run(context) {
    const [subcommand, ...extra] = context.positionals;
    if (subcommand === "compare" && extra.length === 0) return runTagsCompare(context);
    if (subcommand !== undefined) {
      throw new CliError(
        "USAGE",
        `unexpected argument ${JSON.stringify(context.positionals.join(" "))} (the one subcommand is 'compare')`,
      );
    }
    const dialect = dialectOption(context);
    // Argo CD Image Updater and Kargo build with one Masterminds release each (pinned).
    const upstream = upstreamChoice(
      context.values,
      dialect === "flux" ? "tags" : `tags --dialect ${dialect}`,
      dialect === "flux" ? ["semver"] : [],
    );
    if (dialect !== "flux") return runDialectTags(context, dialect);
    const { io, values, format, colors } = context;
    const files = requireFileOptions(values, "tags");
    const tagsFile = stringOption(values, "tags-file");
    const fromRegistry = values.registry === true;
    if ((tagsFile === undefined) === !fromRegistry) {
      throw new CliError(
        "USAGE",
        "give exactly one of --tags-file FILE or --registry (see 'kubeimg tags --help')",
      );
    }
    const { policy, repositories } = await loadImagePolicy(
      files,
      stringOption(values, "name"),
      io,
      {
        unknownFields: unknownFieldPolicy(values),
        note: context.note,
        verbose: values.verbose === true,
      },
    );
    const ref = policy.spec.imageRepositoryRef;
    const repository =
      repositories.find(
        (r) =>
          r.name === ref.name &&
          (r.namespace ?? "") === (ref.namespace ?? policy.metadata.namespace ?? ""),
      ) ?? repositories.find((r) => r.name === ref.name);
    const image = stringOption(values, "image") ?? repository?.image;
    const fileTags = tagsFile !== undefined ? await readTagsFile(tagsFile, io) : undefined;
    if (fileTags === undefined && image === undefined) {
      throw new CliError(
        "USAGE",
        `--registry needs the repository: add the ImageRepository "${ref.name}" to the files or give --image`,
      );
    }
    const spec = { ...policy.spec, semver: upstream.semver };
    // The explain trace (a verdict per tag) is built only when asked: the
    // selection alone is a single pass over the tags.
    const explain = values.explain === true;
    let tags: readonly string[];
    let selected: string | undefined;
    let selectionError: TagPolicyError | undefined;
    let readyMessage: string | undefined;
    let digest: string | undefined;
    if (image !== undefined) {
      // One reconciliation as the library runs it: the tags file stands for
      // the registry's listing, and only a registry reflects digests.
      const registry =
        fileTags === undefined
          ? await fluxRegistry(context, image, repository?.insecure === true)
          : undefined;
      let resolution: ImagePolicyResolution;
      try {
        resolution = await resolveImagePolicy({
          spec: registry === undefined ? { ...spec, digestReflectionPolicy: "Never" } : spec,
          image,
          exclusionList: repository?.exclusionList,
          tagLister: registry?.tagLister ?? { listTags: async () => fileTags ?? [] },
          ...(registry === undefined ? {} : { digestResolver: registry.digestResolver }),
          ...(io.signal ? { signal: io.signal } : {}),
        });
      } finally {
        registry?.done();
      }
      throwUnlessSelection(resolution, image);
      tags = resolution.tags ?? [];
      selected = resolution.tag;
      selectionError = resolution.error as TagPolicyError | undefined;
      const latest = resolution.status.latestRef;
      digest = latest?.digest === undefined || latest.digest === "" ? undefined : latest.digest;
      if (selected !== undefined) {
        readyMessage = fluxInternals.composeReadyMessage({ name: image, tag: selected }, undefined);
      }
    } else {
      // No ImageRepository: Flux's default exclusion still applies to its scan.
      tags = excludeTags(fileTags ?? [], undefined);
      const only = selectOnly(tags, spec);
      selected = only.tag;
      selectionError = only.error;
    }
    const result: {
      tag: string | undefined;
      error: TagPolicyError | undefined;
      tags: readonly TagExplanation[];
    } = explain
      ? explainTagSelection(tags, spec)
      : { tag: selected, error: selectionError, tags: [] };
    const policyName = `${policy.metadata.namespace ?? "default"}/${policy.metadata.name}`;
    const data = {
      policy: policyName,
      semver: upstream.semver,
      image: image ?? null,
      tag: result.tag ?? null,
      error: result.error ? { code: result.error.code, message: result.error.message } : null,
      ...(readyMessage ? { message: readyMessage } : {}),
      ...(digest ? { digest } : {}),
      tagCount: tags.length,
      ...(explain ? { tags: result.tags } : {}),
    };
    writeResult(
      io,
      format,
      data,
      (c) => {
        const fields = renderFields(
          [
            ["policy", policyName],
            ["Masterminds/semver", upstream.semver],
            ["image", image ?? "-"],
            ["tags", String(tags.length)],
            result.tag !== undefined
              ? ["selected", { text: result.tag, style: c.green }]
              : ["selected", { text: `none: ${result.error?.message ?? "?"}`, style: c.red }],
            ...(digest ? [["digest", digest] as const] : []),
            ...(readyMessage ? [["message", readyMessage] as const] : []),
          ],
          c,
        );
        if (!explain || result.tags.length === 0) return fields;
        return `${fields}\n${renderTable(
          ["TAG", "VERDICT", "WHY"],
          result.tags.map((t) => [t.tag, verdictCell(t.verdict, c), t.reason]),
          c,
        )}`;
      },
      colors,
    );
    if (result.error === undefined) return EXIT_CODES.OK;
    if (NOTHING_FOUND.has(result.error.code)) return EXIT_CODES.NOTHING_FOUND;
    context.note(`${result.error.message} [${result.error.code}]`);
    return EXIT_CODES.BAD_INPUT;
  },
};
