#!/usr/bin/env bash
# docsd benchmark: docsd against nginx serving the same bytes, plus write throughput,
# crash durability and peak memory. See bench/README.md. Results: bench/out/results.md.
#
# env: BENCH_DURATION (10s)  BENCH_RUNS (3)  BENCH_CONNS (64)  BENCH_WRK_THREADS (1)
#      BENCH_THREADS (docsd --threads, its default when empty)  BENCH_MEMBERS (10000)  BENCH_TEAMS (100)
#      BENCH_SPACES (100000, at least 50000: the list is read at page 500 of 100)
#      BENCH_NGINX_WORKERS (1)  BENCH_RATE_LIMIT (0 = unlimited, if docsd has --rate-limit)
#      BENCH_DOCSD_ARGS (extra `docsd serve` arguments, split on spaces)
#      BENCH_SITE_PAGES (1000)  BENCH_SITE_RENDERS (30)
#      BENCH_ONLY=sites (only the published-site rows; results in bench/out/results-sites.md)
#      BENCH_ONLY=git (only Git sync: bench/git.sh, BENCH_GIT_PAGES/BENCH_GIT_IMAGES; bench/out/results-git.md)
#      BENCH_ONLY=integrations (only the integration runtime: bench/integrations.sh; bench/out/results-integrations.md)
#      BENCH_ONLY=translate (only translations through Apertium: bench/translate.sh, BENCH_TRANSLATE_PAGES;
#                            bench/out/results-translate.md)
#      BENCH_NO_BUILD=1 (skip deps + make)  BENCH_KEEP=1 (keep the temp dir)
#      DOCSD_BIN (build/docsd)
set -euo pipefail
# shellcheck source=scripts/net.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/net.sh"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

duration=${BENCH_DURATION:-10s}
runs=${BENCH_RUNS:-3}
conns=${BENCH_CONNS:-64}
wrk_threads=${BENCH_WRK_THREADS:-1}
threads=${BENCH_THREADS:-}
members=${BENCH_MEMBERS:-10000}
teams=${BENCH_TEAMS:-100}
spaces=${BENCH_SPACES:-100000}
pages=${BENCH_PAGES:-10000}
content_spaces=${BENCH_CONTENT_SPACES:-10}
nginx_workers=${BENCH_NGINX_WORKERS:-1}
rate_limit=${BENCH_RATE_LIMIT:-0}
site_pages=${BENCH_SITE_PAGES:-1000}
site_renders=${BENCH_SITE_RENDERS:-30}
only=${BENCH_ONLY:-}
read -r -a extra_args <<<"${BENCH_DOCSD_ARGS:-}"
bin=${DOCSD_BIN:-build/docsd}
out="$root/bench/out"

die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: $*" >&2; }

[[ "$duration" =~ ^([0-9]+)(s|m)?$ ]] || die "BENCH_DURATION must look like 10s or 1m"
dur_s=${BASH_REMATCH[1]}
[ "${BASH_REMATCH[2]}" = m ] && dur_s=$(( dur_s * 60 ))
[ "$dur_s" -ge 2 ] || die "BENCH_DURATION must be at least 2s"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive integer"
case "$only" in ''|sites|git|integrations|translate) ;; *) die "BENCH_ONLY must be empty (everything), sites, git, integrations or translate" ;; esac

if [ "${BENCH_NO_BUILD:-0}" != 1 ]; then
  scripts/deps.sh bench
  make -j"$(nproc 2>/dev/null || echo 2)"
fi
[ -x "$bin" ] || die "$bin not found (run make)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
# Git sync stands alone (no nginx, no seeding): its own script and results file.
if [ "$only" = git ]; then DOCSD_BIN="$bin" exec "$root/bench/git.sh"; fi
# Translations stand alone too (Apertium as child processes; no nginx).
if [ "$only" = translate ]; then DOCSD_BIN="$bin" exec "$root/bench/translate.sh"; fi
# The integration runtime stands alone too (workerd driven directly; no nginx, no seeding).
if [ "$only" = integrations ]; then BENCH_NO_BUILD=1 exec "$root/bench/integrations.sh"; fi
for tool in wrk nginx node; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found; run scripts/deps.sh bench"
done

ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 4096 2>/dev/null || true

mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/docsd-bench.XXXXXX")
chmod 755 "$work" # nginx workers run as an unprivileged user and read $work/www
data="$work/data"
www="$work/www"
mkdir -p "$data" "$www" "$work/nginx"
export BENCH_LUA_DIR="$root/bench"

docsd_pid=""
nginx_pid=""
wrk_pid=""

stop_pid() { # PID SIGNAL: signal, wait up to 5 s, then SIGKILL
  local pid=$1 sig=$2 i
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
  kill "-$sig" "$pid" 2>/dev/null || true
  for (( i = 0; i < 50; i++ )); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  set +e
  stop_pid "$wrk_pid" TERM
  stop_pid "$docsd_pid" TERM
  stop_pid "$nginx_pid" QUIT
  if [ -f "$work/docsd.log" ]; then tail -n 200 "$work/docsd.log" >"$out/docsd.log.tail"; fi
  if [ "${BENCH_KEEP:-0}" = 1 ]; then note "kept $work"; else rm -rf -- "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_200() { # PID PORT PATH SECONDS
  local i
  for (( i = 0; i < $4 * 10; i++ )); do
    kill -0 "$1" 2>/dev/null || return 1
    [ "$(http_status "$2" "$3")" = 200 ] && return 0
    sleep 0.1
  done
  return 1
}

# Options this docsd build offers (from --help): rate limit off, access log quiet.
help=$(timeout 5 "$bin" --help 2>&1 || true)
serve_opts=()
# wrk and the seeding come from 127.0.0.1 only: no per-address connection limit.
if grep -q -- '--max-connections-per-ip' <<<"$help"; then serve_opts+=(--max-connections-per-ip 0); fi
[ -n "$threads" ] && serve_opts+=(--threads "$threads")
if grep -q -- '--rate-limit' <<<"$help"; then serve_opts+=(--rate-limit "$rate_limit"); fi
quiet=()
if grep -q -- '--quiet' <<<"$help"; then quiet=(--quiet)
elif grep -q -- '--no-access-log' <<<"$help"; then quiet=(--no-access-log)
elif grep -q -- '--log-level' <<<"$help"; then quiet=(--log-level error)
fi
serve_opts+=("${extra_args[@]}")

docsd_port=$(free_port)
docsd="http://127.0.0.1:$docsd_port"
# Published sites are on a listener of their own (README, "Two origins"): the site rows ask it
# (the main origin would answer them with a 308).
docsd_site="$docsd"
if grep -q -- '--site-listen' <<<"$help"; then
  site_port=$(free_port)
  serve_opts+=(--site-listen "127.0.0.1:$site_port" --site-url "http://127.0.0.1:$site_port")
  docsd_site="http://127.0.0.1:$site_port"
fi

start_docsd() {
  local attempt
  for attempt in quiet plain; do
    if [ "$attempt" = plain ]; then
      [ "${#quiet[@]}" -gt 0 ] || break
      note "docsd did not start with ${quiet[*]}; retrying without it"
      quiet=()
    fi
    "$bin" serve --data "$data" --listen "127.0.0.1:$docsd_port" "${serve_opts[@]}" "${quiet[@]}" \
      2>>"$work/docsd.log" >/dev/null &
    docsd_pid=$!
    if wait_200 "$docsd_pid" "$docsd_port" /healthz 30; then return 0; fi
    stop_pid "$docsd_pid" KILL
    docsd_pid=""
  done
  tail -n 30 "$work/docsd.log" >&2 || true
  die "docsd did not answer GET /healthz with 200 within 30 s"
}

# --- seed -------------------------------------------------------------------------------
note "seeding: 1 user, 1 org, $members members, $teams teams (data in $data)"
user_json=$("$bin" user create --data "$data" --email admin@bench.example.com --name Admin) \
  || die "docsd user create failed"
token=$(node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const t=JSON.parse(s).token;if(!t)process.exit(1);console.log(t)})' <<<"$user_json") \
  || die "no token in: $user_json"
