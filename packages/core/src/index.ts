/**
 * `@kubeimg/core`: the error base every kubeimg package throws from
 * (`KubeimgError`, `isKubeimgError`, `errorGuard`, and the choice of an
 * upstream release that every port's options share). It loads nothing else, so
 * a package that only needs to throw or recognise kubeimg errors pays for
 * nothing more. Everything else lives in a subpath of its own:
 * `@kubeimg/core/reference`, `/digest`, `/platform`, `/keyring`, `/regexp`,
 * `/ports`.
 *
 * @packageDocumentation
 */
export * from "./errors/index.js";
