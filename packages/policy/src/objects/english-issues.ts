/**
 * Parsing with zod's English messages, without touching zod's global
 * configuration.
 *
 * `zod/mini` (which keeps browser bundles small) loads no locale: a schema
 * parsed on its own words every built-in issue as "Invalid input". The
 * messages kubeimg's errors carry ("Invalid input: expected string, received
 * number") are part of what users read, so every parse in this package goes
 * through here and asks for the English locale for that one call. Setting
 * it globally (`z.config(z.locales.en())`) would be module-scope work and
 * would overwrite a locale the application chose for its own schemas.
 */
import type * as z from "zod/mini";
import { en, safeParse } from "#zod";

let english: z.core.$ZodErrorMap | undefined;

/**
 * Returns `schema.safeParse(value)` with zod's English messages for the
 * issues that carry no message of their own.
 *
 * @example
 * ```ts
 * import { pullSecretSchema } from "@kubeimg/core/keyring";
 * import { objects } from "@kubeimg/policy/internal";
 * objects.safeParseEnglish(pullSecretSchema, { type: 7 }).error?.issues[0]?.message;
 * // "Invalid input: expected string, received number"
 * ```
 */
export function safeParseEnglish<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
): z.core.util.SafeParseResult<z.output<S>> {
  english ??= en().localeError;
  return safeParse(schema, value, { error: english });
}
