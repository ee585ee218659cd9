-- Heartbeat: prolong this worker's leases. A lease that expired (even if nobody took it yet) or
-- that another worker now holds is not renewed: it is reported lost, and an expired one goes back
-- to its queue at once.
-- ARGV: lease ms, then pairs (digest, token). Returns the tokens lost.
local lost = check_alive()
if lost then return lost end
local now = now_ms()
local deadline = now + tonumber(ARGV[1])
local gone = {}
for i = 2, #ARGV, 2 do
  local d, tok = ARGV[i], ARGV[i + 1]
  local ok = redis.call('HGET', G .. 'lo', d) == tok
  if ok then
    local dl = tonumber(redis.call('ZSCORE', G .. 'leases', d))
    if not dl or dl < now then
      requeue(d)
      ok = false
    else
      redis.call('ZADD', G .. 'leases', 'XX', deadline, d)
    end
  end
  if not ok then gone[#gone + 1] = tok end
end
return gone
