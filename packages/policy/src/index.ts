export * from "./pull-credentials/index.js";
export * from "./routing/index.js";
export * from "./routing/yaml/index.js";
export * from "./semver/index.js";
export * from "./tags/argocd/index.js";
export * from "./tags/dialect/index.js";
export * from "./tags/index.js";
export * from "./tags/kargo/index.js";
