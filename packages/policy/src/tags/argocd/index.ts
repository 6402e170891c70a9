/**
 * `@kubeimg/policy/tags/argocd`: Argo CD Image Updater's tag selection and
 * the readers for the objects that configure it (`ImageUpdater`, an
 * `Application` carrying the updater's annotations). A subpath of its own so
 * a page that only selects Flux tags does not carry it; the errors, the
 * result types and the metadata collection every dialect shares are in
 * `@kubeimg/policy/tags/dialects`.
 */

export { TagDialectError } from "../common/errors.js";
export type {
  ArgoAnnotationsConfig,
  ArgoConfig,
  ArgoImageUpdaterConfig,
  ArgoUpdateSettings,
} from "./config.js";
export {
  type ArgoConfigObject,
  readArgoApplication,
  readArgoImageUpdater,
} from "./objects.js";
export {
  type ArgoSelectOptions,
  type ArgoStrategy,
  argoStrategy,
  selectArgoTag,
} from "./select.js";
