/**
 * The four credential verification policies of KEP-2535 and the kubelet's
 * validation of the two configuration fields that select them.
 */
import {
  type AllowlistMatching,
  allowlistField,
  allowlistMatchingOf,
  compileAllowlist,
  type KubeletRelease,
} from "./allowlist.js";
import { PullCredentialsConfigError } from "./errors.js";

/**
 * The `imagePullCredentialsVerificationPolicy` values, as the kubelet spells them.
 *
 * @example
 * ```ts
 * import {
 *   type VerificationPolicyName,
 *   verificationPolicyNames,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const isPolicyName = (s: string): s is VerificationPolicyName =>
 *   (verificationPolicyNames as readonly string[]).includes(s);
 * console.log(isPolicyName("AlwaysVerify"), isPolicyName("alwaysverify")); // true false
 * ```
 */
export const verificationPolicyNames = [
  "NeverVerify",
  "NeverVerifyPreloadedImages",
  "NeverVerifyAllowlistedImages",
  "AlwaysVerify",
] as const;

/**
 * One of {@link verificationPolicyNames}.
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   type VerificationPolicyName,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const name: VerificationPolicyName = "AlwaysVerify";
 * console.log(createVerificationPolicy({ policy: name }).requiresVerification("nginx", true)); // true
 * ```
 */
export type VerificationPolicyName = (typeof verificationPolicyNames)[number];

/**
 * The kubelet's default when the field is empty.
 */
export const defaultVerificationPolicy: VerificationPolicyName = "NeverVerifyPreloadedImages";

/**
 * The policy's field name in the KubeletConfiguration.
 */
export const policyField = "imagePullCredentialsVerificationPolicy";

/**
 * Decides whether an image already on the node needs its pod's credentials
 * verified, given whether the kubelet pulled it (a record for its imageRef or
 * an intent for the exact image string exists) or it was preloaded.
 *
 * @example
 * ```ts
 * import { createVerificationPolicy } from "@kubeimg/policy/pull-credentials";
 *
 * const p = createVerificationPolicy({ policy: "NeverVerifyPreloadedImages" });
 * p.requiresVerification("nginx", false); // false: preloaded
 * ```
 */
export interface VerificationPolicy {
  readonly name: VerificationPolicyName;
  requiresVerification(image: string, pulledByKubelet: boolean): boolean;
}

/**
 * Options of {@link createVerificationPolicy}: the two kubelet fields and the matching mode.
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   type VerificationPolicyOptions,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const options: VerificationPolicyOptions = {
 *   policy: "NeverVerifyAllowlistedImages",
 *   allowlist: ["registry.example.com/*"],
 * };
 * const p = createVerificationPolicy(options);
 * console.log(p.requiresVerification("registry.example.com/app:1", false)); // false
 * ```
 */
export interface VerificationPolicyOptions {
  /** `imagePullCredentialsVerificationPolicy`; missing or `""` is the default. */
  readonly policy?: string | undefined;
  /** `preloadedImagesVerificationAllowlist`. */
  readonly allowlist?: readonly string[] | undefined;
  /**
   * The kubelet release to reproduce; the newest (`"1.37"`) unless asked
   * otherwise. It decides allowlist matching (see {@link KubeletRelease}).
   */
  readonly kubelet?: KubeletRelease | undefined;
  /** Allowlist matching, when given, wins over what `kubelet` implies. */
  readonly allowlistMatching?: AllowlistMatching | undefined;
}

function isPolicyName(value: unknown): value is VerificationPolicyName {
  return (verificationPolicyNames as readonly unknown[]).includes(value);
}

/**
 * Applies the kubelet's defaulting and validation (feature gate on) to the two
 * fields and returns them normalized. Throws {@link PullCredentialsConfigError}:
 * `UNKNOWN_POLICY` (case-sensitive names), `ALLOWLIST_REQUIRES_ALLOWLIST_POLICY`
 * (a non-empty allowlist with another policy), `INVALID_ALLOWLIST` (first bad
 * pattern, as `value`).
 */
export function validateVerificationConfig(options: VerificationPolicyOptions): {
  policy: VerificationPolicyName;
  allowlist: readonly string[];
} {
  const raw =
    options.policy === undefined || options.policy === ""
      ? defaultVerificationPolicy
      : options.policy;
  if (!isPolicyName(raw)) {
    throw new PullCredentialsConfigError(
      "UNKNOWN_POLICY",
      `invalid configuration: option ${JSON.stringify(raw)} specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"`,
      { field: policyField, value: raw },
    );
  }
  const allowlist = options.allowlist ?? [];
  if (!Array.isArray(allowlist)) {
    throw new PullCredentialsConfigError(
      "INVALID_CONFIG",
      `${allowlistField} must be a list of strings`,
      {
        field: allowlistField,
        value: allowlist,
      },
    );
  }
  if (allowlist.length > 0 && raw !== "NeverVerifyAllowlistedImages") {
    throw new PullCredentialsConfigError(
      "ALLOWLIST_REQUIRES_ALLOWLIST_POLICY",
      'invalid configuration: can\'t set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not "NeverVerifyAllowlistedImages"',
      { field: allowlistField, value: allowlist },
    );
  }
  compileAllowlist(allowlist);
  return { policy: raw, allowlist: Object.freeze([...allowlist]) };
}

/**
 * Builds the policy the kubelet would enforce for this configuration, after
 * the kubelet's validation of the policy name and the allowlist.
 *
 * - `NeverVerify`: never verify.
 * - `NeverVerifyPreloadedImages` (default): verify exactly the images the kubelet pulled.
 * - `NeverVerifyAllowlistedImages`: verify every image the allowlist does not match,
 *   whether or not the kubelet pulled it.
 * - `AlwaysVerify`: always verify.
 *
 * @example
 * ```ts
 * import { createVerificationPolicy } from "@kubeimg/policy/pull-credentials";
 *
 * const p = createVerificationPolicy({ policy: "NeverVerifyAllowlistedImages", allowlist: ["registry.example.com/*"] });
 * p.requiresVerification("registry.example.com/app:1", true); // false
 * ```
 */
export function createVerificationPolicy(
  options: VerificationPolicyOptions = {},
): VerificationPolicy {
  const { policy, allowlist } = validateVerificationConfig(options);
  const matching = options.allowlistMatching ?? allowlistMatchingOf(options.kubelet);
  switch (policy) {
    case "NeverVerify":
      return Object.freeze({ name: policy, requiresVerification: () => false });
    case "NeverVerifyPreloadedImages":
      return Object.freeze({
        name: policy,
        requiresVerification: (_image: string, pulledByKubelet: boolean) => pulledByKubelet,
      });
    case "AlwaysVerify":
      return Object.freeze({ name: policy, requiresVerification: () => true });
    case "NeverVerifyAllowlistedImages": {
      const list = compileAllowlist(allowlist, { matching });
      return Object.freeze({
        name: policy,
        requiresVerification: (image: string) => !list.matches(image),
      });
    }
  }
}
