#!/usr/bin/env bash
# Installs what baoqi needs on a fresh Debian machine (root, Rust toolchain present).
# Idempotent: each step checks first and does nothing when already done.
#
#   scripts/setup.sh run    what the server needs (speech, audio libraries)
#   scripts/setup.sh test   the above, plus what the tests need (Python venv with pyffish and cchess,
#                           Chromium and a CJK font for browser tests, Node for playwright,
#                           PostgreSQL and nats-server for the federation's tests: started by
#                           scripts/services.sh on loopback, data under target/; GNOME Orca,
#                           Xvfb, BRLTTY and liblouis for the screen reader's and the braille
#                           display's tests)
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-run}"
case "$mode" in run|test) ;; *) echo "usage: $0 run|test" >&2; exit 2 ;; esac

run_pkgs=(libasound2-dev libspeechd-dev libclang1-14 libclang-common-14-dev pkg-config
          speech-dispatcher speech-dispatcher-espeak-ng espeak-ng sox)
test_pkgs=(xz-utils python3-venv chromium fonts-wqy-zenhei tmux postgresql nats-server
           orca xvfb xdotool openbox dbus at-spi2-core brltty brltty-x11 python3-louis liblouis-data)

want=("${run_pkgs[@]}")
[[ $mode == test ]] && want+=("${test_pkgs[@]}")

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [[ $(id -u) == 0 ]] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ $mode == test ]]; then
  # Fairy-Stockfish as an independent reference for the differential tests.
  # cchess (Chinese move text) as a second reference for the notation grammar.
  if ! .venv/bin/python -c "import pyffish, cchess" 2>/dev/null; then
    echo "setup: creating .venv with pyffish and cchess"
    [[ -x .venv/bin/python ]] || python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check pyffish cchess
  fi
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
  rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
fi
echo "setup: ready ($mode)"
