import { errorGuard, KubeimgError } from "../errors/index.js";

/** Codes of {@link DockerConfigError}.
 *
 * @inline
 */
export type DockerConfigErrorCode = "INVALID_DOCKER_CONFIG" | "INVALID_SECRET";

/**
 * Thrown when a docker config (`config.json`, `.dockercfg`) or a pull
 * Secret cannot be read the way the kubelet reads it. `path` names the
 * offending field; credential values are never copied into the error.
 *
 * @example
 * ```ts
 * import { DockerConfigError, parseDockerConfigJson } from "@kubeimg/core/keyring";
 *
 * try { parseDockerConfigJson('{"auths":[]}') } catch (e) {
 *   if (e instanceof DockerConfigError) console.error(e.code, e.path); // INVALID_DOCKER_CONFIG auths
 * }
 * ```
 */
export class DockerConfigError extends KubeimgError {
  override readonly name = "DockerConfigError";
  readonly code: DockerConfigErrorCode;
  /** Where in the document the problem is, e.g. `auths["quay.io"].auth`; `""` for the whole document. */
  readonly path: string;
  /** The Secret the config came from (`namespace/name`), when it came from one. */
  readonly secret: string | undefined;

  constructor(
    code: DockerConfigErrorCode,
    message: string,
    options: { path?: string; secret?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.path = options.path ?? "";
    this.secret = options.secret;
  }
}

/**
 * Returns true when `value` is a {@link DockerConfigError}, from whichever
 * copy of the package created it.
 */
export const isDockerConfigError = errorGuard<DockerConfigError>("DockerConfigError");
