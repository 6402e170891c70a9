/**
 * What Kubernetes makes of a container's `image` string, as the API server
 * defaults it and the kubelet reads it. Every function parses with
 * {@link parseNormalizedNamed}, as the kubelet does
 * (`k8s.io/kubernetes/pkg/util/parsers.ParseImageName`).
 *
 * Deliberate difference: Kubernetes' defaulting ignores a parse error (the
 * pod is rejected by validation later); these functions throw the
 * {@link ImageReferenceError} instead, so a bad image is never given a
 * silent answer.
 *
 * @module
 */

import { DEFAULT_TAG } from "./normalize.js";
import { parseNormalizedNamed } from "./parse.js";
import type { NamedReference } from "./reference.js";

/** The pull policy Kubernetes fills in when a container leaves `imagePullPolicy` empty. */
export type DefaultPullPolicy = "Always" | "IfNotPresent";

/** An image as the kubelet splits it: repository, tag (implicitly `latest`) and digest. */
export interface ImageName {
  /** The normalized repository name, e.g. `docker.io/library/nginx`. */
  readonly repository: string;
  /** The tag; `latest` when the image has neither tag nor digest; `undefined` for digest-only images. */
  readonly tag: string | undefined;
  /** The digest, or `undefined`. */
  readonly digest: string | undefined;
}

/**
 * Returns the repository, tag and digest of a container image as the
 * kubelet reads them (Kubernetes `parsers.ParseImageName`): the tag is
 * `latest` when the image has neither a tag nor a digest.
 *
 * @example
 * ```ts
 * import { parseImageName } from "@kubeimg/core/reference";
 *
 * parseImageName("nginx");
 * // { repository: "docker.io/library/nginx", tag: "latest", digest: undefined }
 * ```
 */
export function parseImageName(image: string): ImageName {
  const r = parseNormalizedNamed(image);
  const tag = r.tag === undefined && r.digest === undefined ? DEFAULT_TAG : r.tag;
  return { repository: r.name, tag, digest: r.digest };
}

/**
 * Returns the `imagePullPolicy` Kubernetes defaults to for `image`:
 * `Always` when the tag is `latest` or the image has neither tag nor digest,
 * `IfNotPresent` otherwise (a digest-only image included).
 *
 * Follows the defaulting code (`SetDefaults_Container`), which looks at the
 * tag only: `nginx:latest@sha256:…` is `Always` too. Takes the image as
 * written, or as `parseNormalizedNamed` returned it (then nothing is read
 * again).
 *
 * @example
 * ```ts
 * import { defaultPullPolicy } from "@kubeimg/core/reference";
 *
 * declare const hex64: string; // 64 hex digits
 * defaultPullPolicy("nginx");                 // "Always"
 * defaultPullPolicy("nginx:latest");          // "Always"
 * defaultPullPolicy("nginx:1.25");            // "IfNotPresent"
 * defaultPullPolicy("nginx@sha256:" + hex64); // "IfNotPresent"
 * ```
 */
export function defaultPullPolicy(image: string | NamedReference): DefaultPullPolicy {
  const r = typeof image === "string" ? parseNormalizedNamed(image) : image;
  const tag = r.tag === undefined && r.digest === undefined ? DEFAULT_TAG : r.tag;
  return tag === DEFAULT_TAG ? "Always" : "IfNotPresent";
}

/**
 * Returns the repository name of `image` with tag and digest stripped,
 * normalized, as the kubelet keys registry credentials by it.
 *
 * @example
 * ```ts
 * import { repositoryName } from "@kubeimg/core/reference";
 *
 * declare const hex64: string; // 64 hex digits
 * repositoryName("nginx:1.25");                  // "docker.io/library/nginx"
 * repositoryName("registry.k8s.io/pause@sha256:" + hex64); // "registry.k8s.io/pause"
 * ```
 */
export function repositoryName(image: string): string {
  return parseNormalizedNamed(image).name;
}
