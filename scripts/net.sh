# Shared by scripts/pg-cluster.sh, bench/run.sh and bench/conns.sh (sourced, not run).
# Needs a die() function in the sourcing script.

# A TCP port on 127.0.0.1 that nothing answers on (bounded tries). Below the ephemeral
# range (32768+), so an outgoing client socket can never take the port between our
# check and the server's bind.
free_port() {
  local port i
  port=$(( 20000 + RANDOM % 12000 ))
  for (( i = 0; i < 200; i++ )); do
    if ! (: <>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return 0; fi
    port=$(( port + 1 ))
  done
  die "no free port found"
}

# HTTP status of GET PATH on 127.0.0.1:PORT, or nothing (bash /dev/tcp; no curl needed).
http_status() { # PORT PATH
  # shellcheck disable=SC2016 # expanded by the inner bash
  timeout 3 bash -c '
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf "GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n" "$2" "$1" >&3
    IFS=" " read -r _ code _ <&3 && printf "%s\n" "$code"' _ "$1" "$2" 2>/dev/null || true
}
