-- Per-host politeness at fetch time, shared by all workers. A worker may fetch from a host once
-- the host's gate is open; taking it closes the gate until that request's response has begun
-- (ungate.lua; or, if that never comes, until `hold` runs out), and the response reopens it an
-- interval later. So two requests to a host never start less than an interval apart, whatever
-- delays a busy worker has between taking the gate and sending (Nutch's fetcher.server.delay:
-- the delay runs from the end of one request to the start of the next).
-- ARGV: host, hold ms, token. Returns 0 (taken) or the ms to wait before asking again.
local lost = check_alive()
if lost then return lost end
local now = now_ms()
local host = ARGV[1]
local nxt = math.max(tonumber(redis.call('HGET', G .. 'gate', host) or 0), tonumber(redis.call('HGET', G .. 'gpause', host) or 0))
if nxt > now then return nxt - now end
redis.call('HSET', G .. 'gate', host, now + tonumber(ARGV[2]))
redis.call('HSET', G .. 'gateh', host, ARGV[3])
return 0
