#!/usr/bin/env bash
# The whole test run (the README's second command; CI runs it through .ci/run):
#   deps -> make -> folder edges (scripts/check-layers.sh) -> throwaway PostgreSQL -> C unit tests (SQLite + PostgreSQL)
#   -> API tests on SQLite, and beside them on PostgreSQL -> ASan/UBSan build
#   -> API tests on SQLite under the sanitizers in the background, beside: GitBook's CLI
#      (SQLite), browser tests of published sites and the web interface (chromium, SQLite),
#      C unit tests under the sanitizers, and the libFuzzer targets (fuzz/, a few seconds
#      each) -> keep-alive stall check (alone).
# Setup steps (deps, builds, PostgreSQL, npm ci) stop the run at once. A failing test stage
# is reported and the remaining stages still run, so one run shows every failure; set
# TEST_FAIL_FAST=1 to stop at the first failing stage instead. A stage that runs no test
# counts as failed.
# The last line is always "tests: X passed, Y failed"; the exit status is non-zero on any
# failure. Per-stage logs: $TEST_LOG_DIR (default: a temp dir, kept only when a stage failed).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

export DEBIAN_FRONTEND=noninteractive
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
jobs=$(nproc 2>/dev/null || echo 2)
# Stage time limits (seconds); a normal run takes a fraction of these.
t_unit=${TEST_TIMEOUT_UNIT:-300}
t_api=${TEST_TIMEOUT_API:-900}
t_asan=${TEST_TIMEOUT_ASAN:-1200}
t_conns=${TEST_TIMEOUT_CONNS:-90}
t_browser=${TEST_TIMEOUT_BROWSER:-300}
t_cli=${TEST_TIMEOUT_CLI:-180}
# the fuzz stage: building build-fuzz/ (clang, the whole tree) and 19 targets x FUZZ_SECONDS
t_fuzz=${TEST_TIMEOUT_FUZZ:-900}
fuzz_secs=${TEST_FUZZ_SECONDS:-3}

passed=0
failed=0
failed_stages=()
pg_dir=""
log_dir=${TEST_LOG_DIR:-}
own_log_dir=0
if [ -z "$log_dir" ]; then
  log_dir=$(mktemp -d "${TMPDIR:-/tmp}/docsd-test.XXXXXX"); own_log_dir=1
fi
mkdir -p "$log_dir"
started=$(date +%s)

# Each step's duration: `say` starts a step and ends the one before; the totals line is
# preceded by every step's time ("times: deps 2 s, make 41 s, ...").
step_name=""
step_start=0
times=()
step_done() {
  [ -n "$step_name" ] || return 0
  local secs=$(( $(date +%s) - step_start ))
  times+=("$step_name ${secs} s")
  printf -- '--- %s: %d s\n' "$step_name" "$secs"
  step_name=""
}
say() { step_done; step_name=${2:-$1}; step_start=$(date +%s); printf '\n==> %s\n' "$1"; }

on_exit() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  step_done
  for pid in "${bg_pids[@]}"; do pkill -TERM -P "$pid" 2>/dev/null; kill "$pid" 2>/dev/null; done
  if [ -n "$pg_dir" ]; then scripts/pg-cluster.sh stop "$pg_dir" >/dev/null 2>&1; fi
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
  if [ "$failed" -ne 0 ]; then
    [ "${#failed_stages[@]}" -gt 0 ] && echo "failed stages: ${failed_stages[*]} (logs in $log_dir)"
  elif [ "$own_log_dir" -eq 1 ]; then
    rm -rf -- "$log_dir"
  fi
  if [ "${#times[@]}" -gt 0 ]; then
    local IFS=,
    echo "times:${times[*]/#/ }"
  fi
  echo "test.sh: $(( $(date +%s) - started )) s"
  echo "tests: $passed passed, $failed failed"
  [ "$failed" -eq 0 ] && exit 0
  [ "$rc" -ne 0 ] && exit "$rc"
  exit 1
}
trap on_exit EXIT
trap 'echo "test.sh: interrupted" >&2; exit 130' INT TERM

# Setup failure: stop the run now (on_exit prints the totals).
die() { # STAGE MESSAGE
  echo "test.sh: FAILED ($1): $2" >&2
  failed_stages+=("$1")
  exit 1
}

# stage NAME KIND TIMEOUT CMD...: run a test stage, tee its output to $log_dir/NAME.log and
# add its counts. KIND node: node's runner ("# pass N"/"# fail N", or "ℹ pass N" from the
# spec reporter); KIND plain: the last "N passed, N failed" line.
stage() {
  local name=$1 kind=$2 limit=$3 log rc
  shift 3
  log="$log_dir/$name.log"
  say "$name"
  set +e
  timeout -k 15 "$limit" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  stage_count "$name" "$kind" "$limit" "$rc"
  step_done
}

