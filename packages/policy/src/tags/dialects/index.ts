/**
 * `@kubeimg/policy/tags/dialects`: what the Argo CD Image Updater and Kargo
 * dialects share (the result and explanation types, `TagDialectError`, the
 * tag metadata a strategy needs, the guards), what works across dialects
 * (comparing the three selections, translating a Flux policy to the others
 * and back) and telling which dialect an object belongs to. Apart from
 * `@kubeimg/policy/tags` so a page that only selects Flux tags carries none
 * of it; comparing imports both dialects' engines, and a bundler keeps them
 * only when `compareTagSelections` is used.
 */

export { TagDialectError } from "../common/errors.js";
export {
  type DialectObjectKind,
  type DialectObjectOptions,
  dialectObjectKind,
} from "../common/objects.js";
export { PreparedTagList, prepareTagList } from "../common/prepared.js";
export type {
  DialectOutcome,
  DialectSelection,
  DialectVerdict,
  TagDialect,
  TagInfo,
} from "../common/types.js";
export {
  type CompareTagSelectionsInput,
  compareTagSelections,
  type TagSelectionComparison,
} from "./compare.js";
export {
  type GuardedSelection,
  guardSelection,
  type SelectionGuards,
  tagOrders,
} from "./guards.js";
export {
  type CollectTagInfoOptions,
  collectTagInfo,
  MemoryTagMetadataSource,
  needsTagMetadata,
  type TagImageMetadata,
  type TagMetadataCallOptions,
  TagMetadataError,
  type TagMetadataSource,
} from "./metadata.js";
export {
  type Translation,
  translateFluxToArgo,
  translateFluxToKargo,
  translateKargoToFlux,
} from "./translate.js";
