export * from "./adapters/index.js";
export * from "./backoff/index.js";
export * from "./client/index.js";
export * from "./errors/index.js";
export * from "./http/index.js";
export * from "./image/index.js";
export * from "./platform/index.js";