# stage_bg NAME KIND TIMEOUT CMD...: the same stage in the background (its output only in its
# log until stage_join prints it); stage_join NAME KIND TIMEOUT waits for it and counts. The
# two cores are otherwise half idle while one API stage runs (a test waits on its server).
bg_pids=()
declare -A bg_pid bg_start
stage_bg() {
  local name=$1 kind=$2 limit=$3
  shift 3
  printf '\n==> %s (in the background)\n' "$name"
  bg_start[$name]=$(date +%s)
  ( set +e; timeout -k 15 "$limit" "$@" >"$log_dir/$name.log" 2>&1; echo $? >"$log_dir/$name.rc" ) &
  bg_pid[$name]=$!
  bg_pids+=("$!")
}
stage_join() {
  local name=$1 kind=$2 limit=$3 rc
  step_done
  wait "${bg_pid[$name]}" || true
  printf '\n==> %s (ran in the background; its output)\n' "$name"
  cat "$log_dir/$name.log"
  rc=$(cat "$log_dir/$name.rc" 2>/dev/null || echo 1)
  stage_count "$name" "$kind" "$limit" "$rc"
  local secs=$(( $(date +%s) - ${bg_start[$name]} ))
  times+=("$name ${secs} s (parallel)")
  printf -- '--- %s: %d s (parallel)\n' "$name" "$secs"
}

# stage_count NAME KIND TIMEOUT RC: add the counts of $log_dir/NAME.log.
stage_count() {
  local name=$1 kind=$2 limit=$3 rc=$4 log="$log_dir/$1.log" p f c
  if [ "$kind" = node ]; then
    p=$(sed -n 's/^\(# \|ℹ \)pass \([0-9][0-9]*\)$/\2/p' "$log" | tail -n 1)
    f=$(sed -n 's/^\(# \|ℹ \)fail \([0-9][0-9]*\)$/\2/p' "$log" | tail -n 1)
    c=$(sed -n 's/^\(# \|ℹ \)cancelled \([0-9][0-9]*\)$/\2/p' "$log" | tail -n 1)
    f=$(( ${f:-0} + ${c:-0} ))
  else
    p=$(sed -n 's/.*\b\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/.*\b\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p' "$log" | tail -n 1)
  fi
  p=${p:-0}
  f=${f:-0}
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "test.sh: stage $name timed out after $limit s" >&2
    f=$(( f + 1 ))
  elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "test.sh: stage $name exited $rc with no failing test counted" >&2
    f=1
  elif [ "$rc" -eq 0 ] && [ $(( p + f )) -eq 0 ]; then
    echo "test.sh: stage $name ran no test" >&2
    f=1
  fi
  passed=$(( passed + p ))
  failed=$(( failed + f ))
  echo "--> $name: $p passed, $f failed"
  if [ "$f" -ne 0 ]; then
    failed_stages+=("$name")
    if [ "${TEST_FAIL_FAST:-0}" = 1 ]; then
      echo "test.sh: stopping at the first failing stage (TEST_FAIL_FAST=1)" >&2
      exit 1
    fi
  fi
}

say "deps (scripts/deps.sh test)" deps
scripts/deps.sh test || die deps "scripts/deps.sh test"
# deps.sh installs a newer Node under .tools/node when the machine's is older than the
# pinned test tools need (Debian 12 ships 18): the tests use it, nothing else does.
if [ -x "$root/.tools/node/bin/node" ]; then export PATH="$root/.tools/node/bin:$PATH"; fi
command -v node >/dev/null 2>&1 || die deps "node not found"
echo "node $(node --version), npm $(npm --version)"

say "make" make
make -j"$jobs" || die make "make (build/docsd)"
[ -x build/docsd ] || die make "make did not produce build/docsd"

# The folder edges (which src/ folder may include which): a second, no need of a build.
stage layers plain 60 bash -c 'scripts/check-layers.sh --self-test && scripts/check-layers.sh'

