/**
 * Go's `path` as `@kubeimg/core/internal` exports it.
 *
 * @module
 */
import { Clean, Join, Match } from "./path.js";

/**
 * Go's `path`. Spelled as an object rather than `export * as path`: a
 * namespace re-export makes the build emit the namespace object beside
 * `path.ts`'s code in the chunk `@kubeimg/core/reference` shares, and that
 * object keeps `Clean` and `Join` in every browser bundle of the reference
 * subpath, which only needs `Match`.
 */
export const path = { Clean, Join, Match };
