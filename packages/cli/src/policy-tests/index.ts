export type { ListTags } from "./evaluate.js";
export {
  type PolicyTestCaseResult,
  type PolicyTestReport,
  type PolicyTestStatus,
  type RunPolicyTestsOptions,
  runPolicyTests,
} from "./run.js";
