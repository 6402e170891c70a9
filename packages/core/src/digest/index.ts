export type { DigestAlgorithm } from "./algorithms.js";
export { computeDigest } from "./compute.js";
export { DigestError, type DigestErrorCode } from "./errors.js";
export {
  type Digest,
  isValidDigest,
  parseDigest,
} from "./parse.js";
export type { DigestValidationCode } from "./validate.js";
