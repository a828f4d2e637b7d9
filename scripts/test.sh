#!/usr/bin/env bash
# Sets up and runs every test of baoqi: formatting, lints, the whole test suite (with the
# pyffish differential test made mandatory), the deep perft check and the browser tests.
#
# One build serves every step: the first makes every target with clippy's lints, the suite's
# binaries and target/debug/baoqi (the integration tests run it); the hall's server is the
# same build less the command line's optional features (only the binary is compiled again),
# and the browser tests are served by it, beside the suite.
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
# warning in the build's output fails the run, whether or not CLIPPY_ARGS was read.
# `--timings` keeps where the build's time went in target/cargo-timings/cargo-timing.html.
step "cargo build --all-targets, with clippy's lints (-D warnings)"
RUSTC_WORKSPACE_WRAPPER="$(rustup which clippy-driver)"
export RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
cargo build --workspace --all-targets --quiet --timings 2>&1 | tee target/build.log
if grep -qE '^(warning|error)' target/build.log; then
  echo "the build has warnings (clippy's lints and rustc's are errors here)" >&2
  exit 1
fi

# A hall's server: the command line without its optional parts (the keypad and board
# clients with the audio stack, the federation's nodes, the benchmarks). Built in the same
# feature resolution as the rest, so only the `baoqi` binary itself is compiled again; kept as
# target/hall/baoqi, and the browser tests below are served by it.
step "a hall's server, built without the audio stack and the federation"
cargo build --workspace --all-targets --no-default-features --quiet
mkdir -p target/hall && cp target/debug/baoqi target/hall/baoqi
cargo build --workspace --all-targets --quiet
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

# The browser tests run beside the suite: both mostly wait (on Chromium, sockets, timers),
# and one after the other they left a core idle for minutes. Three test files at a time,
# the longest first (a long one started last ran alone at the end: the tail of the run).
# Their report is printed once they end.
LONGEST_WEB="hall_screen sr_game sr_owed sr_voice liveness dialogs proxy organiser sr_items screens"
web_files() {
  for f in $LONGEST_WEB; do echo "tests/web/$f.test.js"; done
  ls tests/web/*.test.js | grep -v /orca.test.js | grep -vE "/($(echo $LONGEST_WEB | tr ' ' '|'))\.test\.js$"
}
web() {
  BAOQI_BIN="$PWD/target/hall/baoqi" setsid node --test --test-concurrency=3 $(web_files) \
    >target/web.log 2>&1 &
  web_pid=$!
  # A failing step ends the run: the browser tests (and their Chromiums) end with it.
  trap 'kill -- -$web_pid 2>/dev/null || true' EXIT
}

if cargo nextest --version >/dev/null 2>&1; then
  # The tests that measure real time run first, before the browser tests start: a
  # neighbour's load must never decide their outcome. The clock alerts' (20 ms) run alone
  # (.config/nextest.toml); the audio tap's and recordings' (a tone where it was played,
  # within 0.1 s) beside each other only: beside Chromium one was heard 0.156 s late.
  realtime='(package(baoqi-server) & test(/^game::/)) | test(alerts_fire_within)'
  realtime="$realtime | (package(baoqi-audio) & test(/^(tap|recording|speechd)::/))"
  # A stalled peer must not hold the game up: no command over 250 ms. Beside Chromium and
  # Orca one took 264 ms (4 ms alone).
  realtime="$realtime | test(s11_a_client_that_never_reads_does_not_delay_the_game)"
  # The keypad heard live (espeak-ng in real time: the opponent's move within 0.5 s).
  realtime="$realtime | test(/^e2e_by_ear_live::/)"
  # The load benchmark's own tests count the commands a few seconds carry (beside three
  # browser tests and the suite, one carried 55 where 60 are asked).
  realtime="$realtime | (package(baoqi-bench) & binary(load))"
  # A server killed mid-game: its clocks, restarted, stand where they were within 100 ms
  # (beside three browsers and the suite, the server's timeline mark was once 457 ms old).
  realtime="$realtime | test(/^bench_crash::/)"
  step "cargo nextest run: the real-time tests, before the browser tests"
  cargo nextest run --workspace --cargo-quiet -E "$realtime" 2>&1 | tee target/test-realtime.log
  # The screen reader's games run alone too: under the whole suite's load Orca was seen to
  # take a player's first letters in browse mode (its window's focus events late).
  step "GNOME Orca on the seat page (tests/web/orca.test.js), alone"
  BAOQI_BIN="$PWD/target/hall/baoqi" BAOQI_REQUIRE_ORCA=1 node --test tests/web/orca.test.js 2>&1 \
    | tee target/orca.log | grep -E '^(not )?ok|^# (pass|fail)' || true
  grep -q '^# fail 0' target/orca.log || { echo "the Orca tests failed (target/orca.log)"; exit 1; }
  step "cargo nextest run: the rest, beside the web clients in Chromium (tests/web)"
  web
  # Test binaries in parallel, twice as many at once as there are cores: most tests wait
  # on sockets and timers.
  cargo nextest run --workspace --cargo-quiet --test-threads $(($(nproc) * 2)) \
    -E "not ($realtime)" 2>&1 | tee target/test.log
  step "perft depth 5 (ignored by default)"
  cargo nextest run --workspace --cargo-quiet --run-ignored only \
    -E 'package(baoqi-rules) & test(/^perft::/)' 2>&1 | tail -n 3
  step "doc tests"
  cargo test --workspace --doc --quiet
  summary=$(cat target/test-realtime.log target/test.log | awk '/^ +Summary/ {
    for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i }
  } END { printf "%d passed, %d failed", p, f }')
else
  step "cargo test (cargo-nextest not installed: one binary after another)"
  web
  cargo test --workspace --quiet 2>&1 | tee target/test.log
  step "perft depth 5 (ignored by default)"
  cargo test -p baoqi-rules --quiet --test integration -- --ignored perft::
  summary=$(awk '/^test result:/ {p+=$4; f+=$6} END {printf "%d passed, %d failed", p, f}' target/test.log)
fi

step "web clients in Chromium (tests/web): waiting for them to end"
if ! wait "$web_pid"; then
  cat target/web.log
  echo "the browser tests failed (their report is above, and in target/web.log)" >&2
  exit 1
fi
grep -E '^# (tests|pass|fail|duration_ms)' target/web.log

step "done"
# One closing line for the whole run.
echo "$summary"
