#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests, listening on 127.0.0.1 only.
#
#   scripts/pg-cluster.sh start DIR        init + start a cluster in DIR (empty or missing;
#                                          default: a new mktemp -d), create database
#                                          docsd_test, print its URL as the last stdout line
#                                          and write it to DIR/url
#   scripts/pg-cluster.sh createdb DIR NAME  create database NAME, print its URL
#   scripts/pg-cluster.sh stop DIR         stop the cluster (fast) and rm -rf DIR
#
# Auth is trust, fsync is off: never use this for data you want to keep.
# As root, initdb/postgres run as the 'postgres' system user (initdb refuses root).
set -euo pipefail
# shellcheck source=scripts/net.sh
. "$(dirname "${BASH_SOURCE[0]}")/net.sh"

marker=.docsd-pg-cluster

die() { echo "pg-cluster.sh: $*" >&2; exit 1; }
usage() { echo "usage: $0 start [DIR] | createdb DIR NAME | stop DIR" >&2; exit 2; }

find_bindir() {
  local d
  if [ -n "${PG_BINDIR:-}" ] && [ -x "$PG_BINDIR/initdb" ]; then echo "$PG_BINDIR"; return; fi
  if command -v pg_config >/dev/null 2>&1; then
    d=$(pg_config --bindir 2>/dev/null || true)
    if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return; fi
  fi
  d=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return; fi
  die "no PostgreSQL server binaries (initdb) found; run scripts/deps.sh test"
}

# Run a command as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

psql_cmd() { # DIR SQL
  local dir=$1 sql=$2 port
  port=$(cat "$dir/port")
  "$(cat "$dir/bindir")/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" \
    -U postgres -d postgres -c "$sql" >&2
}

url_for() { # DIR DBNAME
  echo "postgres://postgres@127.0.0.1:$(cat "$1/port")/$2"
}

cmd_start() {
  local dir=${1:-} bindir port attempt started=0
  if [ -z "$dir" ]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/docsd-pg.XXXXXX")
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ -z "$(ls -A "$dir")" ] || die "$dir is not empty"
  bindir=$(find_bindir)

  touch "$dir/$marker"
  echo "$bindir" >"$dir/bindir"
  mkdir -p "$dir/sock"
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "user 'postgres' missing (install the postgresql package)"
    chown -R postgres: "$dir"
    as_owner test -w "$dir" || die "user 'postgres' cannot write $dir (a parent directory is not searchable); use a directory under /tmp"
  fi

  # cd: postgres may not be allowed into the caller's cwd (e.g. /root).
  ( cd "$dir" && as_owner "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 \
      --no-locale --no-sync >"$dir/initdb.log" 2>&1 ) \
    || { cat "$dir/initdb.log" >&2; die "initdb failed"; }

  for (( attempt = 0; attempt < 5; attempt++ )); do
    port=$(free_port)
    echo "$port" >"$dir/port"
    as_owner tee "$dir/data/postgresql.auto.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/sock'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
log_min_messages = warning
EOF
    if ( cd "$dir" && as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" \
           -w -t 60 start >/dev/null ); then
      started=1; break
    fi
    # Lost a race for the port: try another one; anything else is fatal.
    if grep -q 'could not bind\|Address already in use' "$dir/server.log" 2>/dev/null; then
      continue
    fi
    tail -n 20 "$dir/server.log" >&2 || true
    die "pg_ctl start failed"
  done
  [ "$started" -eq 1 ] || die "could not start PostgreSQL on a free port"

  psql_cmd "$dir" 'CREATE DATABASE docsd_test' || die "CREATE DATABASE docsd_test failed"
  url_for "$dir" docsd_test >"$dir/url"
  echo "pg-cluster.sh: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, dir $dir" >&2
  cat "$dir/url"
}

cmd_createdb() {
  local dir=$1 name=$2
  if [ ! -f "$dir/$marker" ] || [ ! -f "$dir/port" ]; then
    die "$dir is not a running cluster dir"
  fi
  [[ "$name" =~ ^[a-z_][a-z0-9_]*$ ]] || die "bad database name '$name'"
  psql_cmd "$dir" "CREATE DATABASE $name" || die "CREATE DATABASE $name failed"
  url_for "$dir" "$name"
}

cmd_stop() {
  local dir=$1 bindir pid i
  [ -d "$dir" ] || return 0
  [ -f "$dir/$marker" ] || die "$dir was not made by pg-cluster.sh; not touching it"
  if [ -f "$dir/data/postmaster.pid" ]; then
    bindir=$(cat "$dir/bindir" 2>/dev/null || find_bindir)
    pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null || true)
    if ! ( cd "$dir" && as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop \
             >/dev/null 2>&1 ); then
      if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
        echo "pg-cluster.sh: pg_ctl stop failed, killing postmaster $pid" >&2
        kill -9 "$pid" 2>/dev/null || true
        for (( i = 0; i < 50; i++ )); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      fi
    fi
  fi
  rm -rf -- "$dir"
}

case "${1:-}" in
  start)    [ "$#" -le 2 ] || usage; cmd_start "${2:-}" ;;
  createdb) [ "$#" -eq 3 ] || usage; cmd_createdb "$2" "$3" ;;
  stop)     [ "$#" -eq 2 ] || usage; cmd_stop "$2" ;;
  *) usage ;;
esac