auth="Authorization: Bearer $token"

start_docsd
note "docsd pid $docsd_pid on $docsd: serve ${serve_opts[*]} ${quiet[*]}"
if [ "$only" != sites ]; then
  t0=$(date +%s)
  seed_json=$(node bench/seed.mjs seed "$docsd" "$token" "$www" "$members" "$teams") || die "seeding failed"
  note "seeded in $(( $(date +%s) - t0 )) s: $seed_json"
  org_id=$(node -p 'JSON.parse(process.argv[1]).orgId' "$seed_json")
  t0=$(date +%s)
  spaces_json=$(node bench/seed.mjs spaces "$docsd" "$token" "$www" "$spaces") || die "seeding spaces failed"
  note "seeded $spaces spaces in $(( $(date +%s) - t0 )) s: $spaces_json"
  space_id=$(node -p 'JSON.parse(process.argv[1]).spaceId' "$spaces_json")
  spaces_org=$(node -p 'JSON.parse(process.argv[1]).orgId' "$spaces_json")
  spaces_page500=$(node -p 'JSON.parse(process.argv[1]).page500' "$spaces_json")
  members_first_page=$(node -p 'JSON.parse(process.argv[1]).membersOnFirstPage' "$seed_json")
  t0=$(date +%s)
  content_json=$(node bench/seed.mjs content "$docsd" "$token" "$www" "$pages" "$content_spaces") || die "seeding content failed"
  note "seeded $content_spaces spaces of $pages pages and measured merges and searches in $(( $(date +%s) - t0 )) s: $content_json"
  cj() { node -p "const j=JSON.parse(process.argv[1]); String($1)" "$content_json"; }
  content_space=$(cj j.spaceId)
  page_path=$(cj j.pagePath)
  rev_from=$(cj j.revisionsFrom)
  # Storage of the 100 one-page change requests and their merges (200 revisions): manifest bytes
  # and the page bodies they added, against one full snapshot of the space.
  sq() { sqlite3 "$data/docsd.db" "$1"; }
  rev_bytes=$(sq "SELECT COALESCE(SUM(LENGTH(manifest)),0) FROM revisions WHERE space_id='$content_space' AND created_at > (SELECT created_at FROM revisions WHERE id='$rev_from')")
  rev_rows=$(sq "SELECT COUNT(*) FROM revisions WHERE space_id='$content_space' AND created_at > (SELECT created_at FROM revisions WHERE id='$rev_from')")
  snap_bytes=$(sq "SELECT COALESCE(MAX(LENGTH(manifest)),0) FROM revisions WHERE space_id='$content_space' AND parent_id IS NULL")
  body_avg=$(sq "SELECT CAST(AVG(LENGTH(markdown)) AS INTEGER) FROM page_bodies")
  space_bytes_full=$(( snap_bytes + body_avg * pages ))
fi

# The published site: one space of $site_pages pages in a public site; also times the first
# render of a page after a merge that touches it ($site_renders times).
t0=$(date +%s)
site_json=$(node bench/seed-site.mjs site "$docsd" "$token" "$www" "$site_pages" "$site_renders") \
  || die "seeding the site failed"
note "seeded a site of $site_pages pages and timed $site_renders first renders in $(( $(date +%s) - t0 )) s: $site_json"
sj() { node -p "const j=JSON.parse(process.argv[1]); String($1)" "$site_json"; }
site_page_path=$(sj j.pagePath)
site_published_path=$(sj j.publishedPath)
site_blocks_path=$(sj j.blocksPath)
site_claims_path=$(sj j.claimsPath)
site_claims_cookie=$(sj j.claimsCookie)

# The web interface: the bench user signs in with a password (docsd user password, stdin) and
# reads a page of the site's space and its change requests with the session cookie.
app_password="bench password $(date +%s)"
"$bin" user password --data "$data" --email admin@bench.example.com <<<"$app_password" >/dev/null \
  || die "docsd user password failed"
