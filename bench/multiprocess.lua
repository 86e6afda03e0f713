-- bench/multiprocess.sh: a read-heavy mix spread over several docsd processes. Each wrk thread
-- connects to one process (thread.addr, round robin over MP_PORTS), as a load balancer with
-- sticky connections does; every request carries the bench user's token.
local ports = {}
for p in string.gmatch(os.getenv("MP_PORTS") or "", "%d+") do ports[#ports + 1] = p end
local token = os.getenv("MP_TOKEN")
local org, space = os.getenv("MP_ORG"), os.getenv("MP_SPACE")
local paths = {
  "/v1/spaces/" .. space .. "/content",        -- a revision (the revision cache)
  "/v1/spaces/" .. space,                      -- a point lookup
  "/v1/orgs/" .. org .. "/spaces",             -- a list page (the page cache)
  "/v1/user",
}
local n = 0
function setup(thread)
  n = n + 1
  local addrs = wrk.lookup("127.0.0.1", ports[(n - 1) % #ports + 1])
  thread.addr = addrs[1]
end
local i = 0
function request()
  i = i + 1
  return wrk.format("GET", paths[i % #paths + 1], { ["Authorization"] = "Bearer " .. token })
end
