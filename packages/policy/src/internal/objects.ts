/**
 * `@kubeimg/policy/internal/objects`: the readers' pieces the `kubeimg`
 * command's frame shares with policy's loaders (the edit distance of "did
 * you mean", the YAML bound). A subpath of its own, holding neither zod nor
 * the YAML parser, because the command suggests names and states its bounds
 * before it loads any command's code.
 *
 * Internal: it follows the package's versions but makes no stability promise
 * of its own. Applications use the public subpaths.
 *
 * @internal
 * @packageDocumentation
 */
export { editDistance } from "../objects/edit-distance.js";
export { DEFAULT_MAX_EXPANDED_NODES } from "../objects/yaml-limits.js";
