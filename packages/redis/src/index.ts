export { RedisStateError } from "./errors.js";
export { type ImageKeys, imageKeys } from "./keys.js";
export {
  createRedisAvailabilityState,
  type NodeTimerHandle,
  type RedisAvailabilityState,
  type RedisAvailabilityStateOptions,
  type RedisReadyOptions,
} from "./redis-state.js";
export { createRedisSender, type RedisCommandSender } from "./sender.js";
