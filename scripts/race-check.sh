#!/usr/bin/env bash
# Two writers on one results folder, N times with random delays (issue 15, item 1):
# a tournament runs; after a random delay a second `oplab tournament --resume` on the same
# folder starts. Every time the second must be refused (exit 2, naming the holder's pid)
# and the first run's files must equal an undisturbed run's, byte for byte.
#   scripts/race-check.sh [OPLAB] [ROUNDS]
set -euo pipefail
oplab=${1:-.build/release/oplab}
rounds=${2:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/race.yaml" <<YAML
name: race
game: rail
seats: 2
entrants:
  - {name: cpu, strategy: heuristic}
  - {name: shipped, strategy: shipped-cpu}
  - {name: rnd, strategy: random}
blocks: 20000
seed: 11
threads: 2
YAML
# 120,000 matches: compact rows (matches.csv.gz), whose members end where the rows say,
# so an undisturbed run's file is the same bytes too.
files="matches.csv.gz summary.csv pairwise.csv ratings.csv railroads.csv"
"$oplab" tournament "$work/race.yaml" --out "$work/reference" --quiet --no-report >/dev/null
refused=0 identical=0 raced=0
for round in $(seq 1 "$rounds"); do
  out="$work/run-$round"
  "$oplab" tournament "$work/race.yaml" --out "$out" --quiet --no-report >/dev/null 2>&1 &
  first=$!
  sleep "0.$(( RANDOM % 90 + 5 ))"
  if kill -0 "$first" 2>/dev/null; then raced=$((raced + 1)); fi
  set +e
  second=$("$oplab" tournament "$work/race.yaml" --out "$out" --resume --quiet --no-report 2>&1 >/dev/null)
  status=$?
  set -e
  wait "$first"
  if [ "$status" -eq 2 ] && grep -q "pid $first" <<<"$second"; then refused=$((refused + 1)); fi
  same=1
  for f in $files; do cmp -s "$work/reference/$f" "$out/$f" || same=0; done
  identical=$((identical + same))
  echo "round $round: second writer exit $status ($(head -c 90 <<<"$second")...); files identical: $same"
done
echo "race-check: $rounds rounds, first run still running at the second's start in $raced; second refused in $refused; files identical in $identical"
[ "$refused" -eq "$rounds" ] && [ "$identical" -eq "$rounds" ]
