#!/usr/bin/env bash
# Keep-alive stall check (regression test for libmicrohttpd's epoll trap: a polling thread
# that receives exactly as many events as its buffer holds, 128, could wait forever).
# Drives exactly 128, 256 and 512 keep-alive connections at GET /healthz with wrk and fails
# if a run answers no request, has a socket timeout, or docsd stops answering afterwards.
#
#   bench/conns.sh [BASE_URL]
#     BASE_URL like http://127.0.0.1:8080. Without it, starts ${DOCSD_BIN:-build/docsd}
#     on a temporary SQLite data dir (default threads) and stops it at the end.
#   env: CONNS_DURATION (3s), CONNS_LIST ("128 256 512"), CONNS_WRK_THREADS (2)
# Last line: "conns: N passed, N failed"; exit status 1 when any check failed.
set -euo pipefail
# shellcheck source=scripts/net.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/net.sh"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

duration=${CONNS_DURATION:-3s}
read -r -a conn_list <<<"${CONNS_LIST:-128 256 512}"
wrk_threads=${CONNS_WRK_THREADS:-2}
bin=${DOCSD_BIN:-build/docsd}
base=${1:-}

die() { echo "conns.sh: $*" >&2; exit 1; }
command -v wrk >/dev/null 2>&1 || die "wrk not found; run scripts/deps.sh test"

# 512 client sockets here, 512 more in docsd when we start it: lift the soft fd limit.
# (With BASE_URL, start docsd with --max-connections-per-ip 0 or at least 513 yourself.)
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 4096 2>/dev/null || true

work=$(mktemp -d "${TMPDIR:-/tmp}/docsd-conns.XXXXXX")
server_pid=""

cleanup() {
  local i
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for (( i = 0; i < 50; i++ )); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf -- "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$base" ]; then
  [ -x "$bin" ] || die "$bin not found or not executable (run make)"
  port=$(free_port)
  base="http://127.0.0.1:$port"
  # Silence the per-request access log if docsd can (half a million lines otherwise).
  quiet=()
  help=$(timeout 5 "$bin" --help 2>&1 || true)
  if grep -q -- '--quiet' <<<"$help"; then quiet=(--quiet)
  elif grep -q -- '--no-access-log' <<<"$help"; then quiet=(--no-access-log)
  elif grep -q -- '--log-level' <<<"$help"; then quiet=(--log-level error)
  fi
  # Every wrk connection comes from 127.0.0.1: lift the per-address limit (default 64).
  per_ip=()
  if grep -q -- '--max-connections-per-ip' <<<"$help"; then per_ip=(--max-connections-per-ip 0); fi
  for attempt in quiet plain; do
    [ "$attempt" = plain ] && [ "${#quiet[@]}" -eq 0 ] && break
    args=(serve --data "$work/data" --listen "127.0.0.1:$port" --site-listen 127.0.0.1:0 "${per_ip[@]}")
    [ "$attempt" = quiet ] && args+=("${quiet[@]}")
    mkdir -p "$work/data"
    "$bin" "${args[@]}" >"$work/docsd.log" 2>&1 &
    server_pid=$!
    up=0
    for (( i = 0; i < 300; i++ )); do
      kill -0 "$server_pid" 2>/dev/null || break
      if [ "$(http_status "$port" /healthz)" = 200 ]; then up=1; break; fi
      sleep 0.1
    done
    [ "$up" -eq 1 ] && break
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    rm -rf -- "$work/data"
  done
  if [ -z "$server_pid" ]; then
    tail -n 30 "$work/docsd.log" >&2 || true
    die "docsd did not answer GET /healthz with 200 within 30 s"
  fi
  echo "conns.sh: docsd $bin on $base (pid $server_pid, ${args[*]:5})" >&2
fi

port=${base##*:}
port=${port%%/*}
passed=0
failed=0
for c in "${conn_list[@]}"; do
  log="$work/wrk-$c.txt"
  rc=0
  timeout 60 wrk -t"$wrk_threads" -c"$c" -d"$duration" --timeout 2s \
    -s "$root/bench/report.lua" "$base/healthz" >"$log" 2>&1 || rc=$?
  line=$(grep '^BENCH ' "$log" | tail -n 1 || true)
  requests=$(sed -n 's/.* requests=\([0-9]*\).*/\1/p' <<<"$line")
  timeouts=$(sed -n 's/.* timeouts=\([0-9]*\).*/\1/p' <<<"$line")
  rps=$(sed -n 's/.* rps=\([0-9.]*\).*/\1/p' <<<"$line")
  why=""
  if [ "$rc" -ne 0 ] || [ -z "$line" ]; then why="wrk exited $rc without a result"
  elif [ "${requests:-0}" -eq 0 ]; then why="0 requests answered"
  elif [ "${timeouts:-0}" -ne 0 ]; then why="$timeouts socket timeouts"
  elif [ "$(http_status "$port" /healthz)" != 200 ]; then why="GET /healthz no longer answers"
  fi
  if [ -z "$why" ]; then
    passed=$(( passed + 1 ))
    echo "ok   $c keep-alive connections: $requests requests, ${rps} req/s, 0 timeouts"
  else
    failed=$(( failed + 1 ))
    echo "FAIL $c keep-alive connections: $why"
    sed 's/^/     | /' "$log"
  fi
done

if [ "$failed" -ne 0 ] && [ -f "$work/docsd.log" ]; then
  echo "conns.sh: last lines of the docsd log:" >&2
  tail -n 20 "$work/docsd.log" >&2 || true
fi
echo "conns: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
