export * from "./pull-credentials/index.js";
export * from "./routing/index.js";
export * from "./routing/yaml/index.js";
export * from "./semver/index.js";
export * from "./tags/index.js";
