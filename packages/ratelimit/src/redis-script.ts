/**
 * The bucket arithmetic of bucket.ts in Lua, so take/observe are atomic in Redis. Every function mirrors
 * the TypeScript one of the same name, and every constant comes from `TUNING` (passed as JSON): the two
 * are checked against each other by a differential property test on a real redis-server.
 *
 * KEYS[1] ticket counter, KEYS[2] set of bucket names, then per bucket: its hash and its in-flight zset.
 * ARGV: mode ('take' | 'observe' | 'snapshot'), now (ms), use redis TIME ('1' | '0'), JSON payload,
 * JSON tuning, ttl (ms), stale (ms).
 * In-flight members are "<ticket>:<dispatch ms>:<take count>:<owner>:<foreign>" scored by ticket (owner: the
 * store instance that took it; foreign: other owners' requests open then). An answer that never comes (a
 * crashed process) is forgotten after `stale` ms.
 *
 * With Redis TIME (`shift`), the caller's times (an answer's sentAt, answeredAt, pauseUntil) move to Redis's
 * clock and the times answered (retryAt, pausedUntil) back to the caller's, which it waits on: a host whose
 * clock is off from Redis's must neither retry at once (a retryAt already past) nor wait the skew longer.
 * The ticket counter and the set of names serve every bucket of the key (`keepAtLeast`): a bucket with a short
 * window must not shorten their life below that of one with a long window (a restarted ticket count reads
 * every answer as older than one applied; a lost name leaves the bucket out of snapshots).
 */
