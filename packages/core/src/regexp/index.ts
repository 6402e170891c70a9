export { compileRegexp, type GoRegexp } from "./compile.js";
export { RegexpError } from "./errors.js";
export { requiredLiteralPrefix } from "./literal-prefix.js";
export {
  type ExpandTemplate,
  parseTemplate,
  type TemplatePiece,
} from "./template.js";
