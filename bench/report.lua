-- wrk script: at the end, print one machine-readable line that bench/run.sh and
-- bench/conns.sh parse:
--   BENCH requests=N duration_s=S rps=R p50_us=U p99_us=U non2xx=N timeouts=N
--         connect_errors=N read_errors=N write_errors=N created=N
-- created is the number of 201 responses counted by a script that defines response()
-- (see teams.lua); wrk keeps Lua globals per thread, so done() sums them over threads.
-- Other scripts load this file with dofile() and add request()/response()/init().

local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local created = 0
  for _, t in ipairs(threads) do
    local c = t:get("created")
    if type(c) == "number" then created = created + c end
  end
  local secs = summary.duration / 1e6
  local rps = 0
  if secs > 0 then rps = summary.requests / secs end
  local e = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_s=%.3f rps=%.1f p50_us=%d p99_us=%d non2xx=%d timeouts=%d"
      .. " connect_errors=%d read_errors=%d write_errors=%d created=%d\n",
    summary.requests, secs, rps, latency:percentile(50), latency:percentile(99),
    e.status, e.timeout, e.connect, e.read, e.write, created))
end
