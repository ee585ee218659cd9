-- A host asked for a pause (429/503 with Retry-After): no worker leases or fetches from it
-- before then. ARGV: host, pause ms (from now, on Redis's clock).
local lost = check_alive()
if lost then return lost end
local host = ARGV[1]
local untilAt = now_ms() + tonumber(ARGV[2])
local g = tonumber(redis.call('HGET', G .. 'gpause', host) or 0)
if untilAt > g then redis.call('HSET', G .. 'gpause', host, untilAt) end
local h = tonumber(redis.call('HGET', G .. 'hnext', host) or 0)
if untilAt > h then redis.call('HSET', G .. 'hnext', host, untilAt) end
redis.call('ZADD', G .. 'ready', 'XX', 'GT', untilAt, host)
return 1
