-- Which crawl (generation) a worker joins. KEYS[1] is the spider's generation hash. A worker
-- that found the current crawl finished (or was asked for --fresh) passes its generation: the
-- first such worker moves everyone to a new one (compare-and-set), the others join that.
-- ARGV: generation to retire (0: none). Returns {generation, 1 if this call created it}.
local cur = tonumber(redis.call('HGET', KEYS[1], 'cur') or 0)
local retire = tonumber(ARGV[1])
if cur == 0 or (retire > 0 and cur == retire) then
  cur = cur + 1
  redis.call('HSET', KEYS[1], 'cur', cur)
  return { cur, 1 }
end
return { cur, 0 }
