/**
 * The kubelet's credential hash (`hashAuthConfig` in Kubernetes'
 * `pkg/credentialprovider/keyring.go`): the SHA-256 of Go's `json.Marshal`
 * of the `AuthConfig` holding username, password and email, empty fields
 * omitted. The pull-credential manager stores it to recognise a secret's
 * credentials later, so the keyring (`@kubeimg/core/keyring`) and the
 * pull-credential records (`@kubeimg/policy/pull-credentials`) must both
 * compute it byte for byte as Go does — from this one function.
 */
import { EncodeToString } from "./hex.js";
import { Quote } from "./json.js";
import { Sum256 } from "./sha256.js";

/** The fields of an `AuthConfig` that reach the hash; a lone surrogate stands for a byte Go cannot decode. */
export interface AuthConfigFields {
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly email?: string | undefined;
}

/**
 * Returns the exact text the kubelet hashes: `json.Marshal` of the auth
 * config with only username, password and email, empty fields omitted,
 * HTML-safe escaping as the Go 1.19 the vectors were produced with writes it
 * (backspace and form feed as `\u0008` and `\u000c`).
 *
 * @example
 * ```ts
 * import { credentialprovider } from "@kubeimg/core/internal";
 *
 * credentialprovider.hashAuthConfigInput({ username: "user", password: "password" }); // → "{\"username\":\"user\",\"password\":\"password\"}"
 * ```
 */
export function hashAuthConfigInput(config: AuthConfigFields): string {
  const fields: string[] = [];
  if (config.username) fields.push(`"username":${Quote(config.username, "go1.19")}`);
  if (config.password) fields.push(`"password":${Quote(config.password, "go1.19")}`);
  if (config.email) fields.push(`"email":${Quote(config.email, "go1.19")}`);
  return `{${fields.join(",")}}`;
}

/**
 * Returns the credential hash: lowercase hex SHA-256 of
 * {@link hashAuthConfigInput}.
 *
 * @example
 * ```ts
 * import { credentialprovider } from "@kubeimg/core/internal";
 *
 * credentialprovider.hashAuthConfig({ username: "user", password: "password" });
 * // → "a55436fc140d516560d072c5fe8700385ce9f41629abf65c1edcbcb39fac691d"
 * ```
 */
export function hashAuthConfig(config: AuthConfigFields): string {
  // The quoted text is well formed (a lone surrogate became \ufffd), so UTF-8 encoding is exact.
  return EncodeToString(Sum256(new TextEncoder().encode(hashAuthConfigInput(config))));
}
