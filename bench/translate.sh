#!/usr/bin/env bash
# Translation benchmark (issue 23): a space of BENCH_TRANSLATE_PAGES pages (1000) like the
# site benchmark's is translated through Apertium, English into Spanish (one pair) and into
# French (a chain through Spanish: en→es→fr); then one page changes, the merge queues a run of
# both translations, and only that page is translated again. Prints and writes
# bench/out/results-translate.md: pages per second of each full run (request to `completed`),
# and the time of the re-runs after the one-page merge with the pages they translated.
#
# env: BENCH_TRANSLATE_PAGES (1000)  DOCSD_BIN (build/docsd)  BENCH_DOCSD_ARGS (extra `docsd
#      serve` arguments)  BENCH_KEEP=1 (keep the temp dir)
# Needs apertium, apertium-eng-spa and apertium-fr-es (scripts/deps.sh run).
# Run alone or as `BENCH_ONLY=translate bench/run.sh`.
set -euo pipefail
# shellcheck source=scripts/net.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/net.sh"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
pages=${BENCH_TRANSLATE_PAGES:-1000}
bin=${DOCSD_BIN:-build/docsd}
read -r -a extra_args <<<"${BENCH_DOCSD_ARGS:-}"
out="$root/bench/out"

die() { echo "bench/translate: $*" >&2; exit 1; }
note() { echo "bench/translate: $*" >&2; }
[[ "$pages" =~ ^[1-9][0-9]*$ ]] && [ "$pages" -ge 100 ] || die "BENCH_TRANSLATE_PAGES must be an integer >= 100"
command -v node >/dev/null 2>&1 || die "node not found; run scripts/deps.sh bench"
command -v apertium >/dev/null 2>&1 || die "apertium not found; run scripts/deps.sh run"
[ -f /usr/share/apertium/modes/eng-spa.mode ] && [ -f /usr/share/apertium/modes/es-fr.mode ] ||
  die "apertium-eng-spa and apertium-fr-es are needed; run scripts/deps.sh run"
[ -x "$bin" ] || die "$bin not found (run make)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/docsd-bench-translate.XXXXXX")
docsd_pid=""
cleanup() {
  set +e
  if [ -n "$docsd_pid" ]; then kill -TERM "$docsd_pid" 2>/dev/null; wait "$docsd_pid" 2>/dev/null; fi
  if [ "${BENCH_KEEP:-0}" = 1 ]; then note "kept $work"; else rm -rf -- "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port=$(free_port)
"$bin" serve --data "$work/data" --listen "127.0.0.1:$port" --site-listen 127.0.0.1:0 --log-level error \
  "${extra_args[@]}" 2>>"$work/docsd.log" >/dev/null &
docsd_pid=$!
for (( i = 0; i < 300; i++ )); do
  [ "$(http_status "$port" /healthz)" = 200 ] && break
  kill -0 "$docsd_pid" 2>/dev/null || die "docsd exited: $(tail -5 "$work/docsd.log")"
  sleep 0.1
done
token=$("$bin" user create --data "$work/data" --email bench@example.com --name Bench | sed 's/.*"token":"\([^"]*\)".*/\1/')

note "seeding $pages pages, then en→es, en→fr (through es), and the re-runs after one page changed"
result=$(node bench/translate.mjs "http://127.0.0.1:$port" "$token" "$pages") ||
  die "the run failed; docsd log: $(tail -5 "$work/docsd.log")"
hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$docsd_pid/status")

j() { node -p "const r=JSON.parse(process.argv[1]); String($1)" "$result"; }
{
  echo "# docsd benchmark: translations through Apertium (bench/translate.sh)"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, docsd $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), SQLite, apertium $(dpkg-query -W -f='${Version}' apertium 2>/dev/null || echo '?')."
  echo "Space: $(j r.pages) pages (about 1.5 KB of markdown each, like bench/seed-site.mjs's)."
  echo
  echo "| run | route | pages | words | wall (run request to completed) | pages/s |"
  echo "| --- | --- | ---: | ---: | ---: | ---: |"
  echo "| full, one pair | $(j r.direct.route) | $(j r.direct.pages) | $(j r.direct.words) | $(j r.direct.s) s | $(j r.direct.pagesPerSec) |"
  echo "| full, a pivot | $(j r.pivot.route) | $(j r.pivot.pages) | $(j r.pivot.words) | $(j r.pivot.s) s | $(j r.pivot.pagesPerSec) |"
  echo "| after one page changed (merge to both completed) | both | $(j 'r.changed.latestPages.join(" + ")') | | $(j r.changed.s) s | |"
  echo
  echo "Peak RSS of docsd (VmHWM): $(( hwm_kb / 1024 )) MB (Apertium runs as child processes, not counted)."
} >"$out/results-translate.md"
cat "$out/results-translate.md"
