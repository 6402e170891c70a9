export * from "./adapters/index.js";
export * from "./client/index.js";
export * from "./platform/index.js";
