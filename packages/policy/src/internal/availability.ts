/**
 * `@kubeimg/policy/internal/availability`: the availability state's key
 * text, which `@kubeimg/redis` stores its verdicts under. A subpath of its
 * own so that `@kubeimg/redis` loads the availability modules only, not the
 * other products `@kubeimg/policy/internal` gathers.
 *
 * Internal: it follows the package's versions but makes no stability promise
 * of its own. Applications use the public subpaths.
 *
 * @internal
 * @packageDocumentation
 */
export { verdictKeyString } from "../availability/state.js";
