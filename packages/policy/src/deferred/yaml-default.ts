/**
 * `#yaml` outside Node (browsers, bundlers): the `yaml` functions kubeimg
 * calls, imported statically. Node gets `./yaml-node.ts`, the same names
 * loading `yaml` on first call.
 */
export {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  parseDocument,
  visit,
} from "yaml";
