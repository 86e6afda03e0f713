-- wrk script: GET the URL with a unique extra query argument per request. docsd's page
-- cache keys on every query argument, so each request renders the page from the
-- database: the uncached cost of the same body.
dofile((os.getenv("BENCH_LUA_DIR") or "bench") .. "/report.lua")

local n = 0
local prefix = "x"

function init(args)
  prefix = (args[1] or tostring(os.time())) .. "-" .. tostring(id or 0)
end

function request()
  n = n + 1
  return wrk.format(nil, wrk.path .. "&nocache=" .. prefix .. "-" .. n)
end
