/**
 * The Lua scripts of the shared state. Each touches only keys given in
 * `KEYS` that share one hash tag (one slot in a cluster), so each runs
 * atomically on the node that owns the slot. Values of another layout are
 * treated as absent: a claim overwrites them, a count restarts from zero.
 *
 * Every read goes through `read`, which looks at a key's type and length
 * before fetching it: a value of another type (which would answer
 * `WRONGTYPE` and count as Redis failing) or longer than any this layout
 * writes (which would be copied and sent on every read) is foreign, never
 * fetched.
 */

/** Longest value this layout writes (a verdict: at most about 1 KB), in bytes. */
export const MAX_VALUE_BYTES = 1024;

/**
 * Returns the string under a key, or nil and whether something foreign is
 * there (another type, or longer than {@link MAX_VALUE_BYTES}).
 */
const READ = `
local function read(key)
  local kind = redis.call('TYPE', key)['ok']
  if kind == 'none' then return nil, false end
  if kind ~= 'string' or redis.call('STRLEN', key) > ${MAX_VALUE_BYTES} then return nil, true end
  return redis.call('GET', key), false
end
`;

/**
 * Reads every key in KEYS (one hash tag). Answers, per key, its string
 * value, 0 when the key is absent, or 1 when it holds something foreign
 * (Lua tables cannot hold nil, hence the numbers).
 */
export const READ_SCRIPT = `${READ}
local out = {}
for i, key in ipairs(KEYS) do
  local value, foreign = read(key)
  if value then out[i] = value elseif foreign then out[i] = 1 else out[i] = 0 end
end
return out
`;

/**
 * Claims a marker: KEYS[1] the marker, ARGV[1] our token, ARGV[2] its TTL in
 * ms. Returns 1 when taken. A value that is not a token of this layout does
 * not count as a holder.
 */
export const CLAIM_SCRIPT = `${READ}
local current = read(KEYS[1])
if current and string.match(current, '^v1:%x%x%x%x%x%x%x%x%-%x%x%x%x%-%x%x%x%x%-%x%x%x%x%-%x%x%x%x%x%x%x%x%x%x%x%x$') then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** Releases a marker only if it still holds our token: KEYS[1], ARGV[1]. */
export const RELEASE_SCRIPT = `${READ}
if read(KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

/**
 * Extends a marker only if it still holds our token: KEYS[1], ARGV[1] the
 * token, ARGV[2] the new TTL in ms. Returns 1 when extended.
 */
export const REFRESH_SCRIPT = `${READ}
if read(KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`;

/**
 * Counts a retryable failure: KEYS = failures, open, tripped; ARGV =
 * threshold, cool-down ms, how long the count and the tripped flag are kept
 * (ms). Opens the circuit (and marks it tripped, which makes it half-open
 * once the open key expires) at the threshold. Returns the count.
 */
export const FAILURE_SCRIPT = `${READ}
local raw = read(KEYS[1])
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
