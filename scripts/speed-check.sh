#!/usr/bin/env bash
# The engines' speed guard: instructions a match through the harness, per game, counted
# by callgrind, against the ceilings in Benchmarks/instruction-ceilings.txt.
#
#   scripts/speed-check.sh [OPLAB]        (default: .build/release/oplab)
#
# For each line of the ceilings file (game, strategy, ceiling), it plays a one-table
# tournament of the strategy against itself, 2 seats, 1 thread, seed 1, twice under
# callgrind (250 and 750 blocks of 2 matches) with a stripped copy of the binary, and
# divides the difference by the 1,000 matches between them: start-up, the config and the
# files' opening cancel out. Instructions, not time: the figure is the same on a busy
# machine. Left out of the count: the live status (`run.json` rewritten every 2 seconds,
# `LiveStatus.take`), the one part of a run that follows the clock, not the matches: under
# callgrind a run lasts about 50 times longer, so the longer run rewrote it once or twice
# more (about 600,000 instructions each, up to 1,200 a match of the figure, different from
# run to run). A figure more than 3 % above its ceiling fails the check (exit 1); one more
# than 3 % below it is reported so the ceiling can be lowered in the same commit as the
# change that earned it, with the reason (Benchmarks/README.md, "The speed guard", says how).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/.build/release/oplab}
ceilings=${SPEED_CEILINGS:-$root/Benchmarks/instruction-ceilings.txt}
tolerance=3   # percent
# Swift seeds its hashing per process; a fixed seed makes the counts repeat.
export SWIFT_DETERMINISTIC_HASHING=1

command -v valgrind >/dev/null || { echo "speed-check: valgrind is missing (scripts/setup.sh installs it)" >&2; exit 2; }
[ -x "$bin" ] || { echo "speed-check: no binary at $bin (swift build -c release)" >&2; exit 2; }
[ -r "$ceilings" ] || { echo "speed-check: no ceilings file at $ceilings" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$bin" "$tmp/oplab"
# Debug information out (valgrind reads it slowly); the symbols stay, for the toggle below.
strip --strip-debug "$tmp/oplab" 2>/dev/null || true
# Collection off inside the live status's block sink (see above), on everywhere else.
live_status='$s10Tournament10LiveStatusCAA9BlockSinkA2aDP4take*'
nm "$tmp/oplab" > "$tmp/symbols"  # (not piped into grep -q: pipefail would see nm's SIGPIPE)
grep -q 'LiveStatusCAA9BlockSinkA2aDP4take' "$tmp/symbols" \
  || { echo "speed-check: no LiveStatus.take (BlockSink) symbol in $bin: rename the toggle in this script" >&2; exit 2; }

# instructions GAME STRATEGY BLOCKS: the whole run's instruction count.
instructions() {
  local game=$1 strategy=$2 blocks=$3 run=$tmp/run-$1-$3
  cat > "$tmp/config.yaml" <<EOF
name: speed-$game
game: $game
seats: 2
entrants:
  - {name: a, strategy: "$strategy"}
  - {name: b, strategy: "$strategy"}
format: round-robin
blocks: $blocks
seed: 1
threads: 1
EOF
  valgrind --tool=callgrind --toggle-collect="$live_status" --collect-atstart=yes --callgrind-out-file="$tmp/callgrind.out" \
    "$tmp/oplab" tournament "$tmp/config.yaml" --out "$run" --threads 1 --quiet --no-report >/dev/null 2>"$tmp/valgrind.log" \
    || { echo "speed-check: the $game run failed under valgrind:" >&2; cat "$tmp/valgrind.log" >&2; exit 2; }
  awk '/^summary:/ {print $2}' "$tmp/callgrind.out"
  rm -rf "$run" "$tmp/callgrind.out"
}

status=0
printf '%-10s %-12s %14s %12s  %s\n' game strategy "instr/match" ceiling verdict
while read -r game strategy ceiling _; do
  case "$game" in ''|'#'*) continue ;; esac
  low=$(instructions "$game" "$strategy" 250)
  high=$(instructions "$game" "$strategy" 750)
  per=$(( (high - low) / 1000 ))
  limit=$(( ceiling * (100 + tolerance) / 100 ))
  floor=$(( ceiling * (100 - tolerance) / 100 ))
  if [ "$per" -gt "$limit" ]; then
    verdict="FAIL: more than ${tolerance} % above the ceiling"
    status=1
  elif [ "$per" -lt "$floor" ]; then
    verdict="ok, more than ${tolerance} % below: lower the ceiling"
  else
    verdict="ok"
  fi
  printf '%-10s %-12s %14s %12s  %s\n' "$game" "$strategy" "$per" "$ceiling" "$verdict"
done < "$ceilings"
exit $status
