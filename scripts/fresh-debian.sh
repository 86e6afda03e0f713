#!/usr/bin/env bash
# Proves the README's two commands on a fresh Debian 12: builds a minbase root with
# debootstrap, clones this repository (its committed HEAD) into it and, inside the root,
# runs `scripts/serve.sh` (until /healthz answers, then the README's first requests and a
# published page), stops it, and runs `CI=true scripts/test.sh`. Prints each stage's time
# and the test command's final line. Too slow for the test command: run it by hand (root)
# before changing what the set-up installs.
#
#   scripts/fresh-debian.sh [DIR]    DIR: where the root goes (default: a new mktemp -d,
#                                    removed at the end unless KEEP_ROOT=1)
#
# The Debian mirror is the host's own (its apt sources), or $DEBIAN_MIRROR. The root shares
# the host's network namespace; the server listens on 127.0.0.1:$FRESH_PORT (default 18080).
# Needs: root, debootstrap (installed when missing), about 4 GB of disk.
set -euo pipefail

[ "$(id -u)" -eq 0 ] || { echo "fresh-debian.sh: run as root (debootstrap, chroot)" >&2; exit 1; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${FRESH_PORT:-18080}
dir=${1:-}
own_dir=0
if [ -z "$dir" ]; then dir=$(mktemp -d /var/tmp/docsd-fresh.XXXXXX); own_dir=1; fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# The root's own directory is the chroot's "/": mktemp makes it 0700, which would keep every
# user but root (postgres, for the test command's cluster) from reaching any path inside.
chmod 755 "$dir"
started=$(date +%s)
times=()
step_name=""
step_start=0
serve_pid=""

step() {
  step_end
  step_name=$1; step_start=$(date +%s)
  printf '\n=== %s\n' "$1"
}
step_end() {
  [ -n "$step_name" ] || return 0
  times+=("$step_name: $(( $(date +%s) - step_start )) s")
  printf '=== %s: %d s\n' "$step_name" "$(( $(date +%s) - step_start ))"
  step_name=""
}

mounted=()
cleanup() {
  local rc=$? m
  set +e
  if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null; fi
  # anything still running inside the root (a server, PostgreSQL) goes before the unmounts
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$dir" ] && kill -9 "${p#/proc/}" 2>/dev/null
  done
  sleep 1
  for (( i=${#mounted[@]}-1; i>=0; i-- )); do umount -R "${mounted[$i]}" 2>/dev/null || umount -lR "${mounted[$i]}"; done
  step_end
  echo
  printf '%s\n' "${times[@]}"
  echo "fresh-debian.sh: $(( $(date +%s) - started )) s in total, exit $rc"
  if [ "$own_dir" -eq 1 ] && [ "${KEEP_ROOT:-0}" != 1 ]; then rm -rf --one-file-system "$dir"; fi
  exit "$rc"
}
trap cleanup EXIT

# The host's Debian mirror (deb822 URIs: or a one-line `deb URL suite`).
mirror=${DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' | head -n 1)
fi
if [ -z "$mirror" ]; then
  mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\/debian\) bookworm .*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n 1)
fi
[ -n "$mirror" ] || { echo "fresh-debian.sh: no Debian mirror in the host's apt sources; set DEBIAN_MIRROR" >&2; exit 1; }

step "debootstrap (bookworm minbase)"
command -v debootstrap >/dev/null 2>&1 || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap; } >/dev/null
debootstrap --variant=minbase bookworm "$dir" "$mirror" > "$dir.debootstrap.log" 2>&1 \
  || { tail -n 20 "$dir.debootstrap.log"; exit 1; }
# The sources of a fresh Debian 12 install: the release, its updates and security.
cat > "$dir/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror}-security bookworm-security main
EOF
cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
# The host's own extra certificate authorities (/usr/local/share/ca-certificates: a
# TLS-inspecting egress proxy, for example) go into the root and to Node, as on the host:
# a fresh machine behind such a proxy needs them as well. None: nothing changes.
extra_ca=""
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$dir/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/"
  cat /usr/local/share/ca-certificates/*.crt > "$dir/etc/extra-ca.crt"
  extra_ca=NODE_EXTRA_CA_CERTS=/etc/extra-ca.crt
fi
for m in proc sys dev; do
  mount --rbind "/$m" "$dir/$m"; mount --make-rslave "$dir/$m"; mounted+=("$dir/$m")
done

step "clone"
git clone -q --no-hardlinks "$repo" "$dir/root/docsd"
git -C "$dir/root/docsd" log -1 --format='%h %s'

inside() { chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 $extra_ca "$@"; }

step "scripts/serve.sh (until /healthz answers)"
inside bash -c "cd /root/docsd && DOCSD_LISTEN=127.0.0.1:$port scripts/serve.sh" > "$dir/root/serve.log" 2>&1 &
serve_pid=$!
ok=0
for _ in $(seq 1 900); do   # 30 minutes at most: apt-get and the build come first
  if ! kill -0 "$serve_pid" 2>/dev/null; then break; fi
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then ok=1; break; fi
  sleep 2
done
[ "$ok" -eq 1 ] || { tail -n 40 "$dir/root/serve.log"; echo "fresh-debian.sh: scripts/serve.sh did not serve" >&2; exit 1; }
sed -n '/^docsd: serving/,$p' "$dir/root/serve.log" | head -n 8

step "the README's walk-through (from /tmp)"
inside bash -c "cd /tmp && PORT=$port bash /root/docsd/scripts/walkthrough.sh" || { echo "fresh-debian.sh: the walk-through failed" >&2; exit 1; }
kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=""

step "CI=true scripts/test.sh"
set +e
inside bash -c "cd /root/docsd && CI=true scripts/test.sh" > "$dir/root/test.log" 2>&1
rc=$?
set -e
grep -E '^(times:|test\.sh:|tests:|failed stages:|--> )' "$dir/root/test.log" || true
[ "$rc" -eq 0 ] || { echo "fresh-debian.sh: scripts/test.sh exited $rc (log: $dir/root/test.log; KEEP_ROOT=1 keeps it)" >&2; exit "$rc"; }
