-- wrk script: PUT /v1/orgs/{id}/teams with a unique title per request, counting 201s.
-- usage: BENCH_LUA_DIR=bench wrk -s bench/teams.lua \
--          -H 'Authorization: Bearer TOKEN' http://HOST/v1/orgs/ORG/teams -- RUN_ID
-- RUN_ID keeps titles unique across runs; the thread id keeps them unique across threads.

dofile((os.getenv("BENCH_LUA_DIR") or "bench") .. "/report.lua")

wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"

local prefix = "x"
local n = 0

function init(args)
  created = 0 -- global: read by done() through thread:get("created")
  prefix = (args[1] or tostring(os.time())) .. "-" .. tostring(id or 0)
end

function request()
  n = n + 1
  return wrk.format(nil, nil, nil, '{"title":"bench ' .. prefix .. " " .. n .. '"}')
end

function response(status, headers, body)
  if status == 201 then created = created + 1 end
end
