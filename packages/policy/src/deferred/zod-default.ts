/**
 * `#zod` outside Node (browsers, bundlers): zod's own functions, imported
 * statically, so a bundler keeps only the ones kubeimg's schemas call.
 * Node gets `./zod-node.ts`, the same names loading zod on first call.
 */

export { en } from "zod/locales";
export {
  _default,
  array,
  boolean,
  discriminatedUnion,
  enum,
  extend,
  int,
  literal,
  looseObject,
  maxLength,
  minLength,
  NEVER,
  nonnegative,
  nullable,
  nullish,
  number,
  object,
  optional,
  pipe,
  prefault,
  record,
  refine,
  regex,
  safeParse,
  strictObject,
  string,
  superRefine,
  transform,
} from "zod/mini";
