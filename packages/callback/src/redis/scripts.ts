// The shared coalescer's state per order, in one hash `<prefix>:{<order>}` and one lock key next to it
// (one hash tag, so a cluster keeps them in one slot):
//   seq    arrivals counted so far (each notification gets its number n)
//   open   when the first arrival not yet sealed into a round came (caller clock, ms)
//   done   every arrival n <= done is covered by a round that started after it and succeeded
//   failed every arrival done < n <= failed belongs to a round that failed (answered 500, retried)
//   sealer the token of the process that sealed the round last (FINISH records only into the count it sealed)
//   lock   the lease of the process running the order's round (token, expiry)

/** KEYS: hash. ARGV: now, ttl. Counts an arrival, opens the window if none is open. Returns n. */
export const ARRIVE = `
local n = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('HSETNX', KEYS[1], 'open', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n`;

/**
 * KEYS: hash, lock. ARGV: want (highest n waiting here), token, leaseMs.
 * Takes the lease when an arrival up to `want` is neither done nor failed and nobody holds it.
 * Returns { done, failed, acquired (0/1), open ('' when none) }.
 */
export const STEP = `
local v = redis.call('HMGET', KEYS[1], 'done', 'failed', 'open')
local done = tonumber(v[1]) or 0
local failed = tonumber(v[2]) or 0
local want = tonumber(ARGV[1])
local acquired = 0
if want > done and want > failed then
  if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3]) then acquired = 1 end
end
return { done, failed, acquired, v[3] or '' }`;

/**
 * KEYS: hash. ARGV: want (highest n waiting in the lead's process), ttl, token. Seals the round: every arrival
 * so far is covered by the fetch that starts now. Returns m. Counters that vanished (a short ttl, an eviction)
 * under waiting calls start again from `want`, so the round covers those calls, and later arrivals number above
 * it. `sealer` tells FINISH that the count it records into is this one.
 */
export const SEAL = `
local m = math.max(tonumber(redis.call('HGET', KEYS[1], 'seq')) or 0, tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'seq', m, 'sealer', ARGV[3])
redis.call('HDEL', KEYS[1], 'open')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return m`;

/** KEYS: lock. ARGV: token, leaseMs. Extends the lease while its holder still has it. */
export const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** KEYS: lock. ARGV: token. Frees the lease of a lead that gives up before its round (nothing recorded). */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * KEYS: hash, lock. ARGV: token, m, ok (1/0), ttl. Records the round's outcome and frees the lease. Counters that
 * vanished while the round ran (a new count began, which this round's m does not describe) get no outcome: the
 * calls numbered there are answered by a round of their own.
 */
export const FINISH = `
if redis.call('HGET', KEYS[1], 'sealer') == ARGV[1] then
  local field = 'failed'
  if ARGV[3] == '1' then field = 'done' end
  local current = tonumber(redis.call('HGET', KEYS[1], field)) or 0
  if tonumber(ARGV[2]) > current then redis.call('HSET', KEYS[1], field, ARGV[2]) end
end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;
