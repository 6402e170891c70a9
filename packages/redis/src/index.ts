export { RedisStateError, type RedisStateErrorCode } from "./errors.js";
export { type ImageKeys, imageKeys } from "./keys.js";
export {
  createRedisAvailabilityState,
  type NodeTimerHandle,
  type RedisAvailabilityState,
  type RedisAvailabilityStateOptions,
  type RedisAvailabilityStateStats,
  type RedisReadiness,
  type RedisReadyOptions,
} from "./redis-state.js";
export { createRedisSender, type RedisCommandSender } from "./sender.js";
