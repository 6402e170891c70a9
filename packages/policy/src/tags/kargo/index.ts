/**
 * `@kubeimg/policy/tags/kargo`: Kargo's image subscription (defaults,
 * validation), its tag selection and the reader for a `Warehouse`. A
 * subpath of its own so a page that only selects Flux tags does not carry
 * it; the errors, the result types and the metadata collection every
 * dialect shares are in `@kubeimg/policy/tags/dialects`.
 */

export { TagDialectError } from "../common/errors.js";
export { type KargoSubscriptionObject, readKargoWarehouse } from "./objects.js";
export { type KargoSelectOptions, selectKargoTag } from "./select.js";
export {
  type DefaultedKargoSubscription,
  defaultKargoSubscription,
  type KargoImageSubscription,
  type KargoStrategy,
} from "./subscription.js";
