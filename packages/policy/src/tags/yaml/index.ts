/**
 * `@kubeimg/policy/tags/yaml`: the tag-selection objects users keep in Git
 * (Flux `ImagePolicy` and `ImageRepository`, Argo CD Image Updater
 * `ImageUpdater` and annotated `Application`, Kargo `Warehouse`) read from
 * YAML text.
 *
 * A subpath of its own because a YAML parser is a large part of a bundle:
 * a page or controller that receives objects already parsed (from the
 * Kubernetes API, from JSON) imports `@kubeimg/policy/tags` (or the
 * `/argocd`, `/kargo` subpaths) and their readers, and carries no YAML code.
 *
 * @example
 * ```ts
 * import { selectLatestTag } from "@kubeimg/policy/tags";
 * import { loadTagObjects } from "@kubeimg/policy/tags/yaml";
 *
 * const [found] = loadTagObjects(`
 * apiVersion: image.toolkit.fluxcd.io/v1
 * kind: ImagePolicy
 * metadata: { name: app }
 * spec:
 *   imageRepositoryRef: { name: app }
 *   policy: { semver: { range: 1.x } }
 * `);
 * if (found?.kind === "ImagePolicy") {
 *   console.log(selectLatestTag(["1.0.0", "1.2.0", "2.0.0"], found.object.spec)); // 1.2.0
 * }
 * ```
 *
 * @packageDocumentation
 */
export { TagObjectError } from "./errors.js";
export { type LoadTagObjectsOptions, loadTagObjects, type TagObject } from "./load.js";
