#!/usr/bin/env bash
# Sets up and runs every test of baoqi: formatting, lints, the whole test suite (with the
# pyffish differential test made mandatory), the deep perft check and the browser tests.
#
# The build comes in two parts: the libraries and a hall's server (the command line without
# its optional features) first, with clippy's lints; then every target, at the lowest
# priority while the screen reader's games run beside it, then at the browser tests'. The
# suite runs beside the rest of the browser tests; the tests that measure real time run
# last, alone.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
export BAOQI_REQUIRE_PYFFISH=1 BAOQI_REQUIRE_CCHESS=1 BAOQI_PYTHON="$PWD/.venv/bin/python"
# PostgreSQL and nats-server on loopback: the store's suite runs on both stores.
eval "$(bash scripts/services.sh start)"
export BAOQI_REQUIRE_POSTGRES=1
# BRLTTY and liblouis (installed by setup.sh): the deafblind player's game on a virtual
# braille display, and the keypad's braille against liblouis's own.
export BAOQI_REQUIRE_BRAILLE=1
mkdir -p target
started=$SECONDS
step() { echo "== $1 ($((SECONDS - started)) s)"; }

step "cargo fmt --check"
cargo fmt --all --check
# Clippy's lints run inside the suite's own build: `cargo clippy` would type-check the 400
# crates a second time (3 of the run's minutes on 2 cores). clippy-driver compiles the
# workspace's crates as `cargo clippy` has it do (RUSTC_WORKSPACE_WRAPPER, CLIPPY_ARGS), and
# every later cargo command keeps the same wrapper, so nothing is compiled twice. Any
# warning in a build's output fails the run, whether or not CLIPPY_ARGS was read.
RUSTC_WORKSPACE_WRAPPER="$(rustup which clippy-driver)"
export RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
# A clean clone builds everything once: incremental compilation's caches would only be
# written, never read (the workspace's build took 175 s with them, 166 s without).
export CARGO_INCREMENTAL=0
no_warnings() {
  if grep -qE '^(warning|error)' "$1"; then
    echo "the build has warnings (clippy's lints and rustc's are errors here): $1" >&2
    exit 1
  fi
}

# The build in two parts, so that the browser tests need not wait for the whole of it. First
# the workspace's libraries and binaries without the command line's optional features:
# target/debug/baoqi is then a hall's server (no keypad or board clients with the audio
# stack, no federation's nodes, no benchmarks), kept as target/hall/baoqi; the browser tests
# are served by it.
step "the libraries and a hall's server, with clippy's lints (-D warnings)"
cargo build --workspace --lib --bins --no-default-features --quiet 2>&1 | tee target/build-hall.log
no_warnings target/build-hall.log
mkdir -p target/hall && cp target/debug/baoqi target/hall/baoqi
if cargo tree -p baoqi --no-default-features -e normal --prefix none |
  grep -E '^(cpal|alsa|alsa-sys|tts|speech-dispatcher|speech-dispatcher-sys|async-nats|baoqi-audio|baoqi-clients|baoqi-federation|baoqi-bench) '; then
  echo "the hall's server depends on the crates above" >&2
  exit 1
fi
if ldd target/hall/baoqi | grep -E 'libasound|libspeechd'; then
  echo "the hall's server links the libraries above" >&2
  exit 1
fi

if [ ! -d tests/web/node_modules ] || [ tests/web/package-lock.json -nt tests/web/node_modules/.package-lock.json ]; then
  (cd tests/web && npm ci --no-audit --no-fund)
fi
step "the pages' JavaScript, linted (ESLint, 0 errors)"
(cd tests/web && npm run --silent lint)

# Then every target (the tests, the benchmarks, the command line with all its features), at
# the lowest priority beside the screen reader's games, which are served first whenever they
# need a core (under load Orca took a player's first letters in browse mode).
# `--timings` keeps where the build's time went in target/cargo-timings/cargo-timing.html.
step "every target (nice 19), beside the browser tests"
setsid nice -n 19 cargo build --workspace --all-targets --quiet --timings >target/build.log 2>&1 &
build_pid=$!
pids=$build_pid
# A failing step ends the run: what runs beside it (the build, the browser tests and their
# Chromiums) ends with it.
trap 'for p in $pids; do kill -- -$p 2>/dev/null || kill $p 2>/dev/null || true; done' EXIT

