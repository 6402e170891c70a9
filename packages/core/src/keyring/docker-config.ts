/**
 * Reading docker credential configs exactly as the kubelet does
 * (`pkg/credentialprovider/config.go`, Kubernetes v1.35): `config.json` /
 * `.dockerconfigjson` (`{"auths": {...}}`) and the legacy `.dockercfg`
 * (the registry map itself). Go's `encoding/json` rules apply: member names
 * match case-insensitively, a repeated member keeps its last value,
 * unknown members are ignored, `null` leaves a field empty.
 */
import * as base64 from "../internal/base64.js";
import * as credentialprovider from "../internal/credentialprovider.js";
import * as json from "../internal/json.js";
import * as strings from "../internal/strings.js";
import * as utf8 from "../internal/utf8.js";
import { DockerConfigError } from "./errors.js";

/** One registry's credentials from a docker config.
 *
 * @inline
 */
export interface DockerConfigEntry {
  readonly username: string;
  readonly password: string;
  readonly email: string;
  /** The kubelet's credential hash of username, password and email (lowercase hex SHA-256). */
  readonly credentialHash: string;
}

/** One `auths` member: the registry key as written and its credentials.
 *
 * @inline
 */
export interface DockerConfigAuth {
  readonly key: string;
  readonly entry: DockerConfigEntry;
}

/** A parsed docker config: its `auths` members in document order (a repeated key appears once, with its last value). */
export interface DockerConfig {
  readonly auths: readonly DockerConfigAuth[];
}

/** What the parse functions accept: JSON text, or a value already parsed from JSON. */
export type DockerConfigInput = string | Readonly<Record<string, unknown>>;

type Context = { readonly secret?: string };

function invalid(message: string, path: string, context: Context, cause?: unknown): never {
  const where = context.secret ? ` (secret ${context.secret})` : "";
  throw new DockerConfigError("INVALID_DOCKER_CONFIG", `${message}${where}`, {
    path,
    ...(context.secret ? { secret: context.secret } : {}),
    cause,
  });
}

function parseText(input: DockerConfigInput, context: Context): json.Value {
  const text = typeof input === "string" ? input : JSON.stringify(input);
  try {
    return json.Decode(utf8.toWellFormed(text), json.members);
  } catch (error) {
    if (error instanceof json.JsonSyntaxError) {
      return invalid(`docker config is not valid JSON: ${error.message}`, "", context, error);
    }
    throw error;
  }
}

const memberPath = (parent: string, key: string): string => `${parent}[${JSON.stringify(key)}]`;

