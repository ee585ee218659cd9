-- fetchNextRequest, batched, as leases: first every expired lease goes back to its host's queue;
-- then requests are leased from hosts whose next allowed time has come (or comes within the
-- look-ahead), each lease with a deadline on Redis's clock; the host's next allowed time is
-- booked in the same step, so all workers together keep its rate. The page budget (maxPages) is
-- one counter: successful pages + leases in flight never exceed it.
-- ARGV: worker id, max, lease ms, per-host interval ms (0: none), maxPages (0: none),
--       look-ahead ms, most expired leases reclaimed per call.
-- Returns {now, token1, payload1, token2, payload2, ...}.
local lost = check_alive()
if lost then return lost end
local now = now_ms()
local wid = ARGV[1]
local max = tonumber(ARGV[2])
local leaseMs = tonumber(ARGV[3])
local interval = tonumber(ARGV[4])
local maxPages = tonumber(ARGV[5])
local lookahead = tonumber(ARGV[6])
local reclaim = tonumber(ARGV[7])

for _, d in ipairs(redis.call('ZRANGEBYSCORE', G .. 'leases', '-inf', '(' .. now, 'LIMIT', 0, reclaim)) do
  requeue(d)
end

local want = max
if maxPages > 0 then
  local ok = tonumber(redis.call('HGET', META, 'ok') or 0)
  local room = maxPages - ok - redis.call('ZCARD', G .. 'leases')
  if room < want then want = room end
end
local out = { now }
if want <= 0 then return out end

local hosts = redis.call('ZRANGEBYSCORE', G .. 'ready', '-inf', now + lookahead, 'WITHSCORES', 'LIMIT', 0, want)
local nh = #hosts / 2
local seq = tonumber(redis.call('HGET', META, 'lseq') or 0)
local granted = 0
for k = 1, nh do
  local left = want - granted
  if left <= 0 then break end
  local host = hosts[2 * k - 1]
  local at = math.max(tonumber(hosts[2 * k]), now)
  local take
  if interval > 0 then
    -- the host's free slots from its next allowed time up to the look-ahead
    take = math.floor((now + lookahead - at) / interval) + 1
  else
    -- no rate: share what is wanted among the ready hosts
    take = math.ceil(left / (nh - k + 1))
  end
  if take > left then take = left end
  local q = G .. 'q:' .. host
  local items = redis.call('LPOP', q, take)
  if items then
    for _, e in ipairs(items) do
      local d = string.sub(e, 1, 8)
      local p = string.sub(e, 9)
      seq = seq + 1
      local token = wid .. '#' .. seq
      redis.call('ZADD', G .. 'leases', now + leaseMs, d)
      redis.call('HSET', G .. 'lo', d, token)
      redis.call('HSET', G .. 'lp', d, host .. '\n' .. p)
      out[#out + 1] = token
      out[#out + 1] = p
      if interval > 0 then at = at + interval end
      granted = granted + 1
    end
    local nextAt = interval > 0 and at or now
    if redis.call('LLEN', q) == 0 then
      redis.call('ZREM', G .. 'ready', host)
      redis.call('HSET', G .. 'hnext', host, nextAt)
    else
      redis.call('ZADD', G .. 'ready', nextAt, host)
    end
  else
    redis.call('ZREM', G .. 'ready', host) -- an empty queue left in the ready set: repair
  end
end
if granted > 0 then
  redis.call('HINCRBY', META, 'pending', -granted)
  redis.call('HINCRBY', META, 'granted', granted)
  redis.call('HSET', META, 'lseq', seq)
end
return out
