-- Shared by every script (prepended when the scripts are loaded; see ../scripts.ts).
-- KEYS[1] is the crawl's meta hash, "<prefix>meta"; every other key of the crawl is "<prefix>…"
-- with the same prefix, so all keys of one crawl share one Redis Cluster hash tag (one slot).
local META = KEYS[1]
local G = string.sub(META, 1, -5)
local LOAD = {{SEEN_BUCKET_LOAD}}

-- Redis's own clock in milliseconds: every deadline and politeness slot is on this clock, so
-- workers on machines with skewed clocks agree.
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The crawl was cleared (--fresh, a finished crawl started over) or Redis lost it (restarted
-- without persistence): refuse before writing anything.
local function check_alive()
  if redis.call('EXISTS', META) == 0 then
    return redis.error_reply('GLEANER_LOST crawl state not found (cleared by --fresh, or Redis restarted without persistence)')
  end
  return nil
end

-- First 4 bytes of an 8-byte digest as an unsigned integer (exact in a Lua double).
local function h32(d)
  local a, b, c, e = string.byte(d, 1, 4)
  return ((a * 256 + b) * 256 + c) * 256 + e
end

-- A set of 8-byte digests in bucketed hashes, grown by linear hashing (Litwin 1980): bucket i of
-- 2^L + S buckets holds the digests whose h32 mod 2^L is i (mod 2^(L+1) for buckets already split
-- this round). When the mean load passes LOAD one bucket (the split pointer S) is split, so every
-- bucket stays small enough for Redis's compact listpack encoding whatever the crawl's size.
local function lh_open(ns)
  local v = redis.call('HMGET', META, ns .. 'L', ns .. 'S', ns .. 'n')
  return { ns = ns, L = tonumber(v[1]) or 0, S = tonumber(v[2]) or 0, n = tonumber(v[3]) or 0, dirty = false }
end

local function lh_bucket(s, h)
  local m = 2 ^ s.L
  local i = h % m
  if i < s.S then i = h % (2 * m) end
  return G .. s.ns .. ':' .. i
end

local function lh_has(s, d)
  return redis.call('HEXISTS', lh_bucket(s, h32(d)), d) == 1
end

local function lh_split(s)
  local m = 2 ^ s.L
  local src = G .. s.ns .. ':' .. s.S
  local dst = G .. s.ns .. ':' .. (s.S + m)
  local moved, pairs_ = {}, {}
  for _, f in ipairs(redis.call('HKEYS', src)) do
    if h32(f) % (2 * m) ~= s.S then
      moved[#moved + 1] = f
      pairs_[#pairs_ + 1] = f
      pairs_[#pairs_ + 1] = 1
    end
  end
  if #moved > 0 then
    redis.call('HSET', dst, unpack(pairs_))
    redis.call('HDEL', src, unpack(moved))
  end
  s.S = s.S + 1
  if s.S == m then
    s.L = s.L + 1
    s.S = 0
  end
end

-- Add a digest; true when it was not in the set.
local function lh_add(s, d)
  if redis.call('HSETNX', lh_bucket(s, h32(d)), d, 1) == 0 then return false end
  s.n = s.n + 1
  s.dirty = true
  if s.n > LOAD * (2 ^ s.L + s.S) then lh_split(s) end
  return true
end

local function lh_close(s)
  if s.dirty then redis.call('HSET', META, s.ns .. 'L', s.L, s.ns .. 'S', s.S, s.ns .. 'n', s.n) end
end

-- A host that has queued requests is in the ready set, scored by the earliest time the next
-- request to it may be leased (kept in "hnext" while its queue is empty).
local function ready_host(host)
  if not redis.call('ZSCORE', G .. 'ready', host) then
    local nx = tonumber(redis.call('HGET', G .. 'hnext', host) or 0)
    redis.call('ZADD', G .. 'ready', nx, host)
  end
end

-- A lease ends without a result (expired, its worker restarted, or handed back): the request goes
-- back to the front of its host's queue.
local function requeue(d)
  local lp = redis.call('HGET', G .. 'lp', d)
  redis.call('ZREM', G .. 'leases', d)
  redis.call('HDEL', G .. 'lo', d)
  if not lp then return false end
  redis.call('HDEL', G .. 'lp', d)
  local nl = string.find(lp, '\n', 1, true)
  local host = string.sub(lp, 1, nl - 1)
  redis.call('LPUSH', G .. 'q:' .. host, d .. string.sub(lp, nl + 1))
  ready_host(host)
  redis.call('HINCRBY', META, 'pending', 1)
  redis.call('HINCRBY', META, 'requeued', 1)
  return true
end
