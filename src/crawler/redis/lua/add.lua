-- addBatchOfRequests (Crawlee v4 RequestQueueBackend): accept the requests whose URL digest is
-- not in the seen-set, append each to its host's queue. Idempotent: adding again changes nothing.
-- ARGV: n, then n triples (digest, host, payload). Returns the 1-based indices accepted.
local lost = check_alive()
if lost then return lost end
local s = lh_open('s')
local n = tonumber(ARGV[1])
local accepted = {}
for i = 0, n - 1 do
  local d, host, p = ARGV[2 + 3 * i], ARGV[3 + 3 * i], ARGV[4 + 3 * i]
  if lh_add(s, d) then
    redis.call('RPUSH', G .. 'q:' .. host, d .. p)
    ready_host(host)
    accepted[#accepted + 1] = i + 1
  end
end
lh_close(s)
if #accepted > 0 then redis.call('HINCRBY', META, 'pending', #accepted) end
return accepted
