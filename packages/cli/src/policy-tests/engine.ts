/**
 * What running policy tests loads: the readers and every product's engine.
 * {@link runPolicyTests} imports it when called, so importing `@kubeimg/cli`
 * (for `runCli` or the types) does not evaluate them.
 */
export { compileRegexp } from "@kubeimg/core/regexp";
export { TestEnvironment } from "./environment.js";
export { evaluateCase } from "./evaluate.js";
export { readTestFile } from "./test-file.js";
