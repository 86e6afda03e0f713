#!/usr/bin/env bash
# The job queue's delivery throughput (issue 31, item 12): a backlog of integration events to a
# development tunnel on 127.0.0.1 that answers at once, I installations x E events, W job
# workers; reports events/s, whether every installation's events arrived in order and one at a
# time, and how long a job of another kind queued behind the backlog waited.
# bench/integrations-throughput.mjs says exactly what is measured.
# Results: bench/out/results-integrations-throughput.md.
#
# env: BENCH_TP_INSTALLATIONS (4)  BENCH_TP_EVENTS (250 per installation)  BENCH_TP_WORKERS (4)
#      BENCH_NO_BUILD=1 (skip make)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
inst=${BENCH_TP_INSTALLATIONS:-4}
events=${BENCH_TP_EVENTS:-250}
workers=${BENCH_TP_WORKERS:-4}
out="$root/bench/out"
mkdir -p "$out"
die() { echo "bench/integrations-throughput: $*" >&2; exit 1; }
for v in "$inst" "$events" "$workers"; do [[ "$v" =~ ^[1-9][0-9]*$ ]] || die "counts must be positive integers"; done
if [ "${BENCH_NO_BUILD:-0}" != 1 ]; then make -j"$(nproc 2>/dev/null || echo 2)"; fi
line=$(node bench/integrations-throughput.mjs "$root/build/docsd" "$inst" "$events" "$workers")
echo "$line"
node -e '
const r = JSON.parse(process.argv[1]);
console.log(`# Integration delivery throughput (${new Date().toISOString()})\n`);
console.log("| installations | events | workers | backlog | seconds | events/s | in order | overlapping | other kind waited |");
console.log("|---|---|---|---|---|---|---|---|---|");
console.log(`| ${r.installations} | ${r.events} | ${r.workers} | ${r.backlog_events} | ${r.seconds} | ${r.events_per_s} | ${r.in_order} | ${r.overlapping} | ${r.other_kind_wait_ms} ms |`);
' "$line" > "$out/results-integrations-throughput.md"
cat "$out/results-integrations-throughput.md"
