#!/usr/bin/env bash
# bench/fuzz.sh [TARGET...]: the long form of the fuzzing stage of scripts/test.sh. Builds
# the libFuzzer targets (make fuzz: clang, ASan + UBSan, build-fuzz/), runs each for
# FUZZ_SECONDS (default 600: 10 minutes; 19 targets take a bit over 3 hours, one after
# the other) from its seed corpus fuzz/corpus/<target>/, and writes the executions and the
# edges covered (libFuzzer's "cov") per target to bench/out/results-fuzz.md.
#
# Target: every target "ok" (no crash, sanitizer report, leak or timeout). A failure
# leaves its input in build-fuzz/artifacts/: fix the defect, add the input to the target's
# corpus and a unit test (tests/unit/), as fuzz/run.sh says.
set -u
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-600}
mkdir -p bench/out
make -j"$(nproc 2>/dev/null || echo 2)" fuzz >/dev/null || { echo "bench/fuzz.sh: make fuzz failed" >&2; exit 1; }
started=$(date +%s)
fuzz/run.sh "$secs" "$@" | tee bench/out/fuzz.log
rc=${PIPESTATUS[0]}
{
  echo "# Fuzzing: $secs s per target ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, clang $(clang -dumpversion))"
  echo
  echo "| target | result | executions | edges (cov) |"
  echo "|---|---|---:|---:|"
  sed -n 's/^fuzz \([a-z0-9_]*\): ok, \([0-9?]*\) executions, \([0-9?]*\) edges.*/| \1 | ok | \2 | \3 |/p;
          s/^fuzz \([a-z0-9_]*\): FAILED (\(.*\), \([0-9?]*\) executions.*/| \1 | FAILED (\2) | \3 | |/p' bench/out/fuzz.log
  echo
  tail -n 1 bench/out/fuzz.log
  echo "($(( $(date +%s) - started )) s in all)"
} >bench/out/results-fuzz.md
cat bench/out/results-fuzz.md
exit "$rc"
