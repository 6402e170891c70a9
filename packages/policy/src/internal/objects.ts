/** The readers' pieces the `kubeimg` command shares with policy's loaders. */

export { editDistance } from "../objects/edit-distance.js";
export { safeParseEnglish } from "../objects/english-issues.js";
export { DEFAULT_MAX_EXPANDED_NODES } from "../objects/yaml-documents.js";
