import { isKubeimgError } from "@kubeimg/core";
import { sanitizeText } from "../output/sanitize.js";
import { systemErrorSentence } from "./system-error.js";

/**
 * Returns one line describing `error` for stderr: the message with line
 * breaks folded, followed by the error's stable code in brackets when it has
 * one; a Node system error (`EACCES`, `EIO`) as a sentence naming its path
 * and cause. Never a stack trace, and never a control character: the
 * message may quote a file or a registry.
 */
export function describeError(error: unknown): string {
  // A system error that escaped a reader: a sentence, not Node's text.
  const system = systemErrorSentence(error);
  if (system !== undefined) return sanitizeText(system);
  const message = error instanceof Error ? error.message : String(error);
  const oneLine = message
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join("; ");
  const code = isKubeimgError(error) ? error.code : undefined;
  // The private-address guard names the flags that lift it.
  const hint =
    code === "BLOCKED_HOST"
      ? " (allow it with --allow-private-hosts, or --insecure-registry HOST for plain HTTP)"
      : code === "NETWORK_ERROR"
        ? plainHttpFlag(message)
        : upstreamFlag(message);
  const safe = sanitizeText(oneLine) + hint;
  if (isKubeimgError(error) && error.code !== "USAGE")
    return `${safe} [${sanitizeText(error.code)}]`;
  return safe;
}

/** The flag that sets the option a plain-HTTP registry's TLS failure names (see the registry client). */
function plainHttpFlag(message: string): string {
  const host = /registries\[("[^"]*")\]\.insecure: true/.exec(message)?.[1];
  if (host === undefined) return "";
  return ` (with kubeimg: --insecure-registry ${JSON.parse(host) as string})`;
}

/** The library's release options and the `--upstream` names that set them. */
const upstreamNames: Readonly<Record<string, string>> = {
  containersImage: "containers-image",
  containerd: "containerd",
  platforms: "platforms",
  kubelet: "kubelet",
};

/**
 * The release option a library message names (`the option containersImage:
 * "5.36"`): the phrase, its `--upstream` name and the release.
 */
export function releaseOptionIn(
  message: string,
): { readonly phrase: string; readonly name: string; readonly release: string } | undefined {
  const m = /the option (\w+): "([^"]+)"/.exec(message);
  const name = m === null ? undefined : upstreamNames[m[1] as string];
  return m === null || name === undefined
    ? undefined
    : { phrase: m[0], name, release: m[2] as string };
}

/** The `--upstream` flag that sets a release option the library's message names. */
function upstreamFlag(message: string): string {
  const found = releaseOptionIn(message);
  return found === undefined ? "" : ` (with kubeimg: --upstream ${found.name}=${found.release})`;
}
