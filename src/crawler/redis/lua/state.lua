-- The crawl's counters, and whether it is finished for all workers together: nothing pending and
-- nothing leased (or the page budget spent and nothing leased). The first worker to see it
-- finished records it (and is told so: it exports the items). Also records this worker's
-- heartbeat for `gleaner status` ("<Redis ms> <JSON>").
-- A crawl that has seen no URL yet is not finished (its seeds are being added).
-- ARGV: maxPages (0: none), worker id ('' for a read-only look), worker info JSON, 1 to record
--       the finish (0: only look).
-- Returns {finished, won, now, pending, leased, ok, failed, skipped, seen, items, dupItems,
--          granted, requeued, refused}.
if redis.call('EXISTS', META) == 0 then return { -1 } end
local now = now_ms()
local v = redis.call('HMGET', META, 'pending', 'ok', 'failed', 'skipped', 'sn', 'items', 'dupItems', 'granted', 'requeued', 'refused', 'finished')
local pending = tonumber(v[1]) or 0
local ok = tonumber(v[2]) or 0
local leased = redis.call('ZCARD', G .. 'leases')
local maxPages = tonumber(ARGV[1])
local finished = v[11] and 1 or 0
local won = 0
local seen = tonumber(v[5]) or 0
if finished == 0 and ARGV[4] == '1' and seen > 0 and leased == 0 and (pending == 0 or (maxPages > 0 and ok >= maxPages)) then
  finished = 1
  won = redis.call('HSETNX', META, 'finished', now)
end
if ARGV[2] ~= '' then redis.call('HSET', G .. 'workers', ARGV[2], now .. ' ' .. ARGV[3]) end
return { finished, won, now, pending, leased, ok, tonumber(v[3]) or 0, tonumber(v[4]) or 0, tonumber(v[5]) or 0,
  tonumber(v[6]) or 0, tonumber(v[7]) or 0, tonumber(v[8]) or 0, tonumber(v[9]) or 0, tonumber(v[10]) or 0 }
