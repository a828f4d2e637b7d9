#!/usr/bin/env bash
# Sets up and runs every test of baoqi: formatting, lints, the whole test suite (with the
# pyffish differential test made mandatory) and the deep perft check.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
export BAOQI_REQUIRE_PYFFISH=1 BAOQI_REQUIRE_CCHESS=1 BAOQI_PYTHON="$PWD/.venv/bin/python"
echo "== cargo fmt --check"
cargo fmt --all --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== cargo test"
cargo test --workspace --quiet 2>&1 | tee target/test.log
echo "== perft depth 5 (ignored by default)"
cargo test --quiet -p baoqi-rules --test perft -- --ignored
echo "== web clients in Chromium (tests/web)"
cargo build --quiet --bin baoqi
if [ ! -d tests/web/node_modules ] || [ tests/web/package-lock.json -nt tests/web/node_modules/.package-lock.json ]; then
  (cd tests/web && npm ci --no-audit --no-fund)
fi
node --test tests/web/
# One closing line for the whole run.
awk '/^test result:/ {p+=$4; f+=$6} END {printf "%d passed, %d failed\n", p, f}' target/test.log