# The browser tests: three test files at a time, the longest first (a long one started last
# ran alone at the end: the tail of the run). Those that compare with the keypad (its
# phrasebook and its braille) need the full command line and run once it is built. Their
# report is printed once they end.
LONGEST_WEB="hall_screen day_stores sr_game sr_owed sr_voice liveness dialogs proxy organiser sr_items screens"
WITH_KEYPAD="phrases braille"
web_files() {
  for f in $LONGEST_WEB; do echo "tests/web/$f.test.js"; done
  ls tests/web/*.test.js | grep -v /orca.test.js |
    grep -vE "/($(echo $LONGEST_WEB $WITH_KEYPAD | tr ' ' '|'))\.test\.js$"
}
web() {
  BAOQI_BIN="$PWD/target/hall/baoqi" setsid node --test --test-concurrency=3 $(web_files) \
    >target/web.log 2>&1 &
  web_pid=$!
  pids="$pids $web_pid"
}
wait_web() {
  if ! wait "$web_pid"; then
    cat target/web.log
    echo "the browser tests failed (their report is above, and in target/web.log)" >&2
    exit 1
  fi
  grep -E '^# (tests|pass|fail|duration_ms)' target/web.log
}

# The screen reader's games first, beside the build only: under the whole suite's load Orca
# was seen to take a player's first letters in browse mode (its window's focus events late).
step "GNOME Orca on the seat page (tests/web/orca.test.js), beside the build"
BAOQI_BIN="$PWD/target/hall/baoqi" BAOQI_REQUIRE_ORCA=1 node --test tests/web/orca.test.js 2>&1 \
  | tee target/orca.log | grep -E '^(not )?ok|^# (pass|fail)' || true
grep -q '^# fail 0' target/orca.log || { echo "the Orca tests failed (target/orca.log)"; exit 1; }
# Orca is done: what is left of the build now runs at the browser tests' priority (at nice
# 19 beside three Chromiums it was starved, and the suite waited on it for 40 s).
renice -n 0 -g "$build_pid" >/dev/null 2>&1 || true
step "the browser tests (tests/web), beside the build and then the suite"
web

step "waiting for the build of every target"
if ! wait "$build_pid"; then
  cat target/build.log
  echo "the build failed (target/build.log)" >&2
  exit 1
fi
no_warnings target/build.log
step "the browser tests that compare with the keypad"
BAOQI_BIN="$PWD/target/hall/baoqi" node --test $(for f in $WITH_KEYPAD; do echo "tests/web/$f.test.js"; done) \
  >target/web-keypad.log 2>&1 || { cat target/web-keypad.log; echo "the browser tests above failed" >&2; exit 1; }
grep -E '^# (pass|fail)' target/web-keypad.log

if cargo nextest --version >/dev/null 2>&1; then
  # The tests that measure real time run last, alone: a neighbour's load must never decide
  # their outcome. The clock alerts' (20 ms) run alone (.config/nextest.toml); the audio
  # tap's and recordings' (a tone where it was played, within 0.1 s) beside each other only:
  # beside Chromium one was heard 0.156 s late.
  realtime='(package(baoqi-server) & test(/^game::/)) | test(alerts_fire_within)'
  realtime="$realtime | (package(baoqi-audio) & test(/^(tap|recording|speechd)::/))"
  # A stalled peer must not hold the game up: no command over 250 ms. Beside Chromium and
  # Orca one took 264 ms (4 ms alone).
  realtime="$realtime | test(s11_a_client_that_never_reads_does_not_delay_the_game)"
  # A table answers within 500 ms while 16 exports of a long log stream (beside three
  # browsers and the suite, with the server at -O1, an answer once took 562 ms).
  realtime="$realtime | test(a_table_is_answered_promptly_and_memory_stays_flat_while_logs_are_exported)"
  # The keypad heard live (espeak-ng in real time: the opponent's move within 0.5 s).
  realtime="$realtime | test(/^e2e_by_ear_live::/)"
  # The load benchmark's own tests count the commands a few seconds carry (beside three
  # browser tests and the suite, one carried 55 where 60 are asked).
  realtime="$realtime | (package(baoqi-bench) & binary(load))"
  # A server killed mid-game: its clocks, restarted, stand where they were within 100 ms
  # (beside three browsers and the suite, the server's timeline mark was once 457 ms old).
  realtime="$realtime | test(/^bench_crash::/)"
  step "cargo nextest run: the suite, beside the browser tests"
  # Test binaries in parallel, twice as many at once as there are cores: most tests wait
  # on sockets and timers.
  cargo nextest run --workspace --cargo-quiet --test-threads $(($(nproc) * 2)) \
    -E "not ($realtime)" 2>&1 | tee target/test.log
  step "perft depth 5 (ignored by default)"
  cargo nextest run --workspace --cargo-quiet --run-ignored only \
    -E 'package(baoqi-rules) & test(/^perft::/)' 2>&1 | tail -n 3
  step "doc tests"
  cargo test --workspace --doc --quiet
  step "web clients in Chromium (tests/web): waiting for them to end"
  wait_web
  step "cargo nextest run: the real-time tests, alone"
  cargo nextest run --workspace --cargo-quiet -E "$realtime" 2>&1 | tee target/test-realtime.log
  summary=$(cat target/test-realtime.log target/test.log | awk '/^ +Summary/ {
    for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i }
  } END { printf "%d passed, %d failed", p, f }')
else
  step "cargo test (cargo-nextest not installed: one binary after another)"
  cargo test --workspace --quiet 2>&1 | tee target/test.log
  step "perft depth 5 (ignored by default)"
  cargo test -p baoqi-rules --quiet --test integration -- --ignored perft::
  summary=$(awk '/^test result:/ {p+=$4; f+=$6} END {printf "%d passed, %d failed", p, f}' target/test.log)
  step "web clients in Chromium (tests/web): waiting for them to end"
  wait_web
fi

step "done"
# One closing line for the whole run.
echo "$summary"
