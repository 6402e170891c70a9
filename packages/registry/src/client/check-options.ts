/**
 * Checking the options callers give the client, so that a bad value is an
 * `INVALID_OPTION` error naming the option and the value, never a
 * `RangeError` from a timer deep inside a call, nor a timer that fires at
 * once (Node runs any delay above 2^31 − 1 ms after 1 ms, with a warning).
 * Unknown client options are refused rather than ignored: a misspelt
 * `allowPrivateAdresses` must not silently keep its default.
 */
import { RegistryError } from "../errors/index.js";
import {
  DEFAULT_REGISTRY_LIMITS,
  MAX_TIMER_MS,
  type RegistryCallOptions,
  type RegistryClientOptions,
  type RegistryLimits,
} from "./options.js";

const CLIENT_KEYS: ReadonlySet<string> = /*#__PURE__*/ new Set([
  "fetch",
  "credentials",
  "registries",
  "allowedRegistries",
  "allowPrivateAddresses",
  "realmAllowlist",
  "foreignRealm",
  "timeoutMs",
  "retries",
  "retryBaseDelayMs",
  "limits",
  "now",
  "userAgent",
  "onRateLimit",
  "onWarning",
  "resolveHost",
]);

const HOST_KEYS: ReadonlySet<string> = /*#__PURE__*/ new Set([
  "insecure",
  "allowPrivateAddress",
  "realmAllowlist",
  "disableHead",
]);

/** The most retries a call may make; more would only hide a failing registry. */
const MAX_RETRIES = 100;

function describe(value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value);
  }
  if (typeof value === "string") return JSON.stringify(value.slice(0, 100));
  return typeof value;
}

function invalid(option: string, value: unknown, rule: string): never {
  throw new RegistryError("INVALID_OPTION", `option ${option}: ${rule} (got ${describe(value)})`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function checkKeys(option: string, value: Record<string, unknown>, known: ReadonlySet<string>) {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) invalid(`${option}${key}`, value[key], "unknown option");
  }
}

function checkFunction(option: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function")
    invalid(option, value, "must be a function");
}

function checkBoolean(option: string, value: unknown): void {
  if (value !== undefined && typeof value !== "boolean")
    invalid(option, value, "must be a boolean");
}

function checkStrings(option: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    invalid(option, value, "must be a list of strings");
  }
}

function checkInteger(option: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    invalid(option, value, `must be an integer from ${min} to ${max}`);
  }
}

/**
 * Checks a time budget in ms: `Infinity` (no deadline) or a number from 0
 * to 2^31 − 1; returns it.
 */
export function checkTimeout(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== "number" ||
    Number.isNaN(value) ||
    value < 0 ||
    (value > MAX_TIMER_MS && value !== Number.POSITIVE_INFINITY)
  ) {
    invalid(option, value, `must be a number of ms from 0 to ${MAX_TIMER_MS}, or Infinity`);
  }
  return value;
}

/** Checks the options of `createRegistryClient`; returns them with the limits filled in. */
export function checkClientOptions(options: unknown): {
  options: RegistryClientOptions;
  limits: RegistryLimits;
} {
  if (options === undefined) return { options: {}, limits: DEFAULT_REGISTRY_LIMITS };
  if (!isRecord(options)) invalid("options", options, "must be an object");
  checkKeys("", options, CLIENT_KEYS);
  for (const name of ["fetch", "credentials", "now", "onRateLimit", "onWarning", "resolveHost"]) {
    checkFunction(name, options[name]);
  }
  checkBoolean("allowPrivateAddresses", options.allowPrivateAddresses);
  checkStrings("allowedRegistries", options.allowedRegistries);
  checkStrings("realmAllowlist", options.realmAllowlist);
  if (
    options.foreignRealm !== undefined &&
    options.foreignRealm !== "fail" &&
    options.foreignRealm !== "anonymous"
  ) {
    invalid("foreignRealm", options.foreignRealm, 'must be "fail" or "anonymous"');
  }
  checkTimeout("timeoutMs", options.timeoutMs);
  checkInteger("retries", options.retries, 0, MAX_RETRIES);
  checkInteger("retryBaseDelayMs", options.retryBaseDelayMs, 0, MAX_TIMER_MS);
  if (
    options.userAgent !== undefined &&
    (typeof options.userAgent !== "string" || !/^[\x20-\x7e]+$/.test(options.userAgent))
  ) {
    invalid("userAgent", options.userAgent, "must be a non-empty header value of visible ASCII");
  }
  if (options.registries !== undefined) {
    if (!isRecord(options.registries)) {
      invalid("registries", options.registries, "must be an object keyed by registry host");
    }
    for (const [host, settings] of Object.entries(options.registries)) {
      const option = `registries[${JSON.stringify(host)}]`;
      if (!isRecord(settings)) invalid(option, settings, "must be an object");
      checkKeys(`${option}.`, settings, HOST_KEYS);
      checkBoolean(`${option}.insecure`, settings.insecure);
      checkBoolean(`${option}.allowPrivateAddress`, settings.allowPrivateAddress);
      checkBoolean(`${option}.disableHead`, settings.disableHead);
      checkStrings(`${option}.realmAllowlist`, settings.realmAllowlist);
    }
  }
  if (options.limits !== undefined && !isRecord(options.limits)) {
    invalid("limits", options.limits, "must be an object");
  }
  const given = (options.limits ?? {}) as Record<string, unknown>;
  checkKeys("limits.", given, new Set(Object.keys(DEFAULT_REGISTRY_LIMITS)));
  for (const [name, value] of Object.entries(given)) {
    checkInteger(`limits.${name}`, value, name === "maxRedirects" ? 0 : 1, Number.MAX_SAFE_INTEGER);
  }
  const limits = { ...DEFAULT_REGISTRY_LIMITS };
  for (const [name, value] of Object.entries(given)) {
    if (value !== undefined) (limits as Record<string, unknown>)[name] = value;
  }
  return { options: options as RegistryClientOptions, limits };
}

/** Checks the options of one call (the fields the client reads; others belong to the caller). */
export function checkCallOptions(options: unknown): RegistryCallOptions {
  if (options === undefined) return {};
  if (!isRecord(options)) invalid("call options", options, "must be an object");
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    invalid("signal", options.signal, "must be an AbortSignal");
  }
  checkTimeout("timeoutMs", options.timeoutMs);
  checkFunction("credentials", options.credentials);
  return options as RegistryCallOptions;
}
