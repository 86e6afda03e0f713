#!/usr/bin/env bash
# Install the Debian 12 packages docsd needs for one purpose:
#   run    build and serve (compiler, pkg-config, the -dev libraries)
#   test   run + Node.js >= 18 with npm, PostgreSQL 15 (throwaway clusters), wrk,
#          poppler-utils (pdftotext reads back the PDFs docsd renders), chromium (the
#          browser test of a published site drives it headless: tests/browser),
#          apertium + apertium-eng-spa (the translation tests translate English into Spanish),
#          git (the Git sync tests make bare repositories and serve one with git http-backend)
#   bench  run + Node.js >= 18 (seeding), nginx-light (the reference server), wrk, sqlite3 (storage figures),
#          git (the Git sync benchmark generates its repository)
# Prints nothing and changes nothing when everything is present. As root it runs
# apt-get update + apt-get install; otherwise it prints the sudo command and exits 1.
set -euo pipefail

usage() { echo "usage: $0 [run|test|bench]" >&2; exit 2; }
[ "$#" -le 1 ] || usage
purpose=${1:-run}

run_pkgs=(build-essential pkg-config curl libmicrohttpd-dev libjansson-dev
          libsqlite3-dev libpq-dev libssl-dev libcmark-gfm-dev
          libcmark-gfm-extensions-dev libcairo2-dev libpango1.0-dev libcurl4-openssl-dev libyaml-dev libxml2-dev libgit2-dev
          fonts-dejavu-core)
node_pkgs=(nodejs npm)

case "$purpose" in
  run)   wanted=("${run_pkgs[@]}") ;;
  test)  wanted=("${run_pkgs[@]}" "${node_pkgs[@]}" postgresql wrk poppler-utils chromium apertium apertium-eng-spa git) ;;
  bench) wanted=("${run_pkgs[@]}" "${node_pkgs[@]}" nginx-light wrk sqlite3 git) ;;
  -h|--help) usage ;;
  *) echo "deps.sh: unknown purpose '$purpose'" >&2; usage ;;
esac

# A node >= 18 already on PATH (nodesource, nvm, a tarball) with its npm is enough:
# Debian's nodejs/npm would conflict with it or shadow it.
have_node() {
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || return 1
  local major
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) || return 1
  [[ "$major" =~ ^[0-9]+$ ]] && [ "$major" -ge 18 ]
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

[ "${#missing[@]}" -eq 0 ] && exit 0

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
