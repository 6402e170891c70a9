export { compileRegexp, type GoRegexp } from "./compile.js";
export { isRegexpError, RegexpError, type RegexpErrorCode } from "./errors.js";
export { requiredLiteralPrefix } from "./literal-prefix.js";
export {
  bindTemplate,
  type ExpandTemplate,
  parseTemplate,
  type TemplatePiece,
} from "./template.js";
