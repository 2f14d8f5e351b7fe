#!/usr/bin/env bash
# Installs what a fresh Debian machine with Swift lacks for Opponent Lab: pkg-config,
# OpenBLAS (libopenblas-dev) and zlib (zlib1g-dev); Python 3 with jsonschema and Node.js,
# which the example bots run on and the protocol tests use (python3, python3-jsonschema,
# the latter also for Debian's python3 when the PATH's is another, nodejs); with
# --with-browser also Chromium, which the page tests drive headless; with --with-slurm
# also MUNGE and Slurm (munge, slurm-wlm), which scripts/cluster/slurm-local-test.sh runs
# a one-node cluster with; with --with-valgrind also Valgrind and binutils' strip, which
# scripts/speed-check.sh counts instructions with. Idempotent; quiet when all is there.
#
# Without systemd (a container, a CI machine) and without /usr/sbin/policy-rc.d, apt
# would start the packages' init scripts (munged at least) and leave those daemons
# running: for the Slurm packages a policy-rc.d that refuses service starts is put in
# place for the install and removed after it. The local test starts its own daemons.
set -euo pipefail

need=()
browser=false
slurm=false
valgrind=false
for option in "$@"; do
  case "$option" in
    --with-browser) browser=true ;;
    --with-slurm) slurm=true ;;
    --with-valgrind) valgrind=true ;;
    *) echo "setup: unknown option '$option'; accepted: --with-browser, --with-slurm, --with-valgrind" >&2; exit 2 ;;
  esac
done
# The daemons live in /usr/sbin, which a user's PATH may lack.
has() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
if $browser; then
  has chromium || need+=(chromium)
fi
if $valgrind; then
  command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
  command -v strip >/dev/null 2>&1 || need+=(binutils)
fi
if $slurm; then
  { has munged && has mungekey; } || need+=(munge)
  { has slurmctld && has slurmd && has sbatch; } || need+=(slurm-wlm)
fi
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v node >/dev/null 2>&1 || need+=(nodejs)
if ! command -v python3 >/dev/null 2>&1; then
  need+=(python3 python3-jsonschema)
elif ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
  need+=(python3-jsonschema)
fi
# The tests run Debian's python3 when it has jsonschema (scripts/test-python.sh), as it
# starts faster than a pyenv one; without root or sudo they run the PATH's instead.
if [ -x /usr/bin/python3 ] && ! /usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] || sudo -n true >/dev/null 2>&1; then need+=(python3-jsonschema); fi
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
policy=""
if $slurm && [ ! -d /run/systemd/system ] && [ ! -e /usr/sbin/policy-rc.d ]; then
  policy=/usr/sbin/policy-rc.d
  trap '$sudo rm -f "$policy"' EXIT
  printf '#!/bin/sh\n# scripts/setup.sh --with-slurm: no service starts during its install\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
if [ -n "$policy" ]; then
  $sudo rm -f "$policy"
  trap - EXIT
fi
pkg-config --exists openblas || { echo "setup: openblas still not found by pkg-config" >&2; exit 1; }
pkg-config --exists zlib || { echo "setup: zlib still not found by pkg-config" >&2; exit 1; }
command -v node >/dev/null 2>&1 || { echo "setup: node still not found" >&2; exit 1; }
if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
  # The python3 on PATH is not Debian's (pyenv, a virtual environment): its own pip.
  python3 -m pip install --quiet jsonschema >/dev/null 2>&1 || python3 -m pip install --quiet --user jsonschema >/dev/null 2>&1 || true
  python3 -c 'import jsonschema' >/dev/null 2>&1 || { echo "setup: python3 cannot import jsonschema; install it (pip install jsonschema)" >&2; exit 1; }
fi
if $browser; then
  has chromium || { echo "setup: chromium still not found" >&2; exit 1; }
fi
if $valgrind; then
  for command in valgrind strip; do
    command -v $command >/dev/null 2>&1 || { echo "setup: $command still not found" >&2; exit 1; }
  done
fi
if $slurm; then
  for command in munged mungekey slurmctld slurmd sbatch; do
    has $command || { echo "setup: $command still not found" >&2; exit 1; }
  done
fi
