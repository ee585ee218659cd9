-- getRequest (existence only): whether a URL digest is in the seen-set. ARGV: digest.
local lost = check_alive()
if lost then return lost end
return lh_has(lh_open('s'), ARGV[1]) and 1 or 0
