-- Publish a worker's learned state of one site if it has seen more pages than the stored one.
-- KEYS[1] the sites hash (site key → JSON), KEYS[2] their weights (site key → pages).
-- ARGV: site key, weight, JSON. Returns the stored weight afterwards.
local cur = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or 0)
local w = tonumber(ARGV[2])
if w <= cur then return cur end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], w)
return w
