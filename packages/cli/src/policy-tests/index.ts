export type { ListTags } from "./evaluate.js";
export {
  type PolicyTestCaseResult,
  type PolicyTestReport,
  type PolicyTestStatus,
  type PolicyTestUpstream,
  type RunPolicyTestsOptions,
  runPolicyTests,
} from "./run.js";
