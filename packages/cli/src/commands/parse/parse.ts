import {
  defaultPullPolicy,
  familiarString,
  ImageReferenceError,
  safeParseNormalizedNamed,
} from "@kubeimg/core/reference";
import { CliError } from "../../errors/cli-error.js";
import { EXIT_CODES } from "../../errors/exit-codes.js";
import { sanitizeText } from "../../output/sanitize.js";
import { renderFields } from "../../output/table.js";
import { writeResult } from "../../output/write.js";
import type { Command } from "../command.js";

/** What `kubeimg parse` reports for one valid reference. */
export interface ParsedReferenceRow {
  readonly input: string;
  readonly valid: true;
  /** The normalized reference, as the kubelet and containerd see it. */
  readonly normalized: string;
  readonly name: string;
  readonly domain: string;
  readonly path: string;
  /** The short form `docker` prints (`nginx:1.25` for `docker.io/library/nginx:1.25`). */
  readonly familiar: string;
  readonly tag: string | null;
  readonly digest: string | null;
  /** The `imagePullPolicy` Kubernetes fills in when a container leaves it empty. */
  readonly defaultPullPolicy: "Always" | "IfNotPresent";
}

/** What `kubeimg parse` reports for one invalid reference. */
export interface InvalidReferenceRow {
  readonly input: string;
  readonly valid: false;
  readonly error: { readonly code: string; readonly message: string };
}

/**
 * Returns the report of one reference: its normalized, familiar and split
 * forms and default pull policy, or the typed error that refused it.
 */
export function describeReference(input: string): ParsedReferenceRow | InvalidReferenceRow {
  const parsed = safeParseNormalizedNamed(input);
  if (!parsed.success) {
    const { error } = parsed;
    const code = error instanceof ImageReferenceError ? error.code : "INVALID_REFERENCE_FORMAT";
    return { input, valid: false, error: { code, message: error.message } };
  }
  const r = parsed.data;
  return {
    input,
    valid: true,
    normalized: r.string,
    name: r.name,
    domain: r.domain,
    path: r.path,
    familiar: familiarString(r),
    tag: r.tag ?? null,
    digest: r.digest ?? null,
    defaultPullPolicy: defaultPullPolicy(input),
  };
}

/** `kubeimg parse REF...` */
export const parseCommand: Command = {
  name: "parse",
  summary: "normalize image references as the kubelet and Docker do",
  usage: "kubeimg parse REF...",
  description: [
    "Parses each image reference with Docker's grammar (distribution/reference) and",
    "shows its normalized form, the familiar short form, the tag, the digest and the",
    "imagePullPolicy Kubernetes would default to. An invalid reference gets the",
    "upstream error text and a stable code; the exit code is then 2.",
  ].join("\n"),
  options: {},
  positionals: true,
  examples: [
    ["normalize Docker Hub short names", "kubeimg parse nginx bitnami/redis:7.2"],
    [
      "machine-readable, one object per reference",
      "kubeimg parse -o json ghcr.io/fluxcd/flux-cli:v2.4.0",
    ],
  ],
  async run({ io, positionals, format, colors }) {
    if (positionals.length === 0) {
      throw new CliError("USAGE", "give at least one image reference (see 'kubeimg parse --help')");
    }
    const rows = positionals.map(describeReference);
    const valid = rows.filter((r): r is ParsedReferenceRow => r.valid);
    writeResult(
      io,
      format,
      rows,
      (c) =>
        valid
          .map((r) =>
            renderFields(
              [
                // Styled as a cell, after the sanitizer: pre-styled text would have
                // its own escape sequences replaced.
                ["input", { text: r.input, style: c.bold }],
                ["normalized", r.normalized],
                ["familiar", r.familiar],
                ["tag", r.tag ?? "-"],
                ["digest", r.digest ?? "-"],
                [
                  "default pull policy",
                  {
                    text: r.defaultPullPolicy,
                    style: r.defaultPullPolicy === "Always" ? c.yellow : c.green,
                  },
                ],
              ],
              c,
            ),
          )
          .join("\n"),
      colors,
    );
    for (const row of rows) {
      if (!row.valid) {
        const { code, message } = row.error;
        io.stderr.write(
          `kubeimg parse: ${sanitizeText(`${JSON.stringify(row.input)}: ${message} [${code}]`)}\n`,
        );
      }
    }
    return rows.length === valid.length ? EXIT_CODES.OK : EXIT_CODES.BAD_INPUT;
  },
};
