/**
 * kube-image-keeper's operator configuration (the YAML file passed with
 * `--config`, default `/etc/kube-image-keeper/config.yaml`): built-in
 * defaults with the file merged on top, lists replacing rather than merging.
 * Only `routing.honorPrioritiesOnAlwaysImagePullPolicy`,
 * `routing.rewriteOnNeverImagePullPolicy`, `skipLabels` and
 * `skipAnnotations` change the alternatives list; `routing.activeCheck.timeout`
 * bounds each availability probe. The other keys are validated so a config
 * file can be checked as a whole.
 */

import { lazy } from "@kubeimg/core/internal";
import type * as Z from "zod/mini";
import * as z from "#zod";
import { safeParseEnglish } from "../objects/english-issues.js";
import {
  describeUnknownField,
  findUnknownFields,
  type UnknownField,
  type UnknownFieldPolicy,
} from "../objects/unknown-fields.js";
import { copyUserValue, MAX_OBJECT_DEPTH } from "../objects/user-object.js";
import { parseGoDuration } from "./duration.js";
import { RoutingError } from "./errors.js";
import { describeValue, formatFieldPath, valueAtPath } from "./field-path.js";
import { parseLabelSelector } from "./label-selector.js";

function buildKuikConfigSchemas() {
  const duration = /*#__PURE__*/ z.string().check(
    z.refine(
      (s) => {
        try {
          parseGoDuration(s);
          return true;
        } catch {
          return false;
        }
      },
      { message: "must be a Go duration such as 500ms, 1s or 3h" },
    ),
  );
  const selector = /*#__PURE__*/ z.string().check(
    z.refine(
      (s) => {
        try {
          parseLabelSelector(s);
          return true;
        } catch {
          return false;
        }
      },
      {
        message:
          "must be a Kubernetes label selector (k=v, k!=v, k, !k, k in (a,b), k notin (a,b))",
      },
    ),
  );
  /** Go `int`: a safe integer. */
  const intField = /*#__PURE__*/ z.number().check(z.int());
  const credentialSecret = z.object({
    name: z._default(z.string(), ""),
    namespace: z._default(z.string(), ""),
  });
  const registryMonitoring = z.object({
    method: z.optional(z.enum(["HEAD", "GET"])),
    interval: z.optional(duration),
    maxPerInterval: z.optional(intField),
    timeout: z.optional(duration),
    resolveDigest: z.optional(z.boolean()),
    fallbackCredentialSecret: z.optional(credentialSecret),
  });
  const platform = z.object({
    os: z.optional(z.string()),
    architecture: /*#__PURE__*/ z.string().check(z.minLength(1)),
    variant: z.optional(z.string()),
  });
  const legacyBuckets = z.object({
    bucketType: z._default(
      z.enum(["exponential", "exponentialRange", "custom", "disabled"]),
      "exponential",
    ),
    start: z._default(z.number(), 1),
    factor: z._default(z.number(), 1.94),
    count: z._default(intField, 12),
    min: z._default(z.number(), 1),
    max: z._default(z.number(), 1440),
    custom: z._default(z.array(z.number()), [1, 5, 10, 30, 60, 120, 180, 360, 720, 1440]),
  });

  const kuikConfigSchema = z.object({
    skipLabels: z._default(z.array(selector), []),
    skipAnnotations: z._default(z.array(selector), []),
    routing: z.prefault(
      z.object({
        activeCheck: z.prefault(
          z.object({
            timeout: z._default(duration, "1s"),
            resolveDigest: z._default(z.boolean(), false),
            staleMirrorCleanup: z.prefault(
              z.object({
                maxConcurrent: z._default(intField, 10),
                timeout: z._default(duration, "5s"),
              }),
              {},
            ),
          }),
          {},
        ),
        rewriteOnNeverImagePullPolicy: z._default(z.boolean(), false),
        honorPrioritiesOnAlwaysImagePullPolicy: z._default(z.boolean(), false),
      }),
      {},
    ),
    mirroring: z.prefault(
      z.object({
        platforms: z._default(/*#__PURE__*/ z.array(platform).check(z.minLength(1)), [
          { architecture: "amd64" },
        ]),
      }),
      {},
    ),
    monitoring: z.prefault(
      z.object({
        registries: z.prefault(
          z.object({
            default: z.prefault(
              z.extend(registryMonitoring, {
                method: z._default(z.enum(["HEAD", "GET"]), "HEAD"),
                interval: z._default(duration, "3h"),
                maxPerInterval: z._default(intField, 25),
                timeout: z._default(duration, "0s"),
              }),
              {},
            ),
            items: z.pipe(
              z._default(z.record(z.string(), registryMonitoring), {}),
              z.transform((items) => ({
                ...items,
                // koanf merges maps key by key: the built-in docker.io entry stays.
                "docker.io": { interval: "1h", maxPerInterval: 6, ...items["docker.io"] },
              })),
            ),
          }),
          {},
        ),
      }),
      {},
    ),
    metrics: z.prefault(
      z.object({
        imageLastMonitorAgeMinutes: z.prefault(
          z.object({
            bucketFactor: z._default(z.number(), 1.1),
            zeroThreshold: z._default(z.number(), 1.0),
            maxBucketNumber: z._default(
              /*#__PURE__*/ z.number().check(z.int(), z.nonnegative()),
              20,
            ),
            legacy: z.prefault(legacyBuckets, {}),
          }),
          {},
        ),
      }),
      {},
    ),
  });
  return {
    duration,
    selector,
    intField,
    credentialSecret,
    registryMonitoring,
    platform,
    legacyBuckets,
    kuikConfigSchema,
  };
}

