export * from "./pull-credentials/index.js";
export * from "./routing/index.js";
export * from "./routing/yaml/index.js";
export * from "./semver/index.js";
export * from "./tags/argocd/index.js";
export * from "./tags/dialects/index.js";
export * from "./tags/flux/index.js";
export * from "./tags/kargo/index.js";
