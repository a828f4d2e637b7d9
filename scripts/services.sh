#!/usr/bin/env bash
# Starts the federation's services for tests and benchmarks (issue 19), from Debian's
# packages, on loopback only, with their data under target/: PostgreSQL (a cluster of its
# own in target/pg, port 55432) and nats-server (port 54222). Idempotent: a service that
# already answers is left alone. Prints the environment to use them:
#
#   eval "$(bash scripts/services.sh start)"   # exports BAOQI_TEST_POSTGRES, BAOQI_TEST_NATS
#   bash scripts/services.sh stop
#
# PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user that
# Debian's package creates.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_PORT="${BAOQI_PG_PORT:-55432}"
NATS_PORT="${BAOQI_NATS_PORT:-54222}"
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
PG_DIR="$PWD/target/pg"
NATS_DIR="$PWD/target/nats"
PG_URL="postgres://baoqi@127.0.0.1:$PG_PORT/baoqi"

as_pg() {
  if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {
  [[ -x "$PG_BIN/pg_ctl" ]] || { echo "services: PostgreSQL is not installed (scripts/setup.sh test)" >&2; exit 1; }
  mkdir -p "$PG_DIR"
  [[ $(id -u) == 0 ]] && chown postgres:postgres "$PG_DIR"
  if [[ ! -f "$PG_DIR/data/PG_VERSION" ]]; then
    as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  if ! as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1; then
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
  if [[ -f "$NATS_DIR/pid" ]] && kill -0 "$(cat "$NATS_DIR/pid")" 2>/dev/null; then return; fi
  # In a session of its own: it outlives the shell (and the process group) that started it.
  setsid nats-server -a 127.0.0.1 -p "$NATS_PORT" -P "$NATS_DIR/pid" -l "$NATS_DIR/log" \
    </dev/null >/dev/null 2>&1 &
  disown
  for _ in $(seq 50); do
    (echo >/dev/tcp/127.0.0.1/"$NATS_PORT") 2>/dev/null && return
    sleep 0.1
  done
  echo "services: nats-server did not start (see $NATS_DIR/log)" >&2
  exit 1
}

case "${1:-start}" in
  start)
    pg_start >&2
    nats_start >&2
    echo "export BAOQI_TEST_POSTGRES=$PG_URL BAOQI_TEST_NATS=nats://127.0.0.1:$NATS_PORT"
    ;;
  stop)
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
    [[ -f "$NATS_DIR/pid" ]] && kill "$(cat "$NATS_DIR/pid")" 2>/dev/null || true
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
