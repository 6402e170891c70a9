export { isRedisStateError, RedisStateError, type RedisStateErrorCode } from "./errors.js";
export {
  checkPrefix,
  hashTagOf,
  type ImageKeys,
  imageKeys,
  LAYOUT_VERSION,
  type RegistryKeys,
  registryKeys,
} from "./keys.js";
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
export { decodeVerdict, encodeVerdict, scrubReason } from "./values.js";
