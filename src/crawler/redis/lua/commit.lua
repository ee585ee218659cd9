-- markRequestAsHandled, with the page's follow-ups and items, in one atomic step: the lease must
-- still be this worker's and unexpired (else refused: a late `done` from a worker presumed dead
-- changes nothing, and the worker now holding the page adds its links and item); the follow-ups
-- are added (idempotent: the seen-set, as add.lua); each item's key (kind + URL digest) is
-- claimed and the item appended to the items stream only if the claim is new; the URL is marked
-- done and the lease dropped. A page fetched again after a crash therefore writes its item once,
-- and nobody sees the crawl finished between a page's links and its commit.
-- Without a token (a URL reached by redirect, never leased): recorded as done if never seen.
-- ARGV: digest, token, outcome (ok|failed|skipped), n items, then n pairs (item digest, item JSON),
--       m follow-ups, then m triples (digest, host, payload).
-- Returns {status, stored, duplicates}: status 1 done, 0 already known, -1 lease lost, -2 expired.
local lost = check_alive()
if lost then return lost end
local d, tok, outcome = ARGV[1], ARGV[2], ARGV[3]
local n = tonumber(ARGV[4])
if tok == '' then
  local s = lh_open('s')
  local new = lh_add(s, d)
  lh_close(s)
  if not new then return { 0, 0, 0 } end
  redis.call('HINCRBY', META, outcome, 1)
  return { 1, 0, 0 }
end
local now = now_ms()
if redis.call('HGET', G .. 'lo', d) ~= tok then
  redis.call('HINCRBY', META, 'refused', 1)
  return { -1, 0, 0 }
end
local dl = tonumber(redis.call('ZSCORE', G .. 'leases', d))
if not dl or dl < now then
  requeue(d)
  redis.call('HINCRBY', META, 'refused', 1)
  return { -2, 0, 0 }
end
local m = tonumber(ARGV[5 + 2 * n] or 0)
if m > 0 then
  local s = lh_open('s')
  local added = 0
  for i = 0, m - 1 do
    local fd, host, p = ARGV[6 + 2 * n + 3 * i], ARGV[7 + 2 * n + 3 * i], ARGV[8 + 2 * n + 3 * i]
    if lh_add(s, fd) then
      redis.call('RPUSH', G .. 'q:' .. host, fd .. p)
      ready_host(host)
      added = added + 1
    end
  end
  lh_close(s)
  if added > 0 then redis.call('HINCRBY', META, 'pending', added) end
end
local stored, dup = 0, 0
if n > 0 then
  local items = lh_open('i')
  for i = 0, n - 1 do
    if lh_add(items, ARGV[5 + 2 * i]) then
      redis.call('XADD', G .. 'items', '*', 'j', ARGV[6 + 2 * i])
      stored = stored + 1
    else
      dup = dup + 1
    end
  end
  lh_close(items)
  if stored > 0 then redis.call('HINCRBY', META, 'items', stored) end
  if dup > 0 then redis.call('HINCRBY', META, 'dupItems', dup) end
end
redis.call('ZREM', G .. 'leases', d)
redis.call('HDEL', G .. 'lo', d)
redis.call('HDEL', G .. 'lp', d)
redis.call('HINCRBY', META, outcome, 1)
local wid = string.match(tok, '^(.*)#%d+$')
redis.call('HINCRBY', G .. 'wstat', wid .. ' ' .. outcome, 1)
if stored > 0 then redis.call('HINCRBY', G .. 'wstat', wid .. ' items', stored) end
return { 1, stored, dup }
