/**
 * `@kubeimg/policy/internal/tags`: Flux's Ready message, which the
 * `kubeimg tags` command prints. A subpath of its own so that the command
 * loads the tag-selection modules only, not every product
 * `@kubeimg/policy/internal` gathers.
 *
 * Internal: it follows the package's versions but makes no stability promise
 * of its own. Applications use the public subpaths.
 *
 * @internal
 * @packageDocumentation
 */
export { composeReadyMessage } from "../tags/flux/status.js";
