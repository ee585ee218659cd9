-- The request that took a host's gate got its response (or failed): the gate opens an interval
-- from now. A token that no longer holds the gate (its hold ran out) changes nothing.
-- ARGV: host, token, interval ms. Returns 1 when released.
local lost = check_alive()
if lost then return lost end
local host = ARGV[1]
if redis.call('HGET', G .. 'gateh', host) ~= ARGV[2] then return 0 end
redis.call('HSET', G .. 'gate', host, now_ms() + tonumber(ARGV[3]))
redis.call('HDEL', G .. 'gateh', host)
return 1
