/** The `objects` namespace of `@kubeimg/policy/internal`: the light pieces and the English parse. */

export { safeParseEnglish } from "../objects/english-issues.js";
export * from "./objects.js";
