/** The readers' pieces the `kubeimg` command shares with policy's loaders. */
export { safeParseEnglish } from "../objects/english-issues.js";
export { editDistance } from "../objects/unknown-fields.js";
export { DEFAULT_MAX_EXPANDED_NODES } from "../objects/yaml-documents.js";
