// The claim on one customIdentifier is one Redis hash, changed only by these scripts (one key each, so a
// cluster is fine). Fields: owner (the holder's token), until (ms, Redis TIME), posted (ms of the last POST
// sent while no outcome was recorded), ref, content and refUntil (the order created, its content key, and
// until when it is remembered). Times are Redis's, so hosts' clocks do not matter.

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * KEYS[1] claim; ARGV token, ttlMs, keepMs. Returns {1, 0, ref, unsettled, content} when taken (or already
 * ours; ref and content while remembered), {0, msLeft, '', 0, ''} while another holder's claim runs.
 */
export const ACQUIRE: string = `${NOW}
local owner = redis.call('HGET', KEYS[1], 'owner')
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if owner and owner ~= ARGV[1] and untilMs > now then
  return {0, untilMs - now, '', 0, ''}
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'until', now + tonumber(ARGV[2]))
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
-- A POST whose outcome its holder did not learn: unsettled while its holder may still be alive (no
-- release: until the key expires) and rememberMs after a release that said so.
local posted = redis.call('HGET', KEYS[1], 'posted')
local postedUntil = tonumber(redis.call('HGET', KEYS[1], 'postedUntil') or '')
if postedUntil and postedUntil <= now then
  posted = false
  redis.call('HDEL', KEYS[1], 'posted', 'postedUntil')
end
-- The order created is remembered rememberMs from its release, however often the claim is taken since.
local ref = ''
local content = ''
if tonumber(redis.call('HGET', KEYS[1], 'refUntil') or '0') > now then
  ref = redis.call('HGET', KEYS[1], 'ref') or ''
  content = redis.call('HGET', KEYS[1], 'content') or ''
end
return {1, 0, ref, posted and 1 or 0, content}`;

/**
 * KEYS[1] claim; ARGV token, ttlMs, posting ('1' before a POST), keepMs. Extends a claim still held (and its
 * key, to keepMs from now: a claim held longer than the key's first life must not vanish under its holder):
 * 1, else 0.
 */
export const RENEW: string = `${NOW}
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'until') or '0') <= now then return 0 end
redis.call('HSET', KEYS[1], 'until', now + tonumber(ARGV[2]))
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 'posted', now)
  redis.call('HDEL', KEYS[1], 'postedUntil')
end
return 1`;

/**
 * KEYS[1] claim; ARGV token, ref ('' when none), unsettled ('1' keeps posted), rememberMs, content ('' when
 * none). Compare-and-release: only the holder's token releases; 1 when released. An unsettled mark lasts
 * rememberMs from this release, however long the claim was held (the key lives at least as long).
 */
export const RELEASE: string = `${NOW}
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 'owner', 'until')
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'ref', ARGV[2], 'content', ARGV[5], 'refUntil', now + tonumber(ARGV[4]))
  redis.call('HDEL', KEYS[1], 'posted', 'postedUntil')
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
elseif ARGV[3] ~= '1' then
  redis.call('HDEL', KEYS[1], 'posted', 'postedUntil')
  if redis.call('HLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[1]) end
elseif redis.call('HEXISTS', KEYS[1], 'posted') == 1 then
  redis.call('HSET', KEYS[1], 'postedUntil', now + tonumber(ARGV[4]))
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
end
return 1`;
