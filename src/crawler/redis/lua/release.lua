-- reclaimRequest: hand leases back to their queues at once. ARGV: mode, then
--   'tokens': pairs (digest, token) — leases this worker is giving up (stopping on a signal);
--   'worker': a worker id — every lease of that id (the same worker started again after a crash).
-- Returns the number handed back.
local lost = check_alive()
if lost then return lost end
local back = 0
if ARGV[1] == 'tokens' then
  for i = 2, #ARGV, 2 do
    if redis.call('HGET', G .. 'lo', ARGV[i]) == ARGV[i + 1] and requeue(ARGV[i]) then back = back + 1 end
  end
else
  local prefix = ARGV[2] .. '#'
  for _, d in ipairs(redis.call('ZRANGE', G .. 'leases', 0, -1)) do
    local tok = redis.call('HGET', G .. 'lo', d)
    if tok and string.sub(tok, 1, #prefix) == prefix and requeue(d) then back = back + 1 end
  end
end
return back
