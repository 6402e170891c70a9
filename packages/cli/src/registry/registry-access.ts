import {
  createDockerKeyring,
  DockerConfigError,
  type DockerKeyring,
  type PullSecret,
  parseDockerConfigJson,
  pullSecretSchema,
} from "@kubeimg/core/keyring";
import { objects } from "@kubeimg/policy/internal";
import type { UnknownFieldPolicy } from "@kubeimg/policy/routing";
import type { AdapterCredentials, PullSecretGetter } from "@kubeimg/registry/adapters";
import {
  createRegistryClient,
  type RegistryClient,
  type RegistryHostOptions,
} from "@kubeimg/registry/client";
import { parseDurationFlag } from "../args/duration.js";
import { unknownFieldPolicy } from "../args/validate-option.js";
import { type CommandContext, stringOption, stringOptions } from "../commands/command.js";
import { CliError } from "../errors/cli-error.js";
import { plainCopy } from "../files/plain-object.js";
import { readInputFile } from "../files/read-file.js";
import { yamlDocuments } from "../files/yaml-documents.js";

/** A registry client and where its adapters take credentials from. */
export interface RegistryAccess extends AdapterCredentials {
  readonly client: RegistryClient;
  /** The budget of one call in milliseconds. */
  readonly timeoutMs: number;
  /** Every Secret read from `--secret-file`, in file order. */
  readonly secrets: readonly PullSecret[];
  /** Whether a `--secret-file` supplied the Secret `namespace/name`. */
  hasSecret(namespace: string, name: string): boolean;
}

function inFile(name: string, error: unknown): unknown {
  if (error instanceof Error) error.message = `${name}: ${error.message}`;
  return error;
}

async function loadKeyring(name: string, context: CommandContext): Promise<DockerKeyring> {
  const file = await readInputFile(name, context.io);
  try {
    return createDockerKeyring([{ config: parseDockerConfigJson(file.text) }]);
  } catch (error) {
    if (error instanceof DockerConfigError) throw inFile(name, error);
    throw error;
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Reads the pull Secrets of `--secret-file` files. Documents of other kinds
 * are skipped, as `-f` skips them; a file with no Secret at all is a
 * warning (it was probably the wrong file). YAML problems name the file and
 * position only: no piece of a secret file is ever quoted.
 */
export async function loadSecrets(
  names: readonly string[],
  context: CommandContext,
  unknownFields: UnknownFieldPolicy = "strict",
): Promise<Map<string, PullSecret>> {
  const secrets = new Map<string, PullSecret>();
  for (const name of names) {
    const file = await readInputFile(name, context.io);
    const documents = yamlDocuments(file, { secret: true });
    let found = 0;
    documents.forEach((raw, index) => {
      if (asRecord(raw)?.kind !== undefined && asRecord(raw)?.kind !== "Secret") return;
      const { value: document, removed } = plainCopy(raw);
      if (removed.length > 0 && unknownFields !== "ignore") {
        const message = `${name}: document ${index}: unknown field "${removed[0]}"${removed.length > 1 ? ` (and ${removed.length - 1} more)` : ""}`;
        if (unknownFields === "strict") throw new CliError("UNKNOWN_FIELD", message, name);
        context.note(`warning: ${message}`);
      }
      const parsed = objects.safeParseEnglish(pullSecretSchema, document);
      const metadata = parsed.success ? parsed.data.metadata : undefined;
      if (!parsed.success || metadata?.name === undefined) {
        const issue = parsed.success ? undefined : parsed.error.issues[0];
        const where = issue === undefined ? "metadata.name" : issue.path.join(".") || "(root)";
        // The issue's own message names types, never values.
        throw new CliError(
          "MISSING_OBJECT",
          `${name}: document ${index}: not a pull Secret: ${where}: ${issue?.message ?? "required"}`,
          name,
        );
      }
      found++;
      secrets.set(`${metadata.namespace ?? "default"}/${metadata.name}`, parsed.data);
    });
    if (found === 0) context.note(`warning: --secret-file ${name} holds no Secret`);
  }
  return secrets;
}

/** Reads the Secrets of the command's `--secret-file` options (see {@link loadSecrets}). */
export function secretFileSecrets(context: CommandContext): Promise<Map<string, PullSecret>> {
  const { values } = context;
  return loadSecrets(
    stringOptions(values, "secret-file"),
    context,
    values.validate === undefined ? "strict" : unknownFieldPolicy(values),
  );
}

/**
 * Returns the registry access the options of {@link REGISTRY_OPTIONS} describe:
 * a client over `io.fetch`, the docker config as the node keyring, Secrets
 * from YAML files looked up by namespace/name, plain HTTP for the
 * `--insecure-registry` hosts.
 */
export async function registryAccess(
  context: CommandContext,
  options: {
    defaultTimeoutMs: number;
    /** Hosts to talk plain HTTP to besides `--insecure-registry` (an ImageRepository's `spec.insecure`). */
    insecureHosts?: readonly string[];
    /** The `--secret-file` Secrets when the command has read them already (see {@link secretFileSecrets}). */
    secrets?: ReadonlyMap<string, PullSecret>;
  },
): Promise<RegistryAccess> {
  const { values } = context;
  const timeoutFlag = stringOption(values, "timeout");
  let timeoutMs = options.defaultTimeoutMs;
  if (timeoutFlag !== undefined) {
    timeoutMs = parseDurationFlag(timeoutFlag, "--timeout");
  }
  const registries: Record<string, RegistryHostOptions> = {};
  for (const host of stringOptions(values, "insecure-registry")) {
    registries[host] = { insecure: true, allowPrivateAddress: true };
  }
  for (const host of options.insecureHosts ?? []) {
    registries[host] = { ...registries[host], insecure: true };
  }
  const dockerConfig = stringOption(values, "docker-config");
  const keyring = dockerConfig === undefined ? undefined : await loadKeyring(dockerConfig, context);
  const secrets = options.secrets ?? (await secretFileSecrets(context));
  const getSecret: PullSecretGetter = async (ref) => secrets.get(`${ref.namespace}/${ref.name}`);
  const client = createRegistryClient({
    fetch: context.io.fetch,
    registries,
    timeoutMs,
    allowPrivateAddresses: values["allow-private-hosts"] === true,
    retries: 1,
    userAgent: "kubeimg-cli",
  });
  return {
    client,
    timeoutMs,
    getSecret,
    secrets: [...secrets.values()],
    hasSecret: (namespace, name) => secrets.has(`${namespace}/${name}`),
    ...(keyring ? { keyring } : {}),
  };
}