app_json=$(node bench/seed-app.mjs "$docsd" admin@bench.example.com "$app_password" "$(sj j.spaceId)" \
  "$(sj j.spacePagePath)" "$www") || die "signing in to the web interface failed"
aj() { node -p "const j=JSON.parse(process.argv[1]); String($1)" "$app_json"; }
app_cookie=$(aj j.cookie)
app_page_path=$(aj j.pagePath)
app_changes_path=$(aj j.changesPath)

# --- nginx with the same bytes ----------------------------------------------------------
chmod 755 "$www"; chmod 644 "$www"/*.json "$www"/*.html
nginx_port=$(free_port)
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes $nginx_workers;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  types { text/html html; }
  default_type application/json;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000000;
  keepalive_timeout 65;
  client_body_temp_path $work/nginx/body;
  server {
    listen 127.0.0.1:$nginx_port;
    root $www;
  }
}
EOF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
nginx_pid=$!
wait_200 "$nginx_pid" "$nginx_port" /site-published.json 10 \
  || { cat "$work/nginx/error.log" >&2 || true; die "nginx did not serve /site-published.json"; }
ref="http://127.0.0.1:$nginx_port"

# --- wrk --------------------------------------------------------------------------------
# kv LINE KEY: the value of KEY=value in a BENCH line
kv() { sed -n "s/.* $2=\\([0-9.]*\\).*/\\1/p" <<<"$1"; }

median() {
  printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {
    if (NR == 0) print 0; else if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2 }'
}

wrk_seq=0
# run_wrk NAME URL SCRIPT AUTH(0|1) [SCRIPT_ARG]: one wrk run; sets $bench_line
run_wrk() {
  local name=$1 url=$2 script=$3 use_auth=$4 log opts=()
  wrk_seq=$(( wrk_seq + 1 ))
  log="$out/wrk-$(printf '%02d' "$wrk_seq")-$name.txt"
  opts=(-t"$wrk_threads" -c"$conns" -d"$duration" --latency --timeout 5s -s "$script")
  [ "$use_auth" = 1 ] && opts+=(-H "$auth")
  [ "$use_auth" = cookie ] && opts+=(-H "Cookie: $site_claims_cookie")
  [ "$use_auth" = app ] && opts+=(-H "Cookie: $app_cookie" -H "Accept: text/html")
  opts+=("$url")
  [ "$#" -ge 5 ] && opts+=(-- "$5")
  timeout $(( dur_s + 60 )) wrk "${opts[@]}" >"$log" 2>&1 || die "wrk failed ($name), see $log"
  bench_line=$(grep '^BENCH ' "$log" | tail -n 1) || die "no result from wrk ($name), see $log"
}

declare -A r_rps r_p50 r_p99 r_non2xx r_err
put_created=0
# measure KEY NAME URL SCRIPT AUTH: $runs runs, medians into r_*[KEY]. For KEY=put the
# rate is created teams/s (201s counted by teams.lua) and put_created sums the 201s.
measure() {
  local key=$1 name=$2 url=$3 script=$4 use_auth=$5 i rps=() p50=() p99=() non2xx=0 err=0 line c
  for (( i = 1; i <= runs; i++ )); do
    run_wrk "$name" "$url" "$script" "$use_auth" "r$(date +%s)-$i"
    line=$bench_line
    if [ "$key" = put ]; then
      c=$(kv "$line" created)
      put_created=$(( put_created + c ))
      rps+=("$(awk -v c="$c" -v s="$(kv "$line" duration_s)" 'BEGIN { printf "%.1f", c / s }')")
    else
      rps+=("$(kv "$line" rps)")
    fi
    p50+=("$(kv "$line" p50_us)")
    p99+=("$(kv "$line" p99_us)")
    non2xx=$(( non2xx + $(kv "$line" non2xx) ))
    err=$(( err + $(kv "$line" timeouts) + $(kv "$line" connect_errors) + $(kv "$line" read_errors) + $(kv "$line" write_errors) ))
    note "$name run $i/$runs: ${rps[-1]}/s, p50 $(kv "$line" p50_us) us, p99 $(kv "$line" p99_us) us, non-2xx $(kv "$line" non2xx)"
  done
  r_rps[$key]=$(median "${rps[@]}")
  r_p50[$key]=$(median "${p50[@]}")
  r_p99[$key]=$(median "${p99[@]}")
  r_non2xx[$key]=$non2xx
  r_err[$key]=$err
}

