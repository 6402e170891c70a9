/**
 * `@kubeimg/policy/objects`: the readers policy's loaders build on, for
 * tools that read the same user files (the `kubeimg` command reads its
 * secret files and CR lists through them, and suggests names with the same
 * edit distance as the unknown-field messages, and parses Secrets with the
 * same English zod messages). Reading YAML with a bound on what its aliases
 * expand to belongs to one place, so a fix to the bound reaches every reader.
 *
 * For tool authors: these are the building blocks of the loaders, not a
 * decision API; prefer the loaders of `@kubeimg/policy/routing/yaml` and
 * `@kubeimg/policy/tags/yaml` where one fits.
 *
 * @packageDocumentation
 */
export {
  describeYamlProblem,
  readYamlDocuments,
  type YamlPosition,
  type YamlReadLimits,
  type YamlReadResult,
} from "./yaml-documents.js";
