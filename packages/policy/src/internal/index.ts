/**
 * `@kubeimg/policy/internal`: the pieces of policy that kubeimg's own tools
 * reach past the public subpaths for: `@kubeimg/redis` (the availability
 * state's key text), the `kubeimg` command (its YAML bound, the English
 * parse of a Secret, name suggestions, Flux's Ready message), and the
 * conformance runners, fuzzers and benchmarks (the kubelet's record files,
 * containers/image's prefix rules, label selectors). One namespace per
 * public subpath the piece belongs to.
 *
 * Internal: it follows the package's versions but makes no stability promise
 * of its own; anything here may change or go in any release. Applications use
 * the public subpaths.
 *
 * @internal
 * @packageDocumentation
 */
export * as availability from "./availability.js";
export * as nodeMirrors from "./node-mirrors.js";
export * as objects from "./objects-namespace.js";
export * as pullCredentials from "./pull-credentials.js";
export * as routing from "./routing.js";
export * as tags from "./tags.js";
