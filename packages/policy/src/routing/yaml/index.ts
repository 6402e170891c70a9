/**
 * `@kubeimg/policy/routing/yaml`: kuik's routing objects and operator
 * configuration read from YAML text, as users write them in files.
 *
 * A subpath of its own because the YAML parser is about a quarter of a
 * routing bundle: a webhook or a page that receives objects already parsed
 * (from the Kubernetes API, from JSON) imports `@kubeimg/policy/routing` and
 * carries no YAML code; a tool that reads files imports this one as well.
 * The object-level functions it builds on (`parseRoutingResource`,
 * `parseKuikConfig`) stay in `@kubeimg/policy/routing`.
 *
 * @example
 * ```ts
 * import { compileRouting } from "@kubeimg/policy/routing";
 * import { loadKuikConfig, loadRoutingResources } from "@kubeimg/policy/routing/yaml";
 *
 * declare const crsYaml: string; // kuik CRs (ClusterImageSetMirror, ImageSetMirror, …)
 * declare const configYaml: string; // kuik's config.yaml
 * const routing = compileRouting(loadRoutingResources(crsYaml), { config: loadKuikConfig(configYaml) });
 * ```
 *
 * @packageDocumentation
 */
export { type LoadKuikConfigOptions, loadKuikConfig } from "./config.js";
export { type LoadRoutingResourcesOptions, loadRoutingResources } from "./resources.js";
