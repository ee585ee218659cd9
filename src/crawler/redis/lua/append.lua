-- An item outside a lease (library use of the item sink): claim its key, append it once.
-- ARGV: item digest, item JSON. Returns 1 stored, 0 duplicate.
local lost = check_alive()
if lost then return lost end
local items = lh_open('i')
local new = lh_add(items, ARGV[1])
lh_close(items)
if not new then
  redis.call('HINCRBY', META, 'dupItems', 1)
  return 0
end
redis.call('XADD', G .. 'items', '*', 'j', ARGV[2])
redis.call('HINCRBY', META, 'items', 1)
return 1
