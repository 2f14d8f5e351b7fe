#!/usr/bin/env bash
# Installs what a fresh Debian machine with Swift lacks for Opponent Lab:
# pkg-config, OpenBLAS (libopenblas-dev) and zlib (zlib1g-dev); Python 3 with jsonschema and Node.js, which
# the example bots run on and the protocol tests use (python3, python3-jsonschema,
# nodejs); with --with-browser also Chromium, which the page tests drive headless.
# Idempotent; quiet when all is there.
set -euo pipefail

need=()
if [ "${1:-}" = "--with-browser" ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
elif [ -n "${1:-}" ]; then
  echo "setup: unknown option '$1'; accepted: --with-browser" >&2
  exit 2
fi
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v node >/dev/null 2>&1 || need+=(nodejs)
if ! command -v python3 >/dev/null 2>&1; then
  need+=(python3 python3-jsonschema)
elif ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
  need+=(python3-jsonschema)
fi
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists openblas; then
  need+=(libopenblas-dev)
fi
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists zlib; then
  need+=(zlib1g-dev)
fi
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${need[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: need root (or sudo) to install ${need[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
pkg-config --exists openblas || { echo "setup: openblas still not found by pkg-config" >&2; exit 1; }
pkg-config --exists zlib || { echo "setup: zlib still not found by pkg-config" >&2; exit 1; }
command -v node >/dev/null 2>&1 || { echo "setup: node still not found" >&2; exit 1; }
if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
  # The python3 on PATH is not Debian's (pyenv, a virtual environment): its own pip.
  python3 -m pip install --quiet jsonschema >/dev/null 2>&1 || python3 -m pip install --quiet --user jsonschema >/dev/null 2>&1 || true
  python3 -c 'import jsonschema' >/dev/null 2>&1 || { echo "setup: python3 cannot import jsonschema; install it (pip install jsonschema)" >&2; exit 1; }
fi
if [ "${1:-}" = "--with-browser" ]; then
  command -v chromium >/dev/null 2>&1 || { echo "setup: chromium still not found" >&2; exit 1; }
fi
