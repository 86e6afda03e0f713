#!/usr/bin/env bash
# The integration runtime (src/runtime, workerd): 1,000 events to one warm integration, the
# time from handing an event to the runtime to the script's complete answer (p50 / p99), a
# cold start, and the worker's RSS. Results: bench/out/results-integrations.md.
#
# What is measured, first: runtime_deliver() called directly by a small C driver
# (bench/runtime-driver.c, linked with build/'s runtime and util objects), with GitBook's
# delivery body (multipart: event + environment). The script is tests/cli's fixture
# integration (@gitbook/runtime 0.23.3, bundled with esbuild exactly as `gitbook publish`
# does); its installation_setup handler calls the API back twice (GET /v1/user, PATCH the
# installation), answered here by a small Node server standing for docsd's API, so each
# event's time includes those two callbacks through the router worker. The queue and the
# API around a delivery (event recorded, job claimed, trace written) are not in this figure.
#
# env: BENCH_INTEGRATION_EVENTS (1000)  BENCH_NO_BUILD=1 (skip make)
#      BENCH_BUILD (build: the make build dir whose objects the driver links)
#      DOCSD_TEST_WORKERD (tests/cli's workerd)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
events=${BENCH_INTEGRATION_EVENTS:-1000}
build=${BENCH_BUILD:-build}
out="$root/bench/out"
mkdir -p "$out"
die() { echo "bench/integrations: $*" >&2; exit 1; }

[[ "$events" =~ ^[0-9]+$ ]] && [ "$events" -ge 2 ] || die "BENCH_INTEGRATION_EVENTS must be at least 2"
if [ "${BENCH_NO_BUILD:-0}" != 1 ]; then make BUILD="$build" -j"$(nproc 2>/dev/null || echo 2)"; fi
if [ ! -d tests/cli/node_modules/@gitbook/runtime ]; then
  npm --prefix tests/cli ci --ignore-scripts --no-audit --no-fund
fi
workerd=${DOCSD_TEST_WORKERD:-$root/tests/cli/node_modules/@cloudflare/workerd-linux-64/bin/workerd}
[ -x "$workerd" ] || die "workerd not found: $workerd (npm ci --ignore-scripts in tests/cli)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/docsd-bench-intg.XXXXXX")
api_pid=
cleanup() { [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

# The driver, linked with the objects `make` built.
pkgs="jansson libcurl libcrypto"
# shellcheck disable=SC2046
cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -o "$tmp/runtime-driver" bench/runtime-driver.c \
  "$build"/src/runtime/*.o "$build"/src/util/*.o $(pkg-config --libs $pkgs) -lpthread \
  || die "cannot build bench/runtime-driver.c (run make first)"

# The script, as `gitbook publish` builds it (@gitbook/cli 0.25.1's src/build.ts options).
node --input-type=module - "$tmp/script.js" <<'EOF'
import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/tests/cli/package.json');
const esbuild = require('esbuild');
await esbuild.build({
  platform: 'neutral', entryPoints: ['tests/cli/fixtures/hello-integration/src/index.ts'],
  outfile: process.argv[2], bundle: true, format: 'esm', target: 'es2020', minify: true,
  mainFields: ['worker', 'browser', 'module', 'jsnext', 'main'],
  conditions: ['worker', 'browser', 'import', 'production'],
  define: { 'process.env.NODE_ENV': '"production"', MODE: '"production"' },
  external: ['node:*', 'cloudflare:*'], nodePaths: ['tests/cli/node_modules'],
  jsx: 'automatic', jsxImportSource: '@gitbook/runtime', logLevel: 'error',
});
EOF

# docsd's API as the script sees it: GET /v1/user and the installation's PATCH.
node -e '
const http = require("node:http");
const s = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(req.url === "/v1/user" ? JSON.stringify({ object: "user", id: "bench-user", displayName: "Bench" })
                                   : JSON.stringify({ id: "inst-1", externalIds: ["hello-setup-done"] }));
  });
});
s.listen(0, "127.0.0.1", () => console.log(s.address().port));
' > "$tmp/api.port" &
api_pid=$!
for _ in $(seq 50); do [ -s "$tmp/api.port" ] && break; sleep 0.1; done
api_port=$(head -n 1 "$tmp/api.port")
[ -n "$api_port" ] || die "the stand-in API did not start"

result=$("$tmp/runtime-driver" "$workerd" "$tmp/script.js" "http://127.0.0.1:$api_port" "$events") \
  || die "driver failed: $result"
echo "$result"

# End to end through docsd (bench/integrations-api.mjs): the event recorded by an API call,
# claimed by the job queue, delivered to workerd, its trace written.
e2e=null
if [ -x "$build/docsd" ] && "$build/docsd" --help 2>&1 | grep -q -- --integration-runtime; then
  e2e=$(node bench/integrations-api.mjs "$build/docsd" "$workerd" "$tmp/script.js" "$events") \
    || die "the end-to-end run failed"
  echo "$e2e"
else
  echo "bench/integrations: $build/docsd has no --integration-runtime: end-to-end part skipped" >&2
fi

node -e '
const r = JSON.parse(process.argv[1]);
const e = JSON.parse(process.argv[3]);
const ok = (v, t) => (v < t ? "yes" : "NO");
const lines = [
  "# Integration runtime (workerd) benchmark",
  "",
  `Generated by bench/integrations.sh on ${new Date().toISOString()}: ${r.events} events (installation_setup, GitBook multipart body) to one integration (tests/cli/fixtures/hello-integration, two API callbacks each), runtime_deliver() called directly, one at a time.`,
  "",
  "| measure | value | target |",
  "|---|---|---|",
  `| cold start (first event, process start included) | ${r.cold_ms.toFixed(0)} ms | < 1000 ms: ${ok(r.cold_ms, 1000)} |`,
  `| warm event to answer, p50 | ${r.p50_ms.toFixed(2)} ms | < 20 ms: ${ok(r.p50_ms, 20)} |`,
  `| warm event to answer, p99 | ${r.p99_ms.toFixed(2)} ms | |`,
  `| warm event to answer, max | ${r.max_ms.toFixed(2)} ms | |`,
  `| worker RSS after the run | ${(r.rss_kib / 1024).toFixed(1)} MiB | |`,
  `| failures | ${r.failures} | 0 |`,
  `| processes started | ${r.started} | 1 |`,
  "",
  ...(e ? [
    `End to end through docsd (bench/integrations-api.mjs, ${e.events} events, one after another): each an installation_setup recorded by PATCH of the installation, claimed by the job queue, delivered to the same script, from the event'"'"'s createdAt to its "HTTP 200" trace line (docsd'"'"'s clock, ms resolution):`,
    "",
    "| measure | value | target |",
    "|---|---|---|",
    `| cold start (the install'"'"'s event, process start included) | ${e.cold_ms} ms | < 1000 ms: ${ok(e.cold_ms, 1000)} |`,
    `| event to answer, p50 | ${e.p50_ms} ms | < 20 ms: ${ok(e.p50_ms, 20)} |`,
    `| event to answer, p99 | ${e.p99_ms} ms | |`,
    `| event to answer, max | ${e.max_ms} ms | |`,
    "",
  ] : ["(No end-to-end part: the docsd build has no --integration-runtime.)", ""]),
  "First event'"'"'s console lines (as they go into the trace):",
  "",
  ...r.first_logs.map((l) => `- [${l.level}] ${l.message}`),
  "",
];
require("node:fs").writeFileSync(process.argv[2], lines.join("\n"));
' "$result" "$out/results-integrations.md" "$e2e"
echo "bench/integrations: wrote $out/results-integrations.md"