say "PostgreSQL (throwaway cluster)" postgres
pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/docsd-pg.XXXXXX")
pg_url=$(scripts/pg-cluster.sh start "$pg_dir" | tail -n 1) || die postgres "scripts/pg-cluster.sh start"
[[ "$pg_url" == postgres://* ]] || die postgres "no URL from scripts/pg-cluster.sh start"
echo "$pg_url"

# tests/cli first: it pins workerd (the integration runtime), which the unit tests of
# src/runtime and the API tests run; DOCSD_TEST_REQUIRE_WORKERD makes its absence a failure.
# --ignore-scripts: the CLI's postinstall downloads a tunnel binary the tests do not use;
# workerd's binary comes in its platform package (@cloudflare/workerd-linux-64) all the same.
say "npm ci (tests/cli)" npm-cli
timeout -k 15 300 npm --prefix tests/cli ci --ignore-scripts --no-audit --no-fund || die npm "npm ci in tests/cli"
# (workerd's platform package: @cloudflare/workerd-linux-64 here, -linux-arm64 on arm64)
workerd_bin=$(ls "$root"/tests/cli/node_modules/@cloudflare/workerd-linux-*/bin/workerd 2>/dev/null | head -n 1 || true)
[ -n "$workerd_bin" ] && [ -x "$workerd_bin" ] || die npm "tests/cli did not install workerd (@cloudflare/workerd-linux-*)"
export DOCSD_TEST_WORKERD="$workerd_bin" DOCSD_TEST_REQUIRE_WORKERD=1

stage unit plain "$t_unit" env DOCSD_TEST_PG_URL="$pg_url" DOCSD_TEST_REQUIRE_PG=1 make -j"$jobs" unit

say "npm ci (tests/api)" npm-api
timeout -k 15 300 npm --prefix tests/api ci --no-audit --no-fund || die npm "npm ci in tests/api"

# The API tests on PostgreSQL run beside those on SQLite (their own database; every test file
# its own server on its own port and only looks at data it created).
pg_api_url=$(scripts/pg-cluster.sh createdb "$pg_dir" "docsd_api_$(date +%s)_$$") \
  || die postgres "CREATE DATABASE for the API tests"
stage_bg api-postgres node "$t_api" env DOCSD_BIN="$root/build/docsd" \
  DOCSD_TEST_DATABASE="$pg_api_url" npm --prefix tests/api test
stage api-sqlite node "$t_api" env DOCSD_BIN="$root/build/docsd" npm --prefix tests/api test
stage_join api-postgres node "$t_api"

# The sanitizer build's API stage runs in the background beside the CLI, browser and unit-asan
# stages (each API test mostly waits on its own server; the two cores were half idle).
say "make asan" make-asan
make -j"$jobs" asan || die make-asan "make asan (build-asan/docsd)"
[ -x build-asan/docsd ] || die make-asan "make asan did not produce build-asan/docsd"

stage_bg api-sqlite-asan node "$t_asan" env DOCSD_BIN="$root/build-asan/docsd" DOCSD_ASAN=1 \
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 LSAN_OPTIONS="suppressions=$root/tests/unit/lsan.supp" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  npm --prefix tests/api test

# The libFuzzer targets (fuzz/, clang with ASan + UBSan into build-fuzz/), each a few
# seconds on its seed corpus (fuzz/run.sh: one line per target, then "N passed, N failed";
# bench/fuzz.sh is the 10-minute form), in the background too.
stage_bg fuzz plain "$t_fuzz" make -j"$jobs" fuzz FUZZ_SECONDS="$fuzz_secs"

# GitBook's own CLI, unchanged, against docsd: OpenAPI specs, and integrations published,
# installed and run in workerd (tests/cli was installed before the unit stage; its server
# helper is tests/api's, installed above).
stage cli node "$t_cli" env DOCSD_BIN="$root/build/docsd" npm --prefix tests/cli test

say "npm ci (tests/browser)" npm-browser
timeout -k 15 300 npm --prefix tests/browser ci --no-audit --no-fund || die npm "npm ci in tests/browser"
[ -x /usr/bin/chromium ] || die deps "/usr/bin/chromium not found (scripts/deps.sh test installs it)"

# Debian's chromium, headless, against a site published through the API (SQLite build);
# full-page screenshots in tests/browser/artifacts/.
stage browser node "$t_browser" env DOCSD_BIN="$root/build/docsd" npm --prefix tests/browser test

stage unit-asan plain "$t_unit" env DOCSD_TEST_PG_URL="$pg_url" DOCSD_TEST_REQUIRE_PG=1 \
  ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$root/tests/unit/lsan.supp:print_suppressions=0" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 make -j"$jobs" unit-asan

stage_join fuzz plain "$t_fuzz"
stage_join api-sqlite-asan node "$t_asan"

# Timing-sensitive (keep-alive stalls): alone, after every other stage.
stage keepalive-conns plain "$t_conns" env DOCSD_BIN="$root/build/docsd" bench/conns.sh
