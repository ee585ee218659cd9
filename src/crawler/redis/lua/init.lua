-- Create a generation's meta hash (its existence says the crawl state is there).
-- Returns 1 when this call created it.
local t = redis.call('TIME')
return redis.call('HSETNX', KEYS[1], 'created', t[1])
