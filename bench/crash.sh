#!/usr/bin/env bash
# Crash safety, long form (issue 32): tests/api/crash-safety.test.mjs with CRASH_ROUNDS rounds
# (10 by default) on SQLite and on a throwaway PostgreSQL cluster. Each round: a mixed load of
# writes and jobs from several clients, SIGKILL at a random moment, a restart on the same data,
# then every acknowledged write checked and every job's effect counted.
#
#   bench/crash.sh                 both engines, 10 rounds each
#   CRASH_ROUNDS=3 bench/crash.sh  fewer rounds
#   CRASH_ENGINES=sqlite bench/crash.sh   one engine (sqlite or postgres)
#   env: DOCSD_BIN (build/docsd), CRASH_CLIENTS (4)
# Prints one line per round ("crash round N: ... lost L, doubled D, repeated deliveries R") and
# per engine the totals; exit status 1 when anything was lost or doubled.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export DOCSD_BIN=${DOCSD_BIN:-$root/build/docsd}
export CRASH_ROUNDS=${CRASH_ROUNDS:-10}
read -r -a engines <<<"${CRASH_ENGINES:-sqlite postgres}"
[ -x "$DOCSD_BIN" ] || { echo "crash.sh: $DOCSD_BIN not found (make)" >&2; exit 1; }
if [ -x "$root/.tools/node/bin/node" ]; then export PATH="$root/.tools/node/bin:$PATH"; fi

pg_dir=""
cleanup() { if [ -n "$pg_dir" ]; then scripts/pg-cluster.sh stop "$pg_dir" >/dev/null 2>&1 || true; rm -rf "$pg_dir"; fi; }
trap cleanup EXIT

status=0
for engine in "${engines[@]}"; do
  log=$(mktemp "${TMPDIR:-/tmp}/docsd-crash-$engine.XXXXXX")
  db=""
  if [ "$engine" = postgres ]; then
    pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/docsd-crash-pg.XXXXXX")
    db=$(scripts/pg-cluster.sh start "$pg_dir" | tail -n 1)
  fi
  echo "== $engine: $CRASH_ROUNDS rounds"
  start=$(date +%s)
  set +e
  (cd tests/api && DOCSD_TEST_DATABASE=$db node run-tests.mjs crash-safety.test.mjs) >"$log" 2>&1
  rc=$?
  set -e
  grep -o 'crash round [0-9]*:.*' "$log" || true
  rounds=$(grep -c 'crash round [0-9]*:' "$log" || true)
  lost=$(sed -n 's/.*crash round [0-9]*:.* lost \([0-9]*\),.*/\1/p' "$log" | paste -sd+ - | bc 2>/dev/null || echo 0)
  doubled=$(sed -n 's/.*crash round [0-9]*:.* doubled \([0-9]*\),.*/\1/p' "$log" | paste -sd+ - | bc 2>/dev/null || echo 0)
  repeated=$(sed -n 's/.*crash round [0-9]*:.* repeated deliveries \([0-9]*\) .*/\1/p' "$log" | paste -sd+ - | bc 2>/dev/null || echo 0)
  acked=$(sed -n 's/.*crash round [0-9]*:.* acknowledged \([0-9]*\),.*/\1/p' "$log" | paste -sd+ - | bc 2>/dev/null || echo 0)
  echo "$engine: $rounds rounds in $(( $(date +%s) - start )) s, acknowledged ${acked:-0}, lost ${lost:-0}, doubled ${doubled:-0}, repeated deliveries ${repeated:-0} (allowed: at least once)"
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "$engine: FAILED (log $log):"
    grep -E '^\s+\+ +.(lost|doubled|partial|jobs did not)' "$log" | head -40 || true
  else
    rm -f "$log"
  fi
  if [ -n "$pg_dir" ]; then scripts/pg-cluster.sh stop "$pg_dir" >/dev/null 2>&1 || true; rm -rf "$pg_dir"; pg_dir=""; fi
done
exit "$status"
