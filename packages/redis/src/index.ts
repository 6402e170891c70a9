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
  createRedisSender,
  type NodeTimerHandle,
  type RedisAvailabilityState,
  type RedisAvailabilityStateOptions,
  type RedisAvailabilityStateStats,
  type RedisCommandSender,
} from "./redis-state.js";
export { decodeVerdict, encodeVerdict, scrubReason } from "./values.js";
