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
import * as z from "zod";
import {
  describeUnknownField,
  findUnknownFields,
  type UnknownField,
  type UnknownFieldPolicy,
} from "../objects/unknown-fields.js";
import { copyUserValue, MAX_OBJECT_DEPTH } from "../objects/user-object.js";
import { describeYamlProblem, readYamlDocuments } from "../objects/yaml-documents.js";
import { parseGoDuration } from "./duration.js";
import { RoutingError } from "./errors.js";
import { describeValue, formatFieldPath, valueAtPath } from "./field-path.js";
import { parseLabelSelector } from "./label-selector.js";

let schema: ReturnType<typeof buildConfigSchema> | undefined;

function buildConfigSchema() {
  const duration = z.string().refine(
    (s) => {
      try {
        parseGoDuration(s);
        return true;
      } catch {
        return false;
      }
    },
    { message: "must be a Go duration such as 500ms, 1s or 3h" },
  );
  const selector = z.string().refine(
    (s) => {
      try {
        parseLabelSelector(s);
        return true;
      } catch {
        return false;
      }
    },
    {
      message: "must be a Kubernetes label selector (k=v, k!=v, k, !k, k in (a,b), k notin (a,b))",
    },
  );
  const credentialSecret = z.object({
    name: z.string().default(""),
    namespace: z.string().default(""),
  });
  const registryMonitoring = z.object({
    method: z.enum(["HEAD", "GET"]).optional(),
    interval: duration.optional(),
    maxPerInterval: z.number().int().optional(),
    timeout: duration.optional(),
    resolveDigest: z.boolean().optional(),
    fallbackCredentialSecret: credentialSecret.optional(),
  });
  const platform = z.object({
    os: z.string().optional(),
    architecture: z.string().min(1),
    variant: z.string().optional(),
  });
  const legacyBuckets = z.object({
    bucketType: z
      .enum(["exponential", "exponentialRange", "custom", "disabled"])
      .default("exponential"),
    start: z.number().default(1),
    factor: z.number().default(1.94),
    count: z.number().int().default(12),
    min: z.number().default(1),
    max: z.number().default(1440),
    custom: z.array(z.number()).default([1, 5, 10, 30, 60, 120, 180, 360, 720, 1440]),
  });

  return z.object({
    skipLabels: z.array(selector).default([]),
    skipAnnotations: z.array(selector).default([]),
    routing: z
      .object({
        activeCheck: z
          .object({
            timeout: duration.default("1s"),
            resolveDigest: z.boolean().default(false),
            staleMirrorCleanup: z
              .object({
                maxConcurrent: z.number().int().default(10),
                timeout: duration.default("5s"),
              })
              .prefault({}),
          })
          .prefault({}),
        rewriteOnNeverImagePullPolicy: z.boolean().default(false),
        honorPrioritiesOnAlwaysImagePullPolicy: z.boolean().default(false),
      })
      .prefault({}),
    mirroring: z
      .object({
        platforms: z
          .array(platform)
          .min(1)
          .default([{ architecture: "amd64" }]),
      })
      .prefault({}),
    monitoring: z
      .object({
        registries: z
          .object({
            default: registryMonitoring
              .extend({
                method: z.enum(["HEAD", "GET"]).default("HEAD"),
                interval: duration.default("3h"),
                maxPerInterval: z.number().int().default(25),
                timeout: duration.default("0s"),
              })
              .prefault({}),
            items: z
              .record(z.string(), registryMonitoring)
              .default({})
              .transform((items) => ({
                ...items,
                // koanf merges maps key by key: the built-in docker.io entry stays.
                "docker.io": { interval: "1h", maxPerInterval: 6, ...items["docker.io"] },
              })),
          })
          .prefault({}),
      })
      .prefault({}),
    metrics: z
      .object({
        imageLastMonitorAgeMinutes: z
          .object({
            bucketFactor: z.number().default(1.1),
            zeroThreshold: z.number().default(1.0),
            maxBucketNumber: z.number().int().nonnegative().default(20),
            legacy: legacyBuckets.prefault({}),
          })
          .prefault({}),
      })
      .prefault({}),
  });
}

/**
 * Returns the zod schema of kuik's operator configuration, defaults included.
 *
 * @example
 * ```ts
 * kuikConfigSchema().parse({}).routing.activeCheck.timeout // "1s"
 * ```
 */
export function kuikConfigSchema(): ReturnType<typeof buildConfigSchema> {
  schema ??= buildConfigSchema();
  return schema;
}

/** kuik's operator configuration, defaults applied. */
export type KuikConfig = z.output<ReturnType<typeof buildConfigSchema>>;
/** What a configuration file may hold (every key optional). */
export type KuikConfigInput = z.input<ReturnType<typeof buildConfigSchema>>;

/** Options of {@link parseKuikConfig} and {@link loadKuikConfig}. */
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
  /** Most YAML nodes once aliases are expanded (default 1,000,000); more is `YAML_TOO_LARGE`. */
  readonly maxExpandedNodes?: number;
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
      ...findUnknownFields(kuikConfigSchema(), input),
    ];
    for (const field of unknown) {
      const message = `config: ${describeUnknownField(field)}`;
      if (policy === "strict") {
        throw new RoutingError("UNKNOWN_FIELD", message, {
          path: formatFieldPath(field.path),
          value: field.suggestion,
        });
      }
      options.onWarning?.(message);
    }
  }
  const result = kuikConfigSchema().safeParse(input);
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
 * Returns the configuration read from YAML text; an empty text gives the
 * defaults, as a missing file does for kuik. Throws `INVALID_YAML`,
 * `YAML_TOO_LARGE`, `UNKNOWN_FIELD` or `INVALID_CONFIG`.
 *
 * @example
 * ```ts
 * loadKuikConfig("routing:\n  activeCheck:\n    timeout: 2s\n").routing.activeCheck.timeout // "2s"
 * ```
 */
export function loadKuikConfig(text: string, options: KuikConfigOptions = {}): KuikConfig {
  const read = readYamlDocuments(text, {
    ...(options.maxExpandedNodes === undefined
      ? {}
      : { maxExpandedNodes: options.maxExpandedNodes }),
  });
  if (!read.ok) {
    const { problem } = read;
    throw new RoutingError(
      problem.kind === "too-large" ? "YAML_TOO_LARGE" : "INVALID_YAML",
      `config: ${problem.kind === "syntax" ? problem.message : describeYamlProblem(problem)}`,
      { input: text, document: problem.document },
    );
  }
  if (read.values.length > 1) {
    throw new RoutingError(
      "INVALID_YAML",
      `config: expected one YAML document, found ${read.values.length}`,
      { input: text },
    );
  }
  return parseKuikConfig(read.values[0], options);
}

/**
 * Returns `routing.activeCheck.timeout` in milliseconds: the time kuik gives
 * each availability probe, to pass as `probeTimeoutMs` to
 * `createAvailabilityGate`.
 *
 * @example
 * ```ts
 * activeCheckTimeoutMs(parseKuikConfig({})) // 1000
 * ```
 */
export function activeCheckTimeoutMs(config: KuikConfig): number {
  return parseGoDuration(config.routing.activeCheck.timeout);
}
