export type { DigestAlgorithm } from "./algorithms.js";
export { computeDigest } from "./compute.js";
export { DigestError } from "./errors.js";
export {
  type Digest,
  isValidDigest,
  parseDigest,
} from "./parse.js";
