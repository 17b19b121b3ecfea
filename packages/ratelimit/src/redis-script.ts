/**
 * The bucket arithmetic of src/bucket.ts in Lua, so take/observe are atomic in Redis. Keep the two in step.
 *
 * KEYS[1] ticket counter, KEYS[2] set of bucket names, then per bucket: its hash and its in-flight zset.
 * ARGV: mode ('take' | 'observe' | 'snapshot'), now (ms), use redis TIME ('1' | '0'), JSON payload,
 * ttl (ms), stale (ms), tauTokens, windowTokens, windowMs, reserveSeconds, tolerance, minShare,
 * aloneAbove, increasePerWindow, decrease, cutEvery, sharedAbove.
 * In-flight members are "<ticket>:<dispatch ms>:<take count>:<owner>:<foreign>" scored by ticket (owner: the
 * store instance that took it; foreign: other owners' requests open then); members written by an older
 * version, without the last two fields, read as owner '' and foreign 0. An answer that never comes (a
 * crashed process) is forgotten after `stale` ms.
 */
export const BUCKET_SCRIPT = `
local mode = ARGV[1]
local now = tonumber(ARGV[2])
if ARGV[3] == '1' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local payload = cjson.decode(ARGV[4])
local ttl = tonumber(ARGV[5])
local stale = tonumber(ARGV[6])
local tauTokens = tonumber(ARGV[7])
local windowTokens = tonumber(ARGV[8])
local windowMs = tonumber(ARGV[9])
local reserveSeconds = tonumber(ARGV[10])
local tolerance = tonumber(ARGV[11])
local minShare = tonumber(ARGV[12])
local aloneAbove = tonumber(ARGV[13])
local increasePerWindow = tonumber(ARGV[14])
local decrease = tonumber(ARGV[15])
local cutEvery = tonumber(ARGV[16])
local sharedAbove = tonumber(ARGV[17])

local FIELDS = { 'quota', 'window', 'level', 'tokens', 'at', 'share', 'sampled', 'paused', 'taken', 'refunded',
  'last', 'live', 'refAt', 'refBalance', 'refSeq', 'refRefunded', 'others', 'grownAt', 'cutAt', 'probing', 'seenAt', 'refRate',
  'refSlack', 'unseenRate', 'unseenAt', 'rttMs' }

local function load(i, name, quota, window)
  local h = KEYS[1 + 2 * i]
  local z = KEYS[2 + 2 * i]
  local v = redis.call('HMGET', h, unpack(FIELDS))
  local b = {}
  if v[1] then
    for j, f in ipairs(FIELDS) do b[f] = tonumber(v[j]) end
    -- Written by an older version: no AIMD fields yet.
    b.others = b.others or 0
    b.grownAt = b.grownAt or now
    b.cutAt = b.cutAt or -1
    b.probing = b.probing or 0
    b.seenAt = b.seenAt or now
    b.refRate = b.refRate or (b.quota / b.window)
    b.refSlack = b.refSlack or 0
    b.unseenRate = b.unseenRate or 0
    b.unseenAt = b.unseenAt or now
    b.rttMs = b.rttMs or 0
  elseif quota and window then
    b = { quota = quota, window = window, level = quota, tokens = quota, at = now, share = 1, sampled = 0, paused = 0,
          taken = 0, refunded = 0, last = -1, live = 0, refAt = -1, refBalance = 0, refSeq = 0, refRefunded = 0,
          others = 0, grownAt = now, cutAt = -1, probing = 0, seenAt = now,
          refRate = quota / window, refSlack = 0,
          unseenRate = 0, unseenAt = now, rttMs = 0 }
    redis.call('SADD', KEYS[2], name)
  else
    return nil
  end
  b.h = h
  b.z = z
  b.inflight = {}
  b.seqs = {}
  b.owners = {}
  b.foreigns = {}
  b.members = {}
  local members = redis.call('ZRANGE', z, 0, -1)
  for _, m in ipairs(members) do
    local a = string.find(m, ':', 1, true)
    local c = string.find(m, ':', a + 1, true)
    local d = string.find(m, ':', c + 1, true)
    local ticket = tonumber(string.sub(m, 1, a - 1))
    local at = tonumber(string.sub(m, a + 1, c - 1))
    local seq
    local owner = ''
    local foreign = 0
    if d then
      local e = string.find(m, ':', d + 1, true)
      seq = tonumber(string.sub(m, c + 1, d - 1))
      owner = string.sub(m, d + 1, e - 1)
      foreign = tonumber(string.sub(m, e + 1))
    else
      seq = tonumber(string.sub(m, c + 1))
    end
    if now - at > stale then
      redis.call('ZREM', z, m)
    else
      table.insert(b.inflight, ticket)
      table.insert(b.seqs, seq)
      table.insert(b.owners, owner)
      table.insert(b.foreigns, foreign)
      table.insert(b.members, m)
    end
  end
  return b
end

local function rate(b) return b.quota / b.window end
local function effective(b) return rate(b) * b.share end
local function foreign(b) return rate(b) * b.others end
local function congestion(b) return math.min(b.quota * 0.05, rate(b) * reserveSeconds) + 1 end
local function unseenNow(b) return b.unseenRate * 0.5 ^ (math.max(0, now - b.unseenAt) / 500) end
local function reserve(b) return math.min(b.quota * 0.05, foreign(b) * reserveSeconds) end
local function onTheirWay(b) return math.min(b.quota * 0.5, unseenNow(b) * b.rttMs / 1000) end

local function levelRate(b) return rate(b) * math.max(minShare, 1 - b.others) end

local function refill(b)
  local cap = b.quota - #b.inflight
  if now > b.at then
    local dt = (now - b.at) / 1000
    b.level = math.min(cap, b.level + levelRate(b) * dt)
    b.tokens = math.min(b.level, b.tokens + effective(b) * dt)
    b.at = now
  end
  if b.level > cap then b.level = cap end
  if b.sampled == 1 and b.others <= sharedAbove then
    local floor = b.level - (1 - b.share) * b.quota - 1
    if b.tokens < floor then b.tokens = floor end
  end
  if b.tokens > b.level then b.tokens = b.level end
end

local function readyAt(b)
  local held = math.max(math.max(0, reserve(b) - math.max(0, b.tokens - 1)), onTheirWay(b))
  local claimAt = now
  if b.tokens < 1 then claimAt = now + (1 - b.tokens) / effective(b) * 1000 end
  local short = 1 + held - b.level
  local levelAt = now
  if short > 0 then levelAt = now + short / levelRate(b) * 1000 end
  if b.live == 1 and #b.inflight == 0 then
    levelAt = math.min(levelAt, b.seenAt + math.max(250, b.window * 1000 / 24))
  end
  return math.max(claimAt, levelAt, b.paused, now)
end

local function save(b)
  local args = {}
  for _, f in ipairs(FIELDS) do
    table.insert(args, f)
    table.insert(args, string.format('%.17g', b[f]))
  end
  redis.call('HSET', b.h, unpack(args))
  local keep = math.max(ttl, b.window * 2000)
  redis.call('PEXPIRE', b.h, keep)
  redis.call('PEXPIRE', b.z, keep)
  redis.call('PEXPIRE', KEYS[2], keep)
end

local function settle(b, ticket)
  if not ticket then return nil, 0 end
  for i, t in ipairs(b.inflight) do
    if t == ticket then
      local seq = b.seqs[i]
      local foreign = b.foreigns[i]
      redis.call('ZREM', b.z, b.members[i])
      table.remove(b.inflight, i)
      table.remove(b.seqs, i)
      table.remove(b.owners, i)
      table.remove(b.foreigns, i)
      table.remove(b.members, i)
      return seq, foreign
    end
  end
  return nil, 0
end

local function startWindow(b, at, balance, seq, slack)
  b.refAt = at
  b.refSlack = slack
  b.refBalance = balance
  b.refSeq = seq
  b.refRefunded = b.refunded
  b.refRate = rate(b)
end

local function steer(b, balance)
  local windowMs = b.window * 1000
  local elapsed = math.max(0, now - b.grownAt)
  b.grownAt = now
  if b.others > sharedAbove and balance < congestion(b) then
    if b.cutAt < 0 or now - b.cutAt >= cutEvery * windowMs then
      b.share = math.max(minShare, b.share * decrease)
      b.cutAt = now
    end
    return
  end
  b.share = math.min(1, b.share + increasePerWindow * elapsed / windowMs)
end

local function observe(b, ticket, o)
  refill(b)
  local seq, unsure = settle(b, ticket)
  if o.refund and seq then
    b.tokens = b.tokens + 1
    b.level = b.level + 1
    b.refunded = b.refunded + 1
  end
  if o.quota and o.quota >= 0 then b.quota = o.quota end
  if o.windowSeconds and o.windowSeconds > 0 then b.window = o.windowSeconds end
  if o.pauseUntil and o.pauseUntil > b.paused then b.paused = o.pauseUntil end
  refill(b)
  if o.seen and b.live == 0 then b.live = 1 end
  if o.pauseUntil then
    b.probing = 1
    if o.refund and seq and b.others > sharedAbove then
      b.share = math.max(minShare, b.share * 0.5)
      b.cutAt = now
    end
  elseif o.seen or (o.remaining ~= nil and not o.refund) then
    b.probing = 0
  end
  if o.remaining == nil then return end
  if ticket then
    if ticket < b.last then return end
    b.last = ticket
  end
  local previousSeen = b.seenAt
  b.seenAt = now
  if o.sentAt then
    local rtt = math.max(0, (o.answeredAt or o.sentAt) - o.sentAt)
    if b.rttMs == 0 then b.rttMs = rtt else b.rttMs = b.rttMs + (rtt - b.rttMs) * 0.2 end
  end
  local before = b.level
  local after = 0
  local older = 0
  for _, t in ipairs(b.inflight) do
    if (not ticket) or t > ticket then after = after + 1 else older = older + 1 end
  end
  local r = rate(b)
  local lo = o.remaining
  local hi = o.remaining + 1
  local reset = o.resetSeconds
  if o.remaining == 0 and reset and reset > 0 then
    if reset == math.floor(reset) then
      lo = math.max(0, 1 - reset * r)
      hi = math.min(1, 1 - (reset - 1) * r)
    else
      lo = math.max(0, 1 - reset * r)
      hi = math.min(1, lo + 0.05)
    end
  end
  local balance = (lo + hi) / 2
  if b.live == 0 then
    b.level = lo - after - unsure
    b.tokens = b.level
    b.live = 1
  else
    local predicted = b.level + after
    if predicted >= hi + tolerance or predicted < lo - unsure - tolerance then
      local level = lo - after - unsure
      if level > b.level then b.tokens = b.tokens + (level - b.level) * b.share end
      b.level = level
    end
  end
  b.tokens = math.min(b.tokens, b.level, lo * b.share - after - unsure)
  local unseen = before - b.level - unsure
  if b.sampled == 0 and unseen > 1 then
    local paced = 0
    if b.rttMs > 0 then paced = unseen * #b.inflight * 1000 / b.rttMs end
    b.unseenRate = math.max(unseen * 1000 / math.max(1, now - previousSeen), paced, unseenNow(b))
    b.unseenAt = now
  end
  steer(b, lo)

  if not seq then return end
  local at = o.sentAt or now
  local elapsed = at - b.refAt
  local inTransit = r * math.max(0, (o.answeredAt or at) - at) / 1000
  if b.refAt < 0 or elapsed < 0 or math.abs(b.refRate - r) > 1e-9 then
    startWindow(b, at, balance, seq, older + unsure + inTransit)
    return
  end
  local ours = seq - b.refSeq - (b.refunded - b.refRefunded)
  local spent = r * elapsed / 1000 + b.refBalance - balance
  local slack = b.refSlack + after + unsure + inTransit
  if spent < math.max(windowTokens, 3 * slack) and elapsed < windowMs then return end
  if b.refBalance + r * elapsed / 1000 < b.quota - 1 and balance < b.quota - 1 and ours > 0 then
    local others = math.max(0, spent - ours - 1)
    if others <= slack then others = 0 end
    local measured = others / (ours + others)
    local sample = 0
    if measured > 1 - aloneAbove then sample = math.min(1 - minShare, measured) end
    local weight = math.min(1, (ours + others) / windowTokens)
    if b.sampled == 1 then weight = math.min(1, (ours + others) / tauTokens) end
    b.others = b.others + (sample - b.others) * weight
    if b.sampled == 0 then b.share = math.max(minShare, 1 - sample) end
    b.sampled = 1
  end
  startWindow(b, at, balance, seq, older + unsure + inTransit)
end

if mode == 'take' then
  local buckets = {}
  local retryAt = now
  local awaiting = false
  for i, spec in ipairs(payload.buckets) do
    local b = load(i, spec.name, spec.quota, spec.windowSeconds)
    refill(b)
    if (b.live == 0 or b.probing == 1) and #b.inflight > 0 then awaiting = true end
    retryAt = math.max(retryAt, readyAt(b))
    buckets[i] = b
  end
  if awaiting then
    for _, b in ipairs(buckets) do save(b) end
    return { 2, 0 }
  end
  if retryAt > now then
    for _, b in ipairs(buckets) do save(b) end
    return { 0, math.ceil(retryAt) }
  end
  local ticket = redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
  local owner = payload.owner or ''
  for _, b in ipairs(buckets) do
    local foreign = 0
    for _, other in ipairs(b.owners) do
      if other ~= owner then foreign = foreign + 1 end
    end
    b.tokens = b.tokens - 1
    b.level = b.level - 1
    b.taken = b.taken + 1
    table.insert(b.inflight, ticket)
    redis.call('ZADD', b.z, ticket, ticket .. ':' .. now .. ':' .. b.taken .. ':' .. owner .. ':' .. foreign)
    save(b)
  end
  return { 1, ticket }
elseif mode == 'observe' then
  local ticket = payload.ticket
  for i, name in ipairs(payload.names) do
    local o = payload.observations[name]
    local b
    if o then
      b = load(i, name, o.quota, o.windowSeconds)
    else
      b = load(i, name, nil, nil)
    end
    if b then
      if o then
        observe(b, ticket, o)
      else
        refill(b)
        settle(b, ticket)
      end
      save(b)
    end
  end
  return 1
else
  local out = {}
  for i, name in ipairs(payload.names) do
    local b = load(i, name, nil, nil)
    if b then
      refill(b)
      out[name] = { quota = b.quota, windowSeconds = b.window, tokens = b.tokens, foreignPerSecond = foreign(b),
        share = b.share,
        pausedUntil = b.paused, inflight = #b.inflight, live = b.live == 1 }
    end
  end
  return cjson.encode(out)
end
`;