count_teams() { node bench/seed.mjs count-teams "$docsd" "$token" "$org_id"; }

ms() { awk -v u="$1" 'BEGIN { printf "%.2f ms", u / 1000 }'; }
num() { awk -v x="$1" 'BEGIN { printf "%.0f", x }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
rm -f "$out"/wrk-*.txt
report="$root/bench/report.lua"
teams_lua="$root/bench/teams.lua"
org_path="/v1/orgs/${org_id:-}"

# The published-site rows: a page of the $site_pages-page site (public, no token) and the
# site's published-content JSON, each against nginx serving the same bytes.
measure_site() {
  measure nginx_site_page nginx-site-page "$ref/site-page.html" "$report" 0
  measure site_page docsd-site-page "$docsd_site$site_page_path" "$report" 0
  measure nginx_site_published nginx-site-published "$ref/site-published.json" "$report" 0
  measure site_published docsd-site-published "$docsd$site_published_path" "$report" 1
  # A page with every GitBook block (public), and a page of {% if %} blocks on a visitor-auth
  # site read with a visitor token's cookie (the render cache keyed by the claims).
  measure nginx_site_blocks nginx-site-blocks "$ref/site-blocks.html" "$report" 0
  measure site_blocks docsd-site-blocks "$docsd_site$site_blocks_path" "$report" 0
  measure nginx_site_claims nginx-site-claims "$ref/site-claims.html" "$report" 0
  measure site_claims docsd-site-claims "$docsd_site$site_claims_path" "$report" cookie
  # The web interface (signed in: a session cookie; rendered per request, no page cache).
  measure nginx_app_page nginx-app-page "$ref/app-page.html" "$report" 0
  measure app_page docsd-app-page "$docsd$app_page_path" "$report" app
  measure nginx_app_changes nginx-app-changes "$ref/app-changes.html" "$report" 0
  measure app_changes docsd-app-changes "$docsd$app_changes_path" "$report" app
}
# site_rows / site_render_line: the rows of measure_site and the first-render line, for both reports.
site_rows() {
  echo "| GET /sites/{site}/{page}, a page of a $site_pages-page published site ($(wc -c <"$www/site-page.html") B HTML) | $(num "${r_rps[site_page]}") | $(ms "${r_p50[site_page]}") | $(ms "${r_p99[site_page]}") | $(num "${r_rps[nginx_site_page]}") (nginx, same bytes) | $(ratio "${r_rps[site_page]}" "${r_rps[nginx_site_page]}") |"
  echo "| GET /sites/{site}, a page with every GitBook block ($(wc -c <"$www/site-blocks.html") B HTML) | $(num "${r_rps[site_blocks]}") | $(ms "${r_p50[site_blocks]}") | $(ms "${r_p99[site_blocks]}") | $(num "${r_rps[nginx_site_blocks]}") (nginx, same bytes) | $(ratio "${r_rps[site_blocks]}" "${r_rps[nginx_site_blocks]}") |"
  echo "| GET /sites/{site}/plans, {% if %} blocks on a visitor-auth site, with a visitor token's cookie ($(wc -c <"$www/site-claims.html") B HTML) | $(num "${r_rps[site_claims]}") | $(ms "${r_p50[site_claims]}") | $(ms "${r_p99[site_claims]}") | $(num "${r_rps[nginx_site_claims]}") (nginx, same bytes) | $(ratio "${r_rps[site_claims]}" "${r_rps[nginx_site_claims]}") |"
  echo "| GET /s/{spaceId}/{page}, the web interface's page of that space, signed in ($(wc -c <"$www/app-page.html") B HTML) | $(num "${r_rps[app_page]}") | $(ms "${r_p50[app_page]}") | $(ms "${r_p99[app_page]}") | $(num "${r_rps[nginx_app_page]}") (nginx, same bytes) | $(ratio "${r_rps[app_page]}" "${r_rps[nginx_app_page]}") |"
  echo "| GET /s/{spaceId}/~/changes, its change requests, signed in ($(wc -c <"$www/app-changes.html") B HTML) | $(num "${r_rps[app_changes]}") | $(ms "${r_p50[app_changes]}") | $(ms "${r_p99[app_changes]}") | $(num "${r_rps[nginx_app_changes]}") (nginx, same bytes) | $(ratio "${r_rps[app_changes]}" "${r_rps[nginx_app_changes]}") |"
  echo "| GET /v1/orgs/{id}/sites/{siteId}/published ($(wc -c <"$www/site-published.json") B) | $(num "${r_rps[site_published]}") | $(ms "${r_p50[site_published]}") | $(ms "${r_p99[site_published]}") | $(num "${r_rps[nginx_site_published]}") (nginx, same bytes) | $(ratio "${r_rps[site_published]}" "${r_rps[nginx_site_published]}") |"
}
site_render_line() {
  echo "Published site ($site_pages pages, sequential requests from Node): a page's first render after a merge that edits it p50 $(sj j.firstRender.p50) ms (p99 $(sj j.firstRender.p99) ms, $site_renders merges); the next GET of the same page p50 $(sj j.warm.p50) ms (p99 $(sj j.warm.p99) ms)."
}

if [ "$only" = sites ]; then
  measure_site
else
  measure nginx_org nginx-org "$ref/org.json" "$report" 0
  measure org docsd-org "$docsd$org_path" "$report" 1
  measure nginx_members nginx-members "$ref/members.json" "$report" 0
  measure members docsd-members "$docsd$org_path/members?limit=100" "$report" 1
  measure members_uncached docsd-members-uncached "$docsd$org_path/members?limit=100" "$root/bench/uncached.lua" 1
  measure nginx_page nginx-page "$ref/page.json" "$report" 0
  measure page docsd-page "$docsd$page_path" "$report" 1
  measure_site
  measure nginx_space nginx-space "$ref/space.json" "$report" 0
  measure space docsd-space "$docsd/v1/spaces/$space_id" "$report" 1
  measure nginx_spaces nginx-spaces "$ref/spaces.json" "$report" 0
  measure spaces docsd-spaces "$docsd/v1/orgs/$spaces_org/spaces?limit=100" "$report" 1
  measure spaces_uncached docsd-spaces-uncached "$docsd/v1/orgs/$spaces_org/spaces?limit=100" "$root/bench/uncached.lua" 1
  measure spaces500 docsd-spaces-p500-uncached "$docsd$spaces_page500" "$root/bench/uncached.lua" 1
  teams_before=$(count_teams) || die "counting teams failed"
  measure put docsd-put-teams "$docsd$org_path/teams" "$teams_lua" 1
fi

if [ "$only" = sites ]; then
  {
    echo "# docsd benchmark: published-site rows (BENCH_ONLY=sites)"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, docsd $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')."
    echo "docsd \`serve ${serve_opts[*]} ${quiet[*]}\` on SQLite; nginx $(nginx -v 2>&1 | sed 's|.*/||'), worker_processes $nginx_workers, access_log off;"
    echo "wrk -t$wrk_threads -c$conns -d$duration, median of $runs runs; everything on the same machine."
    echo
    echo "| endpoint | docsd req/s | p50 | p99 | reference req/s | ratio |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: |"
    site_rows
    echo
    site_render_line
    echo
    echo "Non-2xx responses: site page ${r_non2xx[site_page]}, published ${r_non2xx[site_published]}, app page ${r_non2xx[app_page]}, app change requests ${r_non2xx[app_changes]}; socket errors/timeouts: site page ${r_err[site_page]}, published ${r_err[site_published]}, nginx ${r_err[nginx_site_page]}/${r_err[nginx_site_published]}. Raw wrk output: bench/out/wrk-*.txt."
  } >"$out/results-sites.md"
  echo
  cat "$out/results-sites.md"
  exit 0
fi

# --- peak memory, before the crash test replaces the process ------------------------------
vm_hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$docsd_pid/status" 2>/dev/null || echo 0)
vm_rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$docsd_pid/status" 2>/dev/null || echo 0)

# --- durability: kill -9 under PUT load, restart, every acknowledged team must be there ---
note "durability: PUT load, kill -9 docsd after $(( dur_s / 2 )) s, restart on the same data"
kill_log="$out/wrk-$(printf '%02d' $(( wrk_seq + 1 )))-docsd-put-kill9.txt"
wrk -t"$wrk_threads" -c"$conns" -d"$duration" --timeout 5s -s "$teams_lua" -H "$auth" \
  "$docsd$org_path/teams" -- "k$(date +%s)" >"$kill_log" 2>&1 &
wrk_pid=$!
sleep $(( dur_s / 2 ))
kill -KILL "$docsd_pid"
wait "$docsd_pid" 2>/dev/null || true
docsd_pid=""
killed_wait=0
while kill -0 "$wrk_pid" 2>/dev/null && [ "$killed_wait" -lt $(( dur_s * 10 + 100 )) ]; do
  sleep 0.1; killed_wait=$(( killed_wait + 1 ))
done
stop_pid "$wrk_pid" TERM
wrk_pid=""
kill_line=$(grep '^BENCH ' "$kill_log" | tail -n 1) || die "no result from the kill -9 wrk run, see $kill_log"
kill_created=$(kv "$kill_line" created)
acked=$(( put_created + kill_created ))
start_docsd
teams_after=$(count_teams) || die "counting teams after the restart failed"
expected=$(( teams_before + acked ))
if [ "$teams_after" -ge "$expected" ]; then durability=PASS; else durability=FAIL; fi
note "durability $durability: $teams_after teams after restart, >= $teams_before before the PUT runs + $acked acknowledged ($put_created in $runs runs, $kill_created in the killed run)"

# --- report -----------------------------------------------------------------------------
org_bytes=$(wc -c <"$www/org.json")
members_bytes=$(wc -c <"$www/members.json")
space_bytes=$(wc -c <"$www/space.json")
spaces_bytes=$(wc -c <"$www/spaces.json")
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)

