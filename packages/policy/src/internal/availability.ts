/** The availability state's key text, which `@kubeimg/redis` stores its verdicts under. */
export { verdictKeyString } from "../availability/state.js";
