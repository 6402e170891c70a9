/**
 * The Lua scripts of the shared state. Each touches only keys given in
 * `KEYS` that share one hash tag (one slot in a cluster), so each runs
 * atomically on the node that owns the slot. Values of another layout are
 * treated as absent: a claim overwrites them, a count restarts from zero.
 */

/**
 * Claims a marker: KEYS[1] the marker, ARGV[1] our token, ARGV[2] its TTL in
 * ms. Returns 1 when taken. A value that is not a token of this layout does
 * not count as a holder.
 */
export const CLAIM_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current and string.match(current, '^v1:%x%x%x%x%x%x%x%x%-%x%x%x%x%-%x%x%x%x%-%x%x%x%x%-%x%x%x%x%x%x%x%x%x%x%x%x$') then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** Releases a marker only if it still holds our token: KEYS[1], ARGV[1]. */
export const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

/**
 * Counts a retryable failure: KEYS = failures, open, tripped; ARGV =
 * threshold, cool-down ms, how long the count and the tripped flag are kept
 * (ms). Opens the circuit (and marks it tripped, which makes it half-open
 * once the open key expires) at the threshold. Returns the count.
 */
export const FAILURE_SCRIPT = `
local raw = redis.call('GET', KEYS[1])
local count = 0
if raw then
  local n = string.match(raw, '^v1:(%d+)$')
  if n then count = tonumber(n) end
end
count = count + 1
redis.call('SET', KEYS[1], 'v1:' .. count, 'PX', ARGV[3])
if count >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], 'v1:open', 'PX', ARGV[2])
  redis.call('SET', KEYS[3], 'v1:tripped', 'PX', ARGV[3])
end
return count
`;
