#!/usr/bin/env bash
# fuzz/run.sh SECONDS [TARGET...]: run each libFuzzer target built by `make fuzz`
# (build-fuzz/fuzz-<name>, one per fuzz/<name>.c) for SECONDS on its seed corpus
# fuzz/corpus/<name>/, one after the other, and print one line per target (executions,
# edges covered: libFuzzer's "cov") and a final "N passed, N failed" (counting targets).
#
# A target fails when libFuzzer stops before its time: a crash, an abort of the target's
# own checks, a sanitizer report (ASan, UBSan: the build does not recover), a leak (LSan,
# with tests/unit/lsan.supp's suppressions of known library leaks), a timeout (an input
# that takes over FUZZ_TIMEOUT seconds, default 20) or more than FUZZ_RSS_MB (2048) of
# memory. The input is kept as build-fuzz/artifacts/<name>-crash-<sha1> (reproduce with
# `build-fuzz/fuzz-<name> FILE`); add it to fuzz/corpus/<name>/ with the fix.
#
# New inputs libFuzzer finds go to build-fuzz/corpus/<name>/ (emptied at each run, so a
# run starts from the seeds alone and the repository's corpus stays as committed).
# Used by `make fuzz FUZZ_SECONDS=N`, scripts/test.sh (a few seconds each) and
# bench/fuzz.sh (10 minutes each).
set -u
cd "$(dirname "$0")/.."
secs=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for f in fuzz/*.c; do targets+=("$(basename "$f" .c)"); done
fi
root=$PWD
mkdir -p build-fuzz/artifacts build-fuzz/logs
passed=0 failed=0
for t in "${targets[@]}"; do
  bin=build-fuzz/fuzz-$t
  log=build-fuzz/logs/$t.log
  if [ ! -x "$bin" ]; then
    echo "fuzz $t: FAILED (no $bin: run make fuzz)"
    failed=$((failed + 1))
    continue
  fi
  rm -rf "build-fuzz/corpus/$t"
  mkdir -p "build-fuzz/corpus/$t" "fuzz/corpus/$t"
  start=$(date +%s)
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    LSAN_OPTIONS="suppressions=$root/tests/unit/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin" -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -max_len="${FUZZ_MAX_LEN:-65536}" -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$t-" \
    "build-fuzz/corpus/$t" "fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  took=$(( $(date +%s) - start ))
  if [ "$rc" -eq 0 ]; then
    echo "fuzz $t: ok, ${execs:-?} executions, ${cov:-?} edges, ${took} s"
    passed=$((passed + 1))
  else
    echo "fuzz $t: FAILED (exit $rc after ${took} s, ${execs:-?} executions; log $log)"
    # what the target printed, the sanitizer's verdict, the frames of docsd's code
    grep -v -E '^(#[0-9]|INFO:|MS:|base unit:|0x|\\|Base64:|artifact_prefix|stat::)|^ +#[0-9]+ .*(fuzzer::|libc\.so|in (abort|raise|__))' \
      "$log" | grep -v '^$' | head -n 14 | sed 's/^/    /'
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