export const BUCKET_SCRIPT = `
local mode = ARGV[1]
local now = tonumber(ARGV[2])
local shift = 0
if ARGV[3] == '1' then
  local t = redis.call('TIME')
  local redisNow = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  shift = redisNow - now
  now = redisNow
end
local payload = cjson.decode(ARGV[4])
local T = cjson.decode(ARGV[5])
local ttl = tonumber(ARGV[6])
local stale = tonumber(ARGV[7])

local FIELDS = { 'quota', 'windowSeconds', 'level', 'tokens', 'at', 'share', 'others', 'sampled', 'seenAt',
  'grownAt', 'cutAt', 'pausedUntil', 'taken', 'refunded', 'lastTicket', 'live', 'probing', 'refAt', 'refBalance',
  'refSeq', 'refRefunded', 'refRate', 'refSlack', 'unseenRate', 'unseenAt', 'rttMs', 'paceUntil', 'paceLevel' }
local FLAGS = { sampled = true, live = true, probing = true }

local function newBucket(quota, windowSeconds)
  return { quota = quota, windowSeconds = windowSeconds, level = quota, tokens = quota, at = now, share = 1,
    others = 0, sampled = false, grownAt = now, cutAt = -1, seenAt = now, pausedUntil = 0, taken = 0,
    refunded = 0, lastTicket = -1, live = false, probing = false, refAt = -1, refBalance = 0, refSeq = 0,
    refRefunded = 0, refRate = quota / windowSeconds, refSlack = 0, unseenRate = 0, unseenAt = now, rttMs = 0,
    paceUntil = 0, paceLevel = 0 }
end

local function loadInflight(b)
  b.inflight = {}
  for _, m in ipairs(redis.call('ZRANGE', b.z, 0, -1)) do
    local ticket, at, seq, owner, foreign = string.match(m, '^([^:]*):([^:]*):([^:]*):([^:]*):([^:]*)$')
    if now - tonumber(at) > stale then
      redis.call('ZREM', b.z, m)
    else
      table.insert(b.inflight, { ticket = tonumber(ticket), seq = tonumber(seq), owner = owner,
        foreign = tonumber(foreign), member = m })
    end
  end
end

-- The bucket at key index i, created from (quota, windowSeconds) when Redis has none and both are given.
local function load(i, name, quota, windowSeconds)
  local h = KEYS[1 + 2 * i]
  local v = redis.call('HMGET', h, unpack(FIELDS))
  local b
  if v[1] then
    b = {}
    for j, f in ipairs(FIELDS) do
      if FLAGS[f] then b[f] = v[j] == '1' else b[f] = tonumber(v[j]) end
    end
  elseif quota ~= nil and windowSeconds ~= nil then
    b = newBucket(quota, windowSeconds)
    redis.call('SADD', KEYS[2], name)
  else
    return nil
  end
  b.h = h
  b.z = KEYS[2 + 2 * i]
  loadInflight(b)
  return b
end

local function keepAtLeast(k, ms)
  local left = redis.call('PTTL', k)
  if left == -1 or (left >= 0 and left < ms) then redis.call('PEXPIRE', k, ms) end
end

local function save(b)
  local args = {}
  for _, f in ipairs(FIELDS) do
    table.insert(args, f)
    if FLAGS[f] then
      table.insert(args, b[f] and '1' or '0')
    else
      table.insert(args, string.format('%.17g', b[f]))
    end
  end
  redis.call('HSET', b.h, unpack(args))
  local keep = math.max(ttl, b.windowSeconds * 2000)
  redis.call('PEXPIRE', b.h, keep)
  redis.call('PEXPIRE', b.z, keep)
  keepAtLeast(KEYS[2], keep)
  keepAtLeast(KEYS[1], keep)
end

local function rateOf(b) return b.quota / b.windowSeconds end
local function effectiveRate(b) return rateOf(b) * b.share end
local function levelRate(b) return rateOf(b) * math.max(T.minShare, 1 - b.others) end
local function foreignRate(b) return rateOf(b) * b.others end
local function congestionLevel(b)
  return math.min(b.quota * T.reserveQuotaPart, rateOf(b) * T.reserveSeconds) + 1
end
local function reserveOf(b) return math.min(b.quota * T.reserveQuotaPart, foreignRate(b) * T.reserveSeconds) end
local function unseenNow(b) return b.unseenRate * 0.5 ^ (math.max(0, now - b.unseenAt) / T.unseenHalfLifeMs) end
local function onTheirWay(b) return math.min(b.quota * T.onTheirWayQuotaPart, unseenNow(b) * (b.rttMs / 1000)) end

local function freeOf(b) return math.max(1, b.quota * T.paceFreeQuotaPart) end
local function paceMs(b) return math.min(T.startPaceMs, b.windowSeconds * 1000) end
local function paceLeft(b, t)
  if t >= b.paceUntil then return 0 end
  local x = math.max(0, 1 - (b.paceUntil - t) / paceMs(b))
  return 1 - x * x * (3 - 2 * x)
end
local function startFloor(b, t)
  if t >= b.paceUntil then return 0 end
  local sincePace = (rateOf(b) * math.max(0, t - b.paceUntil + paceMs(b))) / 1000
  return math.max(0, math.min(b.paceLevel * paceLeft(b, t), b.quota - freeOf(b) - sincePace))
end

local function paceAt(b, target)
  local start = b.paceUntil - paceMs(b)
  local linear = start + ((b.quota - freeOf(b) - target) / rateOf(b)) * 1000
  local y = math.min(1, math.max(0, 1 - target / b.paceLevel))
  local smooth = start + paceMs(b) * (0.5 - math.sin(math.asin(1 - 2 * y) / 3))
  return math.min(b.paceUntil, linear, smooth)
end

local function refill(b)
  local cap = b.quota - #b.inflight
  if now > b.at then
    local dt = (now - b.at) / 1000
    b.level = math.min(cap, b.level + levelRate(b) * dt)
    local paced = 0
    if b.paceUntil > b.at then paced = b.share * (startFloor(b, b.at) - startFloor(b, now)) end
    b.tokens = math.min(b.level, b.tokens + effectiveRate(b) * dt + paced)
    b.at = now
  end
  if b.level > cap then b.level = cap end
  if b.sampled and b.others <= T.sharedAbove then
    local floor = b.level - (1 - b.share) * b.quota - 1
    if b.tokens < floor then b.tokens = floor end
  end
  if b.tokens > b.level then b.tokens = b.level end
end

local function staleMs(b) return math.max(T.staleFloorMs, (b.windowSeconds * 1000) / T.staleWindowParts) end

local function readyAt(b)
  local reserve = math.max(math.max(0, reserveOf(b) - math.max(0, b.tokens - 1)), onTheirWay(b))
  local claimAt = now
  if b.tokens < 1 then claimAt = now + ((1 - b.tokens) / effectiveRate(b)) * 1000 end
  local short = 1 + reserve - b.level
  local levelAt = now
  if short > 0 then levelAt = now + (short / levelRate(b)) * 1000 end
  local floor = startFloor(b, now)
  if floor > reserve and 1 + floor - b.level > 0 then
    levelAt = math.max(levelAt, math.min(now + ((1 + floor - b.level) / levelRate(b)) * 1000, paceAt(b, b.level - 1)))
  end
  if b.live and #b.inflight == 0 then levelAt = math.min(levelAt, b.seenAt + staleMs(b)) end
  return math.max(claimAt, levelAt, b.pausedUntil, now)
end

local function dispatch(b, ticket, owner)
  b.tokens = b.tokens - 1
  b.level = b.level - 1
  b.taken = b.taken + 1
  local foreign = 0
  for _, f in ipairs(b.inflight) do
    if f.owner ~= owner then foreign = foreign + 1 end
  end
  local member = ticket .. ':' .. string.format('%.17g', now) .. ':' .. b.taken .. ':' .. owner .. ':' .. foreign
  table.insert(b.inflight, { ticket = ticket, seq = b.taken, owner = owner, foreign = foreign, member = member })
  redis.call('ZADD', b.z, ticket, member)
end

local function settle(b, ticket)
  if ticket == nil then return nil end
  for i, f in ipairs(b.inflight) do
    if f.ticket == ticket then
      redis.call('ZREM', b.z, f.member)
      table.remove(b.inflight, i)
      return f
    end
  end
  return nil
end

local function onTheWay(b, ticket, settled)
  local older = 0
  local newer = 0
  for _, f in ipairs(b.inflight) do
    if ticket == nil or f.ticket > ticket then newer = newer + 1 else older = older + 1 end
  end
  local unsure = 0
  if settled then unsure = settled.foreign end
  return { older = older, newer = newer, unsure = unsure }
end

local function noteUnseen(b, unseen, sinceLastAnswer)
  if b.sampled or unseen <= 1 then return end
  local paced = 0
  if b.rttMs > 0 then paced = (unseen * #b.inflight * 1000) / b.rttMs end
  local rate = math.max((unseen * 1000) / math.max(1, sinceLastAnswer), paced)
  b.unseenRate = math.max(rate, unseenNow(b))
  b.unseenAt = now
end

local function isInteger(x) return x == math.floor(x) and x > -math.huge and x < math.huge end

local function correctLevel(b, way, remaining, reset)
  local rate = rateOf(b)
  local lo = remaining
  local hi = remaining + 1
  if remaining == 0 and reset ~= nil and reset > 0 then
    lo = math.max(0, 1 - reset * rate)
    if isInteger(reset) then hi = math.min(1, 1 - (reset - 1) * rate) else hi = math.min(1, lo + T.fractionalResetWidth) end
  end
  local after = way.newer
  local unsure = way.unsure
  if not b.live then
    b.level = lo - after - unsure
    b.tokens = b.level
    b.live = true
  else
    local predicted = b.level + after
    if predicted >= hi + T.tolerance or predicted < lo - unsure - T.tolerance then
      local level = lo - after - unsure
      if level > b.level then b.tokens = b.tokens + (level - b.level) * b.share end
      b.level = level
    end
  end
  b.tokens = math.min(b.tokens, b.level, lo * b.share - after - unsure)
  return lo, (lo + hi) / 2
end

local function followPace(b, lo)
  if startFloor(b, now) > lo then b.paceLevel = lo / paceLeft(b, now) end
end

local function startPace(b, sentAt, lo)
  b.paceUntil = sentAt + paceMs(b)
  b.paceLevel = b.quota
  if lo < b.quota * T.paceBelowQuotaPart then
    b.paceUntil = 0
  elseif now < b.paceUntil then
    followPace(b, lo)
  end
end

local function startWindow(b, at, balance, seq, slack)
  b.refAt = at
  b.refSlack = slack
  b.refBalance = balance
  b.refSeq = seq
  b.refRefunded = b.refunded
  b.refRate = rateOf(b)
end

local function measure(b, seq, balance, sentAt, answeredAt, way)
  local rate = rateOf(b)
  local at = sentAt
  local elapsed = at - b.refAt
  local inTransit = (rate * math.max(0, answeredAt - at)) / 1000
  if b.refAt < 0 or elapsed < 0 or b.refRate ~= rate then
    startWindow(b, at, balance, seq, way.older + way.unsure + inTransit)
    return
  end
  local ours = seq - b.refSeq - (b.refunded - b.refRefunded)
  local spent = (rate * elapsed) / 1000 + b.refBalance - balance
  local slack = b.refSlack + way.newer + way.unsure + inTransit
  if spent < math.max(T.windowTokens, 3 * slack) and elapsed < T.windowMs then return end
  if b.refBalance + (rate * elapsed) / 1000 < b.quota - 1 and balance < b.quota - 1 and ours > 0 then
    local excess = math.max(0, spent - ours - 1)
    local others = excess
    if excess <= slack then others = 0 end
    local measured = others / (ours + others)
    local sample = 0
    if measured > 1 - T.aloneAbove then sample = math.min(1 - T.minShare, measured) end
    local tau = T.windowTokens
    if b.sampled then tau = T.tauTokens end
    local weight = math.min(1, (ours + others) / tau)
    b.others = b.others + (sample - b.others) * weight
    if not b.sampled then b.share = math.max(T.minShare, 1 - sample) end
    b.sampled = true
  end
  startWindow(b, at, balance, seq, way.older + way.unsure + inTransit)
end

local function steerShare(b, balance)
  local windowMs = b.windowSeconds * 1000
  local elapsed = math.max(0, now - b.grownAt)
  b.grownAt = now
  if b.others > T.sharedAbove and balance < congestionLevel(b) then
    if b.cutAt < 0 or now - b.cutAt >= T.cutEvery * windowMs then
      b.share = math.max(T.minShare, b.share * T.decrease)
      b.cutAt = now
    end
    return
  end
  b.share = math.min(1, b.share + (T.increasePerWindow * elapsed) / windowMs)
end

local function observe(b, ticket, o)
  refill(b)
  local settled = settle(b, ticket)
  local seq = nil
  if settled then seq = settled.seq end
  if o.refund and seq ~= nil then
    b.tokens = b.tokens + 1
    b.level = b.level + 1
    b.refunded = b.refunded + 1
  end
  if o.quota ~= nil and o.quota >= 0 then b.quota = o.quota end
  if o.windowSeconds ~= nil and o.windowSeconds > 0 then b.windowSeconds = o.windowSeconds end
  if o.pauseUntil ~= nil and o.pauseUntil > b.pausedUntil then b.pausedUntil = o.pauseUntil end
  refill(b)
  if o.seen and not b.live then b.live = true end
  if o.pauseUntil ~= nil then
    b.probing = true
    if o.refund and seq ~= nil and b.others > T.sharedAbove then
      b.share = math.max(T.minShare, b.share * T.decreaseOn429)
      b.cutAt = now
    end
  elseif o.seen or (o.remaining ~= nil and not o.refund) then
    b.probing = false
  end
  if o.remaining == nil then return end
  if ticket ~= nil then
    if ticket < b.lastTicket then return end
    b.lastTicket = ticket
  end
  local previousSeen = b.seenAt
  b.seenAt = now
  local answeredAt = now
  if o.answeredAt ~= nil then answeredAt = o.answeredAt end
  if o.sentAt ~= nil then
    local rtt = math.max(0, answeredAt - o.sentAt)
    if b.rttMs == 0 then b.rttMs = rtt else b.rttMs = b.rttMs + (rtt - b.rttMs) * T.rttWeight end
  end
  local way = onTheWay(b, ticket, settled)
  local first = not b.live
  local before = b.level
  local lo, balance = correctLevel(b, way, o.remaining, o.resetSeconds)
  if first and o.sentAt ~= nil then
    startPace(b, o.sentAt, lo)
  elseif b.paceUntil > now then
    followPace(b, lo)
  end
  noteUnseen(b, before - b.level - way.unsure, now - previousSeen)
  steerShare(b, lo)
  local sentAt = now
  if o.sentAt ~= nil then sentAt = o.sentAt end
  if seq ~= nil then measure(b, seq, balance, sentAt, answeredAt, way) end
end

-- Buckets loaded by this call, by name: one state per name, saved once at the end.
local names = {}
for i, name in ipairs(payload.names) do names[name] = i end
local loaded = {}
local order = {}
local function bucket(name, quota, windowSeconds)
  local b = loaded[name]
  if b == nil then
    b = load(names[name], name, quota, windowSeconds)
    if b then
      loaded[name] = b
      table.insert(order, b)
    end
  end
  return b
end
local function exact(x) return string.format('%.17g', x) end
local function saveAll() for _, b in ipairs(order) do save(b) end end

if mode == 'take' then
  local buckets = {}
  local retryAt = now
  local pausedUntil = 0
  for i, spec in ipairs(payload.buckets) do
    local b = bucket(spec.name, spec.quota, spec.windowSeconds)
    refill(b)
    if ((not b.live) or b.probing) and #b.inflight > 0 then retryAt = math.huge end
    retryAt = math.max(retryAt, readyAt(b))
    if b.pausedUntil > pausedUntil then pausedUntil = b.pausedUntil end
    buckets[i] = b
  end
  if retryAt > now then
    saveAll()
    return { 0, exact(retryAt - shift), exact(pausedUntil > now and pausedUntil - shift or 0) }
  end
  local ticket = redis.call('INCR', KEYS[1])
  for _, b in ipairs(buckets) do dispatch(b, ticket, payload.owner) end
  saveAll()
  return { 1, tostring(ticket) }
elseif mode == 'observe' then
  local ticket = payload.ticket
  local observed = {}
  for _, o in ipairs(payload.observations) do
    if o.sentAt ~= nil then o.sentAt = o.sentAt + shift end
    if o.answeredAt ~= nil then o.answeredAt = o.answeredAt + shift end
    if o.pauseUntil ~= nil then o.pauseUntil = o.pauseUntil + shift end
    observed[o.name] = true
    local b = bucket(o.name, o.quota, o.windowSeconds)
    if b then observe(b, ticket, o) end
  end
  for _, name in ipairs(payload.taken) do
    if not observed[name] then
      local b = bucket(name, nil, nil)
      if b then
        refill(b)
        settle(b, ticket)
      end
    end
  end
  saveAll()
  return 1
else
  local out = {}
  for _, name in ipairs(payload.names) do
    local b = bucket(name, nil, nil)
    if b then
      refill(b)
      -- Numbers as text: cjson writes 14 significant digits, the stores must agree to the last bit.
      out[name] = { quota = exact(b.quota), windowSeconds = exact(b.windowSeconds), tokens = exact(b.tokens),
        foreignPerSecond = exact(foreignRate(b)), share = exact(b.share), pausedUntil = exact(b.pausedUntil > 0 and b.pausedUntil - shift or 0),
        inflight = #b.inflight, live = b.live }
    end
  end
  return cjson.encode(out)
end
`;
