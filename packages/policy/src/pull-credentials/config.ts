/**
 * The two KubeletConfiguration fields of KEP-2535 as a zod schema, with the
 * kubelet's defaulting and validation.
 */

import { lazy } from "@kubeimg/core/internal";
import * as z from "#zod";
import { safeParseEnglish } from "../objects/english-issues.js";
import { allowlistField } from "./allowlist.js";
import { isPullCredentialsConfigError, PullCredentialsConfigError } from "./errors.js";
import { policyField, type VerificationPolicyName, validateVerificationConfig } from "./policy.js";

/**
 * The validated, defaulted form of the two fields.
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   type KubeletPullCredentialsConfig,
 *   parseKubeletPullCredentialsConfig,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * // A KubeletConfiguration as read from its YAML file; other fields pass through.
 * const kubeletConfig: unknown = {
 *   kind: "KubeletConfiguration",
 *   imagePullCredentialsVerificationPolicy: "NeverVerifyAllowlistedImages",
 *   preloadedImagesVerificationAllowlist: ["registry.example.com/base/*"],
 * };
 * const c: KubeletPullCredentialsConfig = parseKubeletPullCredentialsConfig(kubeletConfig);
 * const policy = createVerificationPolicy({
 *   policy: c.imagePullCredentialsVerificationPolicy,
 *   allowlist: c.preloadedImagesVerificationAllowlist,
 * });
 * console.log(policy.requiresVerification("registry.example.com/base/debian:12", false)); // false
 * ```
 */
export interface KubeletPullCredentialsConfig {
  readonly imagePullCredentialsVerificationPolicy: VerificationPolicyName;
  readonly preloadedImagesVerificationAllowlist: readonly string[];
}

/**
 * The shape of the two fields as they appear in a KubeletConfiguration
 * (`kubelet.config.k8s.io/v1beta1`); other fields pass through untouched.
 */
function buildConfigSchemas() {
  const shape = z.looseObject({
    imagePullCredentialsVerificationPolicy: z.optional(z.string()),
    preloadedImagesVerificationAllowlist: z.optional(z.nullable(z.array(z.string()))),
  });

  const kubeletPullCredentialsConfigSchema = z.pipe(
    shape,
    z.transform((input, ctx): KubeletPullCredentialsConfig => {
      try {
        const { policy, allowlist } = validateVerificationConfig({
          policy: input.imagePullCredentialsVerificationPolicy,
          allowlist: input.preloadedImagesVerificationAllowlist ?? [],
        });
        return {
          imagePullCredentialsVerificationPolicy: policy,
          preloadedImagesVerificationAllowlist: allowlist,
        };
      } catch (error) {
        if (!isPullCredentialsConfigError(error)) throw error;
        ctx.issues.push({
          code: "custom",
          input,
          message: error.message,
          path: error.index === undefined ? [error.field] : [error.field, error.index],
          params: { code: error.code, value: error.value },
        });
        return z.NEVER;
      }
    }),
  );
  return { shape, kubeletPullCredentialsConfigSchema };
}

const schemas = lazy.once(() => buildConfigSchemas());
type Schemas = ReturnType<typeof buildConfigSchemas>;

/**
 * Zod schema of the two KubeletConfiguration fields with the kubelet's rules
 * (feature gate `KubeletEnsureSecretPulledImages` on, as in v1.35): the policy
 * defaults to `NeverVerifyPreloadedImages`; an unknown policy, an allowlist
 * with another policy, or an invalid pattern is an issue whose `params.code`
 * is the {@link PullCredentialsConfigError} code and whose `path` names the
 * field (and the pattern's index).
 */
export const kubeletPullCredentialsConfigSchema: Schemas["kubeletPullCredentialsConfigSchema"] =
  /*#__PURE__*/ lazy.lazySchema(() => schemas().kubeletPullCredentialsConfigSchema);

/**
 * Validates the two fields as the kubelet does, including the feature gate:
 * with `featureGate: false` setting either field is an error
 * (`REQUIRES_FEATURE_GATE`). Returns the defaulted values; throws
 * {@link PullCredentialsConfigError}.
 *
 * @example
 * ```ts
 * import { parseKubeletPullCredentialsConfig } from "@kubeimg/policy/pull-credentials";
 *
 * parseKubeletPullCredentialsConfig({ imagePullCredentialsVerificationPolicy: "AlwaysVerify" });
 * // { imagePullCredentialsVerificationPolicy: "AlwaysVerify", preloadedImagesVerificationAllowlist: [] }
 * ```
 */
export function parseKubeletPullCredentialsConfig(
  input: unknown,
  options: { featureGate?: boolean } = {},
): KubeletPullCredentialsConfig {
  const parsed = safeParseEnglish(schemas().shape, input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? "");
    throw new PullCredentialsConfigError(
      "INVALID_CONFIG",
      `invalid configuration: ${field || "config"}: ${issue?.message ?? "invalid"}`,
      { field, value: input },
    );
  }
  const policy = parsed.data.imagePullCredentialsVerificationPolicy;
  const allowlist = parsed.data.preloadedImagesVerificationAllowlist ?? [];
  if (options.featureGate === false) {
    if (policy !== undefined && policy.length > 0) {
      throw new PullCredentialsConfigError(
        "REQUIRES_FEATURE_GATE",
        "invalid configuration: `imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled",
        { field: policyField, value: policy },
      );
    }
    if (allowlist.length > 0) {
      throw new PullCredentialsConfigError(
        "REQUIRES_FEATURE_GATE",
        "invalid configuration: `preloadedImagesVerificationAllowlist` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled",
        { field: allowlistField, value: allowlist },
      );
    }
  }
  const v = validateVerificationConfig({ policy, allowlist });
  return {
    imagePullCredentialsVerificationPolicy: v.policy,
    preloadedImagesVerificationAllowlist: v.allowlist,
  };
}
