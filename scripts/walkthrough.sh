#!/usr/bin/env bash
# Runs the README's "First requests" and "A walk-through" as written: every ```sh block
# between <!-- walkthrough:begin --> and <!-- walkthrough:end -->, in one bash -e, against a
# server already running (scripts/serve.sh). Two substitutions only: DOCSD=~/docsd becomes
# this repository's folder, and port 8080 becomes $PORT (default 8080).
# Used by scripts/fresh-debian.sh; run it by hand from any folder.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${PORT:-8080}
script=$(sed -n '/<!-- walkthrough:begin/,/<!-- walkthrough:end/p' "$root/README.md" |
  awk '/^```sh$/ {on=1; next} /^```$/ {on=0; next} on' |
  sed -e "s|^DOCSD=~/docsd$|DOCSD='$root'|" -e "s|127\.0\.0\.1:8080|127.0.0.1:$port|g")
[ -n "$script" ] || { echo "walkthrough.sh: no walk-through blocks in README.md" >&2; exit 1; }
grep -q "^DOCSD='$root'$" <<<"$script" || { echo "walkthrough.sh: README.md has no DOCSD=~/docsd line" >&2; exit 1; }
bash -euo pipefail -c "$script"
echo "walkthrough.sh: the README's walk-through passed"
