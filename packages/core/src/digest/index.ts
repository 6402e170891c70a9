export {
  type DigestAlgorithm,
  type DigestAlgorithmInfo,
  digestAlgorithms,
  isDigestAlgorithm,
} from "./algorithms.js";
export { computeDigest } from "./compute.js";
export { DigestError, type DigestErrorCode, isDigestError } from "./errors.js";
export { type Digest, isValidDigest, parseDigest, safeParseDigest } from "./parse.js";
export type { DigestValidationCode } from "./validate.js";
