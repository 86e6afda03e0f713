#!/usr/bin/env bash
# Git sync benchmark (issue 13): a generated repository of BENCH_GIT_PAGES pages (5000) and
# BENCH_GIT_IMAGES images (500) in GitBook's layout is imported into a new space, the space is
# exported to an empty bare repository, and the unchanged commit is imported again. Prints and
# writes bench/out/results-git.md: wall time of each (request to the operation's success, job
# pickup included), the job's own time (GitSyncOperation startedAt to completedAt), and docsd's
# peak RSS (VmHWM) over the whole run. Targets: import < 30 s, export < 30 s, peak RSS < 200 MB,
# re-import < 1 s.
#
# env: BENCH_GIT_PAGES (5000)  BENCH_GIT_IMAGES (500)  BENCH_KEEP=1 (keep the temp dir)
#      DOCSD_BIN (build/docsd)  BENCH_DOCSD_ARGS (extra `docsd serve` arguments)
# Run alone or as `BENCH_ONLY=git bench/run.sh`.
set -euo pipefail
# shellcheck source=scripts/net.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/net.sh"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
pages=${BENCH_GIT_PAGES:-5000}
images=${BENCH_GIT_IMAGES:-500}
bin=${DOCSD_BIN:-build/docsd}
read -r -a extra_args <<<"${BENCH_DOCSD_ARGS:-}"
out="$root/bench/out"

die() { echo "bench/git: $*" >&2; exit 1; }
note() { echo "bench/git: $*" >&2; }
[[ "$pages" =~ ^[1-9][0-9]*$ ]] || die "BENCH_GIT_PAGES must be a positive integer"
[[ "$images" =~ ^[1-9][0-9]*$ ]] || die "BENCH_GIT_IMAGES must be a positive integer"
for tool in git node; do command -v "$tool" >/dev/null 2>&1 || die "$tool not found; run scripts/deps.sh bench"; done
[ -x "$bin" ] || die "$bin not found (run make)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/docsd-bench-git.XXXXXX")
docsd_pid=""
cleanup() {
  set +e
  if [ -n "$docsd_pid" ]; then kill -TERM "$docsd_pid" 2>/dev/null; wait "$docsd_pid" 2>/dev/null; fi
  if [ "${BENCH_KEEP:-0}" = 1 ]; then note "kept $work"; else rm -rf -- "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench \
  GIT_COMMITTER_EMAIL=bench@example.com GIT_CONFIG_NOSYSTEM=1 HOME="$work"

note "generating $pages pages and $images images"
t0=$(date +%s.%N)
mkdir "$work/src"
node bench/git-bench.mjs generate "$work/src" "$pages" "$images"
git -C "$work/src" init -q -b main
git -C "$work/src" add -A
git -C "$work/src" commit -q -m "Generated documentation"
git clone -q --bare "$work/src" "$work/src.git"
git init -q --bare -b main "$work/dst.git"
gen_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
repo_kb=$(du -sk "$work/src.git" | cut -f1)

port=$(free_port)
"$bin" serve --data "$work/data" --listen "127.0.0.1:$port" --site-listen 127.0.0.1:0 --allow-private-network --log-level error \
  "${extra_args[@]}" 2>>"$work/docsd.log" >/dev/null &
docsd_pid=$!
for (( i = 0; i < 300; i++ )); do
  [ "$(http_status "$port" /healthz)" = 200 ] && break
  kill -0 "$docsd_pid" 2>/dev/null || die "docsd exited: $(tail -5 "$work/docsd.log")"
  sleep 0.1
done
token=$("$bin" user create --data "$work/data" --email bench@example.com --name Bench | sed 's/.*"token":"\([^"]*\)".*/\1/')

note "import, export, re-import"
result=$(node bench/git-bench.mjs run "http://127.0.0.1:$port" "$token" "$work/src.git" "$work/dst.git") ||
  die "the run failed; docsd log: $(tail -5 "$work/docsd.log")"
hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$docsd_pid/status")
files=$(git -C "$work/dst.git" ls-tree -r --name-only main | wc -l)

j() { node -p "const r=JSON.parse(process.argv[1]); String($1)" "$result"; }
s() { awk -v ms="$1" 'BEGIN { printf "%.2f s", ms / 1000 }'; }
{
  echo "# docsd benchmark: Git sync (bench/git.sh)"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, docsd $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), SQLite."
  echo "Repository: $pages pages ($(j r.pages) in the space), $images images ($(j r.files) files), $(( repo_kb / 1024 )) MB packed; generated and committed in ${gen_s} s."
  echo
  echo "| step | wall (request to success) | job (startedAt to completedAt) | target |"
  echo "| --- | ---: | ---: | --- |"
  echo "| import | $(s "$(j r.import.wall_ms)") | $(s "$(j r.import.job_ms)") | < 30 s |"
  echo "| export ($files files written) | $(s "$(j r.export.wall_ms)") | $(s "$(j r.export.job_ms)") | < 30 s |"
  echo "| re-import of the unchanged commit | $(s "$(j r.reimport.wall_ms)") | $(s "$(j r.reimport.job_ms)") | < 1 s |"
  echo
  echo "Peak RSS of docsd (VmHWM): $(( hwm_kb / 1024 )) MB (target < 200 MB). The wall time includes the job's pickup (a request wakes the idle workers: jobs_kick)."
} >"$out/results-git.md"
cat "$out/results-git.md"
