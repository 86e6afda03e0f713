#!/usr/bin/env bash
# Build docsd and serve it on SQLite in ./data (the README's first command).
# Works from any directory. Listen address: $DOCSD_LISTEN (default 127.0.0.1:8080).
# Extra arguments are passed to `docsd serve`.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

scripts/deps.sh run
make -j"$(nproc 2>/dev/null || echo 2)"
mkdir -p data

listen=${DOCSD_LISTEN:-127.0.0.1:8080}
cat >&2 <<EOF
docsd: serving http://$listen  (data in $root/data, Ctrl-C to stop)
Get an API token (in another terminal, from $root):
  build/docsd user create --data ./data --email you@example.com --name "You"
then call the API with it:
  curl -H "Authorization: Bearer <token>" http://$listen/v1/user
EOF

exec build/docsd serve --data ./data --listen "$listen" "$@"
