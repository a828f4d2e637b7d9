#!/usr/bin/env bash
# Starts the federation's services for tests and benchmarks, from Debian's
# packages, on loopback only, with their data under this checkout's target/: PostgreSQL (a
# cluster of its own in target/pg) and nats-server (target/nats). Idempotent: a service of
# this checkout that already runs is left alone. Prints the environment to use them:
#
#   eval "$(bash scripts/services.sh start)"   # exports BAOQI_TEST_POSTGRES, BAOQI_TEST_NATS
#   bash scripts/services.sh stop
#
# Each checkout has its own services on its own ports: the ports are chosen free
# the first time and kept in target/services.env, so a second checkout on the same machine
# neither uses nor stops the first one's (BAOQI_PG_PORT / BAOQI_NATS_PORT choose them).
#
# PostgreSQL refuses to run as root. As root the cluster runs in a user namespace of its
# own, where root appears as an ordinary user: its files stay under target/ even when the
# checkout is in a directory no other user may enter (root's home, mode 0700). Where user
# namespaces are not allowed, it runs as Debian's `postgres` user, which then must be able
# to reach target/.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
PG_DIR="$PWD/target/pg"
NATS_DIR="$PWD/target/nats"
STATE="$PWD/target/services.env"

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

busy() { (echo >/dev/tcp/127.0.0.1/"$1") 2>/dev/null; }

# How PostgreSQL's programs are run: as this user, in a user namespace (root), or as the
# `postgres` user (root without user namespaces). A cluster made one way is run that way.
pg_runner() {
  if [[ $(id -u) != 0 ]]; then echo self; return; fi
  if [[ -f "$PG_DIR/data/PG_VERSION" ]]; then
    if [[ $(stat -c %U "$PG_DIR/data") == postgres ]]; then echo postgres; else echo userns; fi
    return
  fi
  if unshare --map-user=1000 --map-group=1000 true 2>/dev/null; then echo userns; else echo postgres; fi
}

as_pg() {
  case "$RUNNER" in
    self) "$@" ;;
    userns) unshare --map-user=1000 --map-group=1000 "$@" ;;
    postgres) runuser -u postgres -- "$@" ;;
  esac
}

pg_running() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1; }
nats_running() { [[ -f "$NATS_DIR/pid" ]] && kill -0 "$(cat "$NATS_DIR/pid")" 2>/dev/null; }

# The ports of this checkout's services: as recorded, unless not running and taken since.
choose_ports() {
  PG_PORT="" NATS_PORT=""
  [[ -f "$STATE" ]] && source "$STATE"
  PG_PORT="${BAOQI_PG_PORT:-$PG_PORT}"
  NATS_PORT="${BAOQI_NATS_PORT:-$NATS_PORT}"
  # A running cluster says its port in its pid file (4th line).
  if pg_running; then PG_PORT=$(sed -n 4p "$PG_DIR/data/postmaster.pid"); fi
  if [[ -z "$PG_PORT" ]] || { ! pg_running && busy "$PG_PORT"; }; then PG_PORT=$(free_port); fi
  # A nats-server of this checkout on a port not recorded (an older script's) is restarted.
  if [[ -z "$NATS_PORT" ]] && nats_running; then
    kill "$(cat "$NATS_DIR/pid")"
    for _ in $(seq 50); do nats_running || break; sleep 0.1; done
  fi
  if [[ -z "$NATS_PORT" ]] || { ! nats_running && busy "$NATS_PORT"; }; then NATS_PORT=$(free_port); fi
  mkdir -p "$(dirname "$STATE")"
  printf 'PG_PORT=%s\nNATS_PORT=%s\n' "$PG_PORT" "$NATS_PORT" >"$STATE"
}

pg_start() {
  [[ -x "$PG_BIN/pg_ctl" ]] || { echo "services: PostgreSQL is not installed (scripts/setup.sh test)" >&2; exit 1; }
  mkdir -p "$PG_DIR"
  if [[ $RUNNER == postgres ]]; then
    chown postgres:postgres "$PG_DIR"
    runuser -u postgres -- test -w "$PG_DIR" || {
      echo "services: the postgres user cannot reach $PG_DIR and user namespaces are not allowed;" \
        "clone the checkout into a directory other users may enter (e.g. /srv)" >&2
      exit 1
    }
  fi
  if [[ ! -f "$PG_DIR/data/PG_VERSION" ]]; then
    as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  if ! pg_running; then
    # fsync stays on: the store's promise (committed before acknowledged) is what is tested.
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t 30 start \
      -o "-h 127.0.0.1 -p $PG_PORT -k $PG_DIR -c max_connections=400" >/dev/null
  fi
  local psql=("$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qAt)
  [[ $("${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname='baoqi'") == 1 ]] \
    || "${psql[@]}" -c "CREATE ROLE baoqi LOGIN CREATEDB"
  [[ $("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname='baoqi'") == 1 ]] \
    || "${psql[@]}" -c "CREATE DATABASE baoqi OWNER baoqi"
}

nats_start() {
  command -v nats-server >/dev/null || { echo "services: nats-server is not installed (scripts/setup.sh test)" >&2; exit 1; }
  mkdir -p "$NATS_DIR"
  nats_running && return
  # In a session of its own: it outlives the shell (and the process group) that started it.
  setsid nats-server -a 127.0.0.1 -p "$NATS_PORT" -P "$NATS_DIR/pid" -l "$NATS_DIR/log" \
    </dev/null >/dev/null 2>&1 &
  disown
  for _ in $(seq 50); do
    busy "$NATS_PORT" && return
    sleep 0.1
  done
  echo "services: nats-server did not start (see $NATS_DIR/log)" >&2
  exit 1
}

RUNNER="$(pg_runner)"
case "${1:-start}" in
  start)
    choose_ports
    pg_start >&2
    nats_start >&2
    echo "export BAOQI_TEST_POSTGRES=postgres://baoqi@127.0.0.1:$PG_PORT/baoqi BAOQI_TEST_NATS=nats://127.0.0.1:$NATS_PORT"
    ;;
  stop)
    pg_running && as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
    nats_running && kill "$(cat "$NATS_DIR/pid")" 2>/dev/null || true
    ;;
  # A cluster of a test's own in DIR (under target/), which the test may restart or stop
  # without touching the shared one: prints its URL.
  pg-own)
    PG_DIR="$(realpath -m "${2:?usage: $0 pg-own DIR}")"
    RUNNER="$(pg_runner)"
    if pg_running; then PG_PORT=$(sed -n 4p "$PG_DIR/data/postmaster.pid"); else PG_PORT=$(free_port); fi
    pg_start >&2
    echo "postgres://baoqi@127.0.0.1:$PG_PORT/baoqi"
    ;;
  # What a crash, a fail-over or a minor upgrade does: stop at once, start again, same port.
  pg-restart)
    PG_DIR="$(realpath -m "${2:?usage: $0 pg-restart DIR}")"
    RUNNER="$(pg_runner)"
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w -t 30 restart -l "$PG_DIR/log" >/dev/null
    ;;
  pg-stop)
    PG_DIR="$(realpath -m "${2:?usage: $0 pg-stop DIR}")"
    RUNNER="$(pg_runner)"
    pg_running && as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    ;;
  *) echo "usage: $0 start|stop|pg-own DIR|pg-restart DIR|pg-stop DIR" >&2; exit 2 ;;
esac
