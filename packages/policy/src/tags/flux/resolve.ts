/**
 * `resolveImagePolicy`: one reconciliation of an `ImagePolicy`, as Flux's
 * controller runs it, with the registry behind two small interfaces that
 * `@kubeimg/registry` implements (and `memory.ts` implements in memory):
 * list the repository's tags, select, reflect the digest, compute the next
 * status.
 */
import type { DigestResolver, TagLister } from "@kubeimg/core/ports";
import { type NamedReference, parseNormalizedNamed, withTag } from "@kubeimg/core/reference";
import { parseIntervalMillis } from "./duration.js";
import { isTagPolicyError, TagPolicyError } from "./errors.js";
import { excludeTags } from "./exclusion.js";
import type { ImagePolicySpec, ImagePolicyStatus } from "./image-policy-schema.js";
import { type CompiledTagPolicy, checkSelectionPolicy, compileTagPolicy } from "./select.js";
import {
  composeReadyMessage,
  conditionReasons,
  nextConditions,
  nextImageRefs,
  planDigestReflection,
  type ReconcileOutcome,
} from "./status.js";

export type { DigestResolver, TagLister } from "@kubeimg/core/ports";

/** What {@link resolveImagePolicy} needs. */
export interface ResolveImagePolicyOptions {
  /** The policy's spec, validated (see `parseImagePolicySpec`). */
  readonly spec: ImagePolicySpec;
  /** The image of the referenced `ImageRepository` (`spec.image`), such as `ghcr.io/org/app`. */
  readonly image: string;
  /**
   * The referenced `ImageRepository`'s `spec.exclusionList`: listed tags
   * matching any of these Go patterns are dropped before selection, as
   * Flux's scan drops them. Absent or empty means Flux's default,
   * `["^.*\\.sig$"]`.
   */
  readonly exclusionList?: readonly string[] | undefined;
  /** The policy's current status, if any. */
  readonly status?: ImagePolicyStatus | undefined;
  readonly tagLister: TagLister;
  /** Needed unless `digestReflectionPolicy` is `Never`. */
  readonly digestResolver?: DigestResolver | undefined;
  /** A policy compiled earlier from the same spec, to skip compiling it again. */
  readonly compiled?: CompiledTagPolicy | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The result of one reconciliation. */
export interface ImagePolicyResolution {
  /** The selected tag, when the reconciliation succeeded. */
  readonly tag: string | undefined;
  /** The repository's tags after `exclusionList`, once they were listed. */
  readonly tags: readonly string[] | undefined;
  /** The next status: refs and conditions. */
  readonly status: ImagePolicyStatus;
  /** When to reconcile again: `spec.interval` with `Always`, 30 s while there are no tags. */
  readonly requeueAfterMillis: number | undefined;
  /** What went wrong, when something did. */
  readonly error: Error | undefined;
}

/** Flux's interval when `digestReflectionPolicy` is `Always` and `interval` is zero. */
const defaultIntervalMillis = 600_000;

/** How long Flux waits before retrying a repository without tags. */
const noTagsRetryMillis = 30_000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Returns the outcome of one reconciliation of an `ImagePolicy`: lists the
 * repository's tags, selects the latest as Flux does, reflects its digest
 * according to `digestReflectionPolicy`, and computes the next status
 * (`latestRef`, `observedPreviousRef`, Ready/Reconciling/Stalled conditions)
 * with Flux's reasons and messages.
 *
 * Failures are part of the result (`error`, and the status says what Flux
 * would say); only an abort through `signal` rejects, and a `spec` that is
 * no ImagePolicy spec (a whole ImagePolicy: `INVALID_POLICY`).
 *
 * @example
 * ```ts
 * import { MemoryRegistry, parseImagePolicy, resolveImagePolicy } from "@kubeimg/policy/tags";
 *
 * const registry = new MemoryRegistry({ tags: { "ghcr.io/org/app": ["1.0.0", "1.1.0"] } });
 * const policy = parseImagePolicy({
 *   apiVersion: "image.toolkit.fluxcd.io/v1",
 *   kind: "ImagePolicy",
 *   metadata: { name: "app", namespace: "flux-system" },
 *   spec: { imageRepositoryRef: { name: "app" }, policy: { semver: { range: "1.x" } } },
 * });
 * const r = await resolveImagePolicy({
 *   spec: policy.spec,
 *   image: "ghcr.io/org/app",
 *   tagLister: registry,
 * });
 * r.tag; // "1.1.0"
 * r.status.conditions?.[0]?.message; // "Latest image tag for ghcr.io/org/app resolved to 1.1.0"
 * ```
 */
export async function resolveImagePolicy(
  options: ResolveImagePolicyOptions,
): Promise<ImagePolicyResolution> {
  const { spec, image, signal } = options;
  checkSelectionPolicy(spec);
  const previous: ImagePolicyStatus = options.status ?? {};
  const finish = (
    outcome: ReconcileOutcome,
    extra: { tag?: string; status?: Partial<ImagePolicyStatus>; requeue?: number; error?: Error },
  ): ImagePolicyResolution => ({
    tag: extra.tag,
    tags,
    status: {
      ...previous,
      ...extra.status,
      conditions: nextConditions(previous.conditions, outcome),
    },
    requeueAfterMillis: extra.requeue,
    error: extra.error,
  });
  const reflection = spec.digestReflectionPolicy ?? "Never";
  let tags: string[] | undefined;

  if (reflection === "Always" && spec.interval === undefined) {
    const message = "spec.interval must be set when spec.digestReflectionPolicy is set to 'Always'";
    return finish(
      { kind: "stalled", reason: conditionReasons.intervalNotConfigured, message },
      { error: new TagPolicyError("INVALID_IMAGE_POLICY", message) },
    );
  }
  let repository: NamedReference;
  try {
    repository = parseNormalizedNamed(image);
  } catch (error) {
    return finish(
      { kind: "stalled", reason: conditionReasons.imageURLInvalid, message: messageOf(error) },
      { error: error as Error },
    );
  }
  let compiled: CompiledTagPolicy;
  try {
    compiled = options.compiled ?? compileTagPolicy(spec);
  } catch (error) {
    if (!isTagPolicyError(error)) throw error;
    return finish(
      { kind: "stalled", reason: conditionReasons.invalidPolicy, message: error.message },
      { error },
    );
  }

  try {
    const listed = await options.tagLister.listTags(
      repository,
      signal === undefined ? {} : { signal },
    );
    // The exclusion is the scan's: a bad pattern fails the listing, not the policy.
    tags = excludeTags(listed, options.exclusionList);
  } catch (error) {
    if (signal?.aborted) throw error;
    const message = `failed to list tags: ${messageOf(error)}`;
    return finish(
      { kind: "not-ready", reason: conditionReasons.failure, message },
      { error: new Error(message, { cause: error }) },
    );
  }
  const listedTags = tags;

  let tag: string;
  try {
    tag = compiled.select(listedTags);
  } catch (error) {
    if (!isTagPolicyError(error)) throw error;
    if (error.code === "INVALID_PATTERN" || error.code === "INVALID_POLICY") {
      return finish(
        { kind: "stalled", reason: conditionReasons.invalidPolicy, message: error.message },
        { error },
      );
    }
    if (error.code === "NO_TAGS") {
      const message = `retrying in ${noTagsRetryMillis / 1000}s error: ${error.message}`;
      return finish(
        { kind: "not-ready", reason: conditionReasons.dependencyNotReady, message },
        { error, requeue: noTagsRetryMillis },
      );
    }
    return finish(
      { kind: "not-ready", reason: conditionReasons.failure, message: error.message },
      { error },
    );
  }

  const plan = planDigestReflection(reflection, previous.latestRef, image, tag);
  let digest = plan.digest;
  if (plan.fetch) {
    const resolver = options.digestResolver;
    if (resolver === undefined) {
      throw new TypeError(
        `resolveImagePolicy: digestReflectionPolicy ${reflection} needs a digestResolver`,
      );
    }
    try {
      digest = await resolver.resolveDigest(
        withTag(repository, tag),
        signal === undefined ? {} : { signal },
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      const message = `failed fetching digest of ${image}:${tag}: ${messageOf(error)}`;
      return finish({ kind: "error", message }, { error: new Error(message, { cause: error }) });
    }
  }
  const refs = nextImageRefs(previous, {
    name: image,
    tag,
    ...(digest === undefined || digest === "" ? {} : { digest }),
  });
  const status: Partial<ImagePolicyStatus> = { latestRef: refs.latestRef };
  if (refs.observedPreviousRef !== undefined) status.observedPreviousRef = refs.observedPreviousRef;
  // Flux `GetInterval`: with Always, the interval, or 10 minutes when it is zero.
  const interval =
    reflection === "Always"
      ? parseIntervalMillis(spec.interval ?? "") || defaultIntervalMillis
      : undefined;
  return finish(
    { kind: "success", message: composeReadyMessage(refs.latestRef, refs.observedPreviousRef) },
    { tag, status, ...(interval === undefined ? {} : { requeue: interval }) },
  );
}