/** Go's `decodeDockerConfigFieldAuth`: base64 of `username:password` as byte strings. */
function decodeAuth(auth: string, path: string, context: Context): [string, string] {
  const decoded = base64.DecodeString(auth, { padded: strings.TrimSpace(auth).endsWith("=") });
  if (decoded === undefined) {
    return invalid(`${path} is not valid base64 (value not shown)`, path, context);
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) {
    return invalid(
      `${path} must be base64 of "username:password" (value not shown)`,
      path,
      context,
    );
  }
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

const entryFields = ["USERNAME", "PASSWORD", "EMAIL", "AUTH"] as const;

/** Go's `DockerConfigEntry.UnmarshalJSON`. */
function readEntry(value: json.Value, path: string, context: Context): DockerConfigEntry {
  const fields: Record<(typeof entryFields)[number], string> = {
    USERNAME: "",
    PASSWORD: "",
    EMAIL: "",
    AUTH: "",
  };
  if (value.kind !== "null") {
    if (value.kind !== "object") {
      return invalid(`${path} must be an object, not ${value.kind}`, path, context);
    }
    for (const [name, member] of value.members) {
      const field = entryFields.find((f) => f === json.FoldName(name));
      if (!field) continue;
      if (member.kind === "null") continue;
      if (member.kind !== "string") {
        const fieldPath = `${path}.${name}`;
        return invalid(`${fieldPath} must be a string, not ${member.kind}`, fieldPath, context);
      }
      fields[field] = member.value;
    }
  }
  const email = utf8.toByteString(fields.EMAIL);
  let username = utf8.toByteString(fields.USERNAME);
  let password = utf8.toByteString(fields.PASSWORD);
  if (fields.AUTH.length > 0)
    [username, password] = decodeAuth(fields.AUTH, `${path}.auth`, context);
  return {
    username: utf8.fromByteString(username),
    password: utf8.fromByteString(password),
    email: utf8.fromByteString(email),
    credentialHash: credentialprovider.hashAuthConfig({
      username: utf8.fromByteStringEscaped(username),
      password: utf8.fromByteStringEscaped(password),
      email: utf8.fromByteStringEscaped(email),
    }),
  };
}

/** Decodes a `map[string]DockerConfigEntry` into `into` (Go reuses an existing map). */
function readAuths(
  value: json.Value,
  into: Map<string, DockerConfigEntry>,
  path: string,
  context: Context,
): void {
  if (value.kind !== "object") {
    invalid(`${path || "docker config"} must be an object, not ${value.kind}`, path, context);
  }
  for (const [key, member] of value.members) {
    into.set(key, readEntry(member, memberPath(path, key), context));
  }
}

function toConfig(map: ReadonlyMap<string, DockerConfigEntry> | undefined): DockerConfig {
  return { auths: [...(map ?? new Map()).entries()].map(([key, entry]) => ({ key, entry })) };
}

function readHttpHeaders(value: json.Value, context: Context): void {
  if (value.kind === "null") return;
  if (value.kind !== "object") {
    invalid(`HttpHeaders must be an object, not ${value.kind}`, "HttpHeaders", context);
  }
  for (const [name, member] of value.members) {
    if (member.kind !== "string" && member.kind !== "null") {
      const path = memberPath("HttpHeaders", name);
      invalid(`${path} must be a string, not ${member.kind}`, path, context);
    }
  }
}

/** @internal Shared by the Secret reader, which knows where the config came from. */
export function parseDockerConfigJsonWith(
  input: DockerConfigInput,
  context: Context,
): DockerConfig {
  const root = parseText(input, context);
  if (root.kind === "null") return toConfig(undefined);
  if (root.kind !== "object") {
    return invalid(`docker config must be a JSON object, not ${root.kind}`, "", context);
  }
  let auths: Map<string, DockerConfigEntry> | undefined;
  for (const [name, member] of root.members) {
    const folded = json.FoldName(name);
    if (folded === "AUTHS") {
      if (member.kind === "null") {
        auths = undefined;
        continue;
      }
      auths ??= new Map();
      readAuths(member, auths, "auths", context);
    } else if (folded === "HTTPHEADERS") {
      readHttpHeaders(member, context);
    }
  }
  return toConfig(auths);
}

/** @internal Shared by the Secret reader, which knows where the config came from. */
export function parseDockercfgWith(input: DockerConfigInput, context: Context): DockerConfig {
  const root = parseText(input, context);
  if (root.kind === "null") return toConfig(undefined);
  const auths = new Map<string, DockerConfigEntry>();
  readAuths(root, auths, "", context);
  return toConfig(auths);
}

/**
 * Returns the credentials of a docker `config.json` (or a Secret's
 * `.dockerconfigjson`), read as the kubelet reads them: only `auths`
 * counts; an entry's non-empty `auth` (base64 of `user:password`, padded
 * or not) replaces its `username` and `password`.
 *
 * @throws {DockerConfigError} `INVALID_DOCKER_CONFIG` for invalid JSON, a
 *   field of the wrong type, or an `auth` that does not decode.
 * @example
 * ```ts
 * import { parseDockerConfigJson } from "@kubeimg/core/keyring";
 *
 * const config = parseDockerConfigJson('{"auths":{"https://index.docker.io/v1/":{"auth":"dXNlcjpwYXNz"}}}');
 * config.auths[0]; // { key: "https://index.docker.io/v1/", entry: { username: "user", password: "pass", … } }
 * ```
 */
export function parseDockerConfigJson(input: DockerConfigInput): DockerConfig {
  return parseDockerConfigJsonWith(input, {});
}

/**
 * Returns the credentials of a legacy `.dockercfg` document, whose top
 * level is the registry map itself (a member named `auths` is just a
 * registry called "auths" there).
 *
 * @throws {DockerConfigError} `INVALID_DOCKER_CONFIG` as {@link parseDockerConfigJson}.
 * @example
 * ```ts
 * import { parseDockercfg } from "@kubeimg/core/keyring";
 *
 * parseDockercfg('{"quay.io":{"username":"u","password":"p"}}').auths[0]?.key; // "quay.io"
 * ```
 */
export function parseDockercfg(input: DockerConfigInput): DockerConfig {
  return parseDockercfgWith(input, {});
}