const schemas = lazy.once(() => buildKuikConfigSchemas());
type Schemas = ReturnType<typeof buildKuikConfigSchemas>;

/**
 * The zod schema of kuik's operator configuration, defaults included.
 * `parseKuikConfig` is the usual way in (unknown keys refused, errors that
 * name the key and the value).
 */
export const kuikConfigSchema: Schemas["kuikConfigSchema"] = /*#__PURE__*/ lazy.lazySchema(
  () => schemas().kuikConfigSchema,
);

/** kuik's operator configuration, defaults applied. */
export type KuikConfig = Z.output<Schemas["kuikConfigSchema"]>;
/** What a configuration file may hold (every key optional). */
export type KuikConfigInput = Z.input<Schemas["kuikConfigSchema"]>;

/** Options of {@link parseKuikConfig} (and of `loadKuikConfig` in `@kubeimg/policy/routing/yaml`). */
export interface KuikConfigOptions {
  /**
   * What to do with keys kuik's configuration does not have (a typo such as
   * `skipLabel:`): `"strict"` (default) refuses the file with `UNKNOWN_FIELD`
   * naming the key and the closest known one; `"warn"` calls `onWarning`
   * for each; `"ignore"` drops them quietly, as kuik itself does.
   */
  readonly unknownFields?: UnknownFieldPolicy;
  /** Called with one line per unknown key under `unknownFields: "warn"`. */
  readonly onWarning?: (message: string) => void;
}

/**
 * Returns the validated configuration with kuik's defaults filled in. Throws
 * a {@link RoutingError} `INVALID_CONFIG` naming the key and the value (a bad
 * `skipLabels` selector stops kuik at start, and is refused here too), or
 * `UNKNOWN_FIELD` for a key kuik does not have (see
 * {@link KuikConfigOptions.unknownFields}).
 *
 * @example
 * ```ts
 * import { parseKuikConfig } from "@kubeimg/policy/routing";
 *
 * const config = parseKuikConfig({ routing: { honorPrioritiesOnAlwaysImagePullPolicy: true } });
 * config.routing.activeCheck.timeout // "1s"
 * ```
 */
export function parseKuikConfig(value: unknown = {}, options: KuikConfigOptions = {}): KuikConfig {
  const copied = copyUserValue(value === null || value === undefined ? {} : value, {
    dropNulls: false,
  });
  if (copied.tooDeep !== undefined) {
    const where = formatFieldPath(copied.tooDeep);
    throw new RoutingError(
      "INVALID_CONFIG",
      `config: ${where}: nested deeper than ${MAX_OBJECT_DEPTH} levels`,
      { path: where },
    );
  }
  const input = copied.value;
  const policy = options.unknownFields ?? "strict";
  if (policy !== "ignore") {
    const unknown: UnknownField[] = [
      ...copied.prototypeKeys.map((path) => ({ path })),
      ...findUnknownFields(kuikConfigSchema, input),
    ];
    for (const field of unknown) {
      const message = `config: ${describeUnknownField(field)}`;
      if (policy === "strict") {
        throw new RoutingError("UNKNOWN_FIELD", message, {
          path: formatFieldPath(field.path),
          value: valueAtPath(input, field.path),
          suggestion: field.suggestion,
        });
      }
      options.onWarning?.(message);
    }
  }
  const result = safeParseEnglish(kuikConfigSchema, input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []) as PropertyKey[];
  const where = formatFieldPath(path);
  const found = valueAtPath(input, path);
  throw new RoutingError(
    "INVALID_CONFIG",
    `config: ${where || "(root)"}: ${issue?.message ?? "invalid"} (found ${describeValue(found)})`,
    { path: where, value: found },
  );
}

/**
 * Returns `routing.activeCheck.timeout` in milliseconds: the time kuik gives
 * each availability probe, to pass as `probeTimeoutMs` to
 * `createAvailabilityGate`.
 *
 * @example
 * ```ts
 * import { activeCheckTimeoutMs, parseKuikConfig } from "@kubeimg/policy/routing";
 *
 * activeCheckTimeoutMs(parseKuikConfig({})) // 1000
 * ```
 */
export function activeCheckTimeoutMs(config: KuikConfig): number {
  return parseGoDuration(config.routing.activeCheck.timeout);
}
