export * from "./digest/index.js";
export * from "./errors/index.js";
export * from "./keyring/index.js";
export * from "./platform/index.js";
export type * from "./ports/index.js";
export * from "./reference/index.js";
export * from "./regexp/index.js";
