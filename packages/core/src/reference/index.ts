export {
  trimNamed,
  withDigest,
  withTag,
} from "./compose.js";
export { ImageReferenceError } from "./errors.js";
export {
  type DefaultPullPolicy,
  defaultPullPolicy,
  type ImageName,
  parseImageName,
  repositoryName,
} from "./kubernetes.js";
export { familiarMatch } from "./match.js";
export {
  familiarName,
  familiarString,
  tagNameOnly,
} from "./normalize.js";
export {
  parse,
  parseAnyReference,
  parseDockerRef,
  parseNamed,
  parseNormalizedNamed,
  type SafeParseResult,
  safeParse,
  safeParseNormalizedNamed,
} from "./parse.js";
export {
  type DigestReference,
  type DigestString,
  isCanonical,
  isDigested,
  isNamed,
  isNamedReference,
  isTagged,
  type NamedReference,
  type Reference,
} from "./reference.js";