{
  echo "# docsd benchmark"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores${cpu:+ ($cpu)}, docsd $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')."
  echo "docsd \`serve ${serve_opts[*]} ${quiet[*]}\` on SQLite; nginx $(nginx -v 2>&1 | sed 's|.*/||'), worker_processes $nginx_workers, access_log off;"
  echo "wrk -t$wrk_threads -c$conns -d$duration, median of $runs runs; everything on the same machine."
  echo "Seeded: 1 org, $members invited members ($members_first_page on the first members page), $teams teams; a second org with $spaces spaces."
  echo
  echo "| endpoint | docsd req/s | p50 | p99 | reference req/s | ratio |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  echo "| GET /v1/orgs/{id} ($org_bytes B) | $(num "${r_rps[org]}") | $(ms "${r_p50[org]}") | $(ms "${r_p99[org]}") | $(num "${r_rps[nginx_org]}") (nginx, same bytes) | $(ratio "${r_rps[org]}" "${r_rps[nginx_org]}") |"
  echo "| GET /v1/orgs/{id}/members?limit=100 ($members_bytes B) | $(num "${r_rps[members]}") | $(ms "${r_p50[members]}") | $(ms "${r_p99[members]}") | $(num "${r_rps[nginx_members]}") (nginx, same bytes) | $(ratio "${r_rps[members]}" "${r_rps[nginx_members]}") |"
  echo "| same, uncached (a unique query argument per request) | $(num "${r_rps[members_uncached]}") | $(ms "${r_p50[members_uncached]}") | $(ms "${r_p99[members_uncached]}") | $(num "${r_rps[nginx_members]}") (nginx, same bytes) | $(ratio "${r_rps[members_uncached]}" "${r_rps[nginx_members]}") |"
  echo "| GET /v1/spaces/{id} ($space_bytes B) | $(num "${r_rps[space]}") | $(ms "${r_p50[space]}") | $(ms "${r_p99[space]}") | $(num "${r_rps[nginx_space]}") (nginx, same bytes) | $(ratio "${r_rps[space]}" "${r_rps[nginx_space]}") |"
  echo "| GET /v1/orgs/{id}/spaces?limit=100, page 1 of $(( spaces / 100 )) ($spaces_bytes B) | $(num "${r_rps[spaces]}") | $(ms "${r_p50[spaces]}") | $(ms "${r_p99[spaces]}") | $(num "${r_rps[nginx_spaces]}") (nginx, same bytes) | $(ratio "${r_rps[spaces]}" "${r_rps[nginx_spaces]}") |"
  echo "| same, uncached (a unique query argument per request) | $(num "${r_rps[spaces_uncached]}") | $(ms "${r_p50[spaces_uncached]}") | $(ms "${r_p99[spaces_uncached]}") | $(num "${r_rps[nginx_spaces]}") (nginx, same bytes) | $(ratio "${r_rps[spaces_uncached]}" "${r_rps[nginx_spaces]}") |"
  echo "| same, page 500, uncached | $(num "${r_rps[spaces500]}") | $(ms "${r_p50[spaces500]}") | $(ms "${r_p99[spaces500]}") | $(num "${r_rps[spaces_uncached]}") (docsd, page 1 uncached) | $(ratio "${r_rps[spaces500]}" "${r_rps[spaces_uncached]}") |"
  echo "| GET /v1/spaces/{id}/content/page/{pageId}, space of $pages pages ($(wc -c <"$www/page.json") B) | $(num "${r_rps[page]}") | $(ms "${r_p50[page]}") | $(ms "${r_p99[page]}") | $(num "${r_rps[nginx_page]}") (nginx, same bytes) | $(ratio "${r_rps[page]}" "${r_rps[nginx_page]}") |"
  site_rows
  echo "| PUT /v1/orgs/{id}/teams (created teams/s) | $(num "${r_rps[put]}") | $(ms "${r_p50[put]}") | $(ms "${r_p99[put]}") | - | - |"
  echo
  echo "Content ($content_spaces spaces of $pages pages, sequential requests from Node): merge of a change request editing one page p50 $(cj j.merge.p50) ms (p99 $(cj j.merge.p99) ms, 100 merges); space search p50 $(cj j.spaceSearch.p50) ms (p99 $(cj j.spaceSearch.p99)); org search over $(( pages * content_spaces )) pages p50 $(cj j.orgSearch.p50) ms (p99 $(cj j.orgSearch.p99))."
  echo
  site_render_line
  echo
  echo "Storage: 100 change requests editing one page each, merged ($rev_rows revisions), added $rev_bytes bytes of manifests plus at most 100 page bodies of ~$body_avg bytes: $(( rev_bytes + 100 * body_avg )) bytes, about $(( (rev_bytes + 100 * body_avg) / (body_avg > 0 ? body_avg : 1) )) pages' worth; one full copy of the space is ~$space_bytes_full bytes (snapshot $snap_bytes + $pages bodies)."
  echo
  echo "Peak RSS of docsd (VmHWM, seeding + all runs above): $(( vm_hwm / 1024 )) MiB (VmRSS at the end $(( vm_rss / 1024 )) MiB)."
  echo
  echo "Durability (kill -9 during a PUT load, restart on the same data): **$durability**: $teams_after teams after the restart; needed >= $expected ($teams_before before the PUT runs + $acked acknowledged with 201: $put_created in $runs runs, $kill_created in the killed run)."
  echo
  echo "Non-2xx responses: GET org ${r_non2xx[org]}, GET members ${r_non2xx[members]}, PUT teams ${r_non2xx[put]}; socket errors/timeouts: GET org ${r_err[org]}, GET members ${r_err[members]}, PUT teams ${r_err[put]}, nginx ${r_err[nginx_org]}/${r_err[nginx_members]}. Raw wrk output: bench/out/wrk-*.txt."
} >"$out/results.md"

echo
cat "$out/results.md"
[ "$durability" = PASS ] || exit 1
