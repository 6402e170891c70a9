export {
  type BackoffOptions,
  type BackoffSchedule,
  type BackoffTracker,
  createBackoffSchedule,
  createBackoffTracker,
} from "./backoff.js";
