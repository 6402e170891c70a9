import {
  createDockerKeyring,
  type DockerKeyring,
  isDockerConfigError,
  parseDockerConfigJson,
  pullSecretSchema,
} from "@kubeimg/core/keyring";
import type { AdapterCredentials, PullSecretGetter } from "@kubeimg/registry/adapters";
import {
  createRegistryClient,
  type RegistryClient,
  type RegistryHostOptions,
} from "@kubeimg/registry/client";
import { parseDurationFlag } from "../args/duration.js";
import { type CommandContext, stringOption, stringOptions } from "../commands/command.js";
import { CliError } from "../errors/cli-error.js";
import { readInputFile } from "../files/read-file.js";
import { yamlDocuments } from "../files/yaml-documents.js";

/** A registry client and where its adapters take credentials from. */
export interface RegistryAccess extends AdapterCredentials {
  readonly client: RegistryClient;
  /** The budget of one call in milliseconds. */
  readonly timeoutMs: number;
  /** Every Secret read from `--secret-file`, in file order. */
  readonly secrets: readonly unknown[];
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
    if (isDockerConfigError(error)) throw inFile(name, error);
    throw error;
  }
}

export async function loadSecrets(
  names: readonly string[],
  context: CommandContext,
): Promise<Map<string, unknown>> {
  const secrets = new Map<string, unknown>();
  for (const name of names) {
    const file = await readInputFile(name, context.io);
    const documents = yamlDocuments(file);
    documents.forEach((document, index) => {
      const parsed = pullSecretSchema.safeParse(document);
      const metadata = parsed.success ? parsed.data.metadata : undefined;
      if (!parsed.success || metadata?.name === undefined) {
        const issue = parsed.success ? undefined : parsed.error.issues[0];
        const where = issue === undefined ? "metadata.name" : issue.path.join(".") || "(root)";
        throw new CliError(
          "MISSING_OBJECT",
          `${name}: document ${index}: not a pull Secret: ${where}: ${issue?.message ?? "required"}`,
          name,
        );
      }
      secrets.set(`${metadata.namespace ?? "default"}/${metadata.name}`, document);
    });
  }
  return secrets;
}

/**
 * Returns the registry access the options of {@link REGISTRY_OPTIONS} describe:
 * a client over `io.fetch`, the docker config as the node keyring, Secrets
 * from YAML files looked up by namespace/name, plain HTTP for the
 * `--insecure-registry` hosts.
 *
 * @example
 * ```ts
 * const access = await registryAccess(context, { defaultTimeoutMs: 1000 });
 * ```
 */
export async function registryAccess(
  context: CommandContext,
  options: { defaultTimeoutMs: number },
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
  const dockerConfig = stringOption(values, "docker-config");
  const keyring = dockerConfig === undefined ? undefined : await loadKeyring(dockerConfig, context);
  const secrets = await loadSecrets(stringOptions(values, "secret-file"), context);
  const getSecret: PullSecretGetter = async (ref) => secrets.get(`${ref.namespace}/${ref.name}`);
  const client = createRegistryClient({
    fetch: context.io.fetch,
    registries,
    timeoutMs,
    retries: 1,
    userAgent: "kubeimg-cli",
  });
  return {
    client,
    timeoutMs,
    getSecret,
    secrets: [...secrets.values()],
    ...(keyring ? { keyring } : {}),
  };
}
