#!/usr/bin/env bash
# Sets up and runs every test of baoqi: formatting, lints, the whole test suite (with the
# pyffish differential test made mandatory), the deep perft check and the browser tests.
#
# One build serves every step: the first makes every target with clippy's lints, the suite's
# binaries and target/debug/baoqi (the integration tests run it), which the browser tests
# then serve; no step asks cargo for a differently-featured build of the same crates.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
export BAOQI_REQUIRE_PYFFISH=1 BAOQI_REQUIRE_CCHESS=1 BAOQI_PYTHON="$PWD/.venv/bin/python"
# PostgreSQL and nats-server on loopback: the store's suite runs on both stores.
eval "$(bash scripts/services.sh start)"
export BAOQI_REQUIRE_POSTGRES=1
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

if cargo nextest --version >/dev/null 2>&1; then
  # Test binaries in parallel, twice as many at once as there are cores: most tests wait
  # on sockets and timers (.config/nextest.toml keeps the real-time tests alone).
  step "cargo nextest run"
  cargo nextest run --workspace --cargo-quiet --test-threads $(($(nproc) * 2)) 2>&1 | tee target/test.log
  step "perft depth 5 (ignored by default)"
  cargo nextest run --workspace --cargo-quiet --run-ignored only \
    -E 'package(baoqi-rules) & test(/^perft::/)' 2>&1 | tail -n 3
  step "doc tests"
  cargo test --workspace --doc --quiet
  summary=$(grep -E '^ +Summary' target/test.log | tail -n 1)
else
  step "cargo test (cargo-nextest not installed: one binary after another)"
  cargo test --workspace --quiet 2>&1 | tee target/test.log
  step "perft depth 5 (ignored by default)"
  cargo test -p baoqi-rules --quiet --test integration -- --ignored perft::
  summary=$(awk '/^test result:/ {p+=$4; f+=$6} END {printf "%d passed, %d failed", p, f}' target/test.log)
fi

step "web clients in Chromium (tests/web)"
[[ -x target/debug/baoqi ]] || cargo build --quiet --bin baoqi
if [ ! -d tests/web/node_modules ] || [ tests/web/package-lock.json -nt tests/web/node_modules/.package-lock.json ]; then
  (cd tests/web && npm ci --no-audit --no-fund)
fi
step "the pages' JavaScript, linted (ESLint, 0 errors)"
(cd tests/web && npm run --silent lint)
# Two test files at a time: on 2 cores three or more only slow each other down.
node --test --test-concurrency=2 tests/web/

step "done"
# One closing line for the whole run.
echo "$summary"
