import { isKubeimgError } from "@kubeimg/core";

/**
 * Returns one line describing `error` for stderr: the message with line
 * breaks folded, followed by the error's stable code in brackets when it has
 * one. Never a stack trace.
 *
 * @example
 * ```ts
 * describeError(new ImageReferenceError("INVALID_REFERENCE_FORMAT", "a:b:c"));
 * // "invalid reference format [INVALID_REFERENCE_FORMAT]"
 * ```
 */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const oneLine = message
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join("; ");
  if (isKubeimgError(error) && error.code !== "USAGE") return `${oneLine} [${error.code}]`;
  return oneLine;
}
