/**
 * The default bound on a document's nodes, aliases expanded: 1,000,000.
 * In a module of its own (no YAML parser behind it) for readers that only
 * state the bound, such as the `kubeimg` command's option help.
 */
export const DEFAULT_MAX_EXPANDED_NODES = 1_000_000;
