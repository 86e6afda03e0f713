#!/usr/bin/env bash
# Several docsd processes on one PostgreSQL (issue 32): the throughput of 1, 2 and 4 processes
# on a read-heavy mix (a space's revision, a space, the organization's space list, the user),
# wrk with 4 threads and MP_CONNS connections, each thread on one process (bench/multiprocess.lua:
# a balancer with sticky connections). A throwaway PostgreSQL cluster; every process with
# --threads MP_THREADS. The correctness side (shared queue, caches, rolling restart) is
# tests/api/multiprocess.test.mjs.
#
#   bench/multiprocess.sh
#   env: DOCSD_BIN (build/docsd), MP_LIST ("1 2 4"), MP_DURATION (10s), MP_CONNS (32),
#        MP_THREADS (4)
# Prints one line per process count: "N processes: R requests/s, p50 X, p99 Y".
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bin=${DOCSD_BIN:-$root/build/docsd}
read -r -a list <<<"${MP_LIST:-1 2 4}"
duration=${MP_DURATION:-10s}
conns=${MP_CONNS:-32}
threads=${MP_THREADS:-4}
command -v wrk >/dev/null 2>&1 || { echo "multiprocess.sh: wrk not found (scripts/deps.sh test)" >&2; exit 1; }
if [ -x "$root/.tools/node/bin/node" ]; then export PATH="$root/.tools/node/bin:$PATH"; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/docsd-mp.XXXXXX")
pids=()
stop_all() {
  local p i
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do for (( i = 0; i < 100; i++ )); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done; done
  pids=()
}
cleanup() { stop_all; [ -n "${pg_dir:-}" ] && { scripts/pg-cluster.sh stop "$pg_dir" >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }; rm -rf "$work"; }
trap cleanup EXIT
pg_dir=$(mktemp -d /tmp/docsd-mp-pg.XXXXXX); chmod 755 "$work"
db=$(scripts/pg-cluster.sh start "$pg_dir" | tail -n 1)
freeport() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
start() { # N: start N processes on the one database; MP_PORTS gets their ports
  local k port
  MP_PORTS=""
  for (( k = 0; k < $1; k++ )); do
    port=$(freeport)
    "$bin" serve --listen "127.0.0.1:$port" --database "$db" --data "$work/data-$k" --public-url "http://127.0.0.1:$port" --site-listen 127.0.0.1:0 \
      --threads "$threads" --log-level error >>"$work/server-$k.log" 2>&1 &
    pids+=("$!")
    for (( i = 0; i < 100; i++ )); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
    MP_PORTS="${MP_PORTS:+$MP_PORTS }$port"
  done
  export MP_PORTS
}

# Seed through one process: a user, an organization, 50 spaces, one with 20 pages.
start 1
base="http://127.0.0.1:$MP_PORTS"
MP_TOKEN=$("$bin" user create --database "$db" --email bench@mp.example.com | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))')
export MP_TOKEN
j() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[process.argv[1]]))' "$1"; }
MP_ORG=$(curl -fs -H "Authorization: Bearer $MP_TOKEN" -H 'Content-Type: application/json' -d '{"title":"Bench MP"}' "$base/v1/orgs" | j id)
for (( k = 0; k < 50; k++ )); do
  MP_SPACE=$(curl -fs -H "Authorization: Bearer $MP_TOKEN" -H 'Content-Type: application/json' -d "{\"title\":\"Space $k\"}" "$base/v1/orgs/$MP_ORG/spaces" | j id)
done
cr=$(curl -fs -H "Authorization: Bearer $MP_TOKEN" -H 'Content-Type: application/json' -d '{"subject":"Seed"}' "$base/v1/spaces/$MP_SPACE/change-requests" | j id)
changes=$(node -e 'console.log(JSON.stringify({changes:Array.from({length:20},(_,i)=>({operation:"insert_page",title:`Page ${i}`,document:{markdown:`# Page ${i}\n\n${"Some text. ".repeat(50)}\n`}}))}))')
curl -fs -o /dev/null -H "Authorization: Bearer $MP_TOKEN" -H 'Content-Type: application/json' -d "$changes" "$base/v1/spaces/$MP_SPACE/change-requests/$cr/content"
curl -fs -o /dev/null -H "Authorization: Bearer $MP_TOKEN" -H 'Content-Type: application/json' -d '{}' "$base/v1/spaces/$MP_SPACE/change-requests/$cr/merge"
export MP_ORG MP_SPACE
stop_all

echo "nproc $(nproc), load average $(cut -d' ' -f1-3 /proc/loadavg); wrk -t 4 -c $conns -d $duration, --threads $threads per process"
for n in "${list[@]}"; do
  start "$n"
  wrk -t 4 -c "$conns" -d 2s -s bench/multiprocess.lua "http://127.0.0.1:${MP_PORTS%% *}" >/dev/null 2>&1 || true # warm the caches
  out=$(wrk -t 4 -c "$conns" -d "$duration" --latency -s bench/multiprocess.lua "http://127.0.0.1:${MP_PORTS%% *}")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  errs=$(grep -E 'Socket errors|Non-2xx' <<<"$out" | tr '\n' ' ' || true)
  echo "$n processes: $rps requests/s, p50 $p50, p99 $p99 ${errs}"
  stop_all
done
