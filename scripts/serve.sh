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
# Published sites are served by a second listener on another origin (README, "Two origins"):
# the next port, under the other loopback name for 127.0.0.1 (--site-listen, --site-url).
lhost=${listen%:*} lport=${listen##*:}
case "$lhost" in 127.0.0.1) shost=localhost ;; localhost) shost=127.0.0.1 ;; *) shost=$lhost ;; esac
sites=${DOCSD_SITE_URL:-http://$shost:$((lport + 1))}
# Absolute paths everywhere, so that the banner's lines work from any folder and the
# server's 401 names the same data directory.
cat >&2 <<EOF
docsd: serving http://$listen  (data in $root/data, Ctrl-C to stop)
Published sites: $sites/sites/...  (their own origin; urls.published names them)
Get an API token (in another terminal, from any folder):
  TOKEN=\$($root/build/docsd user create --data $root/data --email you@example.com --name "You" --if-exists | sed 's/.*"token":"\([^"]*\)".*/\1/')
then call the API with it:
  curl -H "Authorization: Bearer \$TOKEN" http://$listen/v1/user
Use it in a browser: set that user's password, then open http://$listen/ and sign in:
  $root/build/docsd user password --data $root/data --email you@example.com
(README.md, "First requests" and "A walk-through", goes on from here; "Web interface" for the browser.)
EOF

exec "$root/build/docsd" serve --data "$root/data" --listen "$listen" "$@"
