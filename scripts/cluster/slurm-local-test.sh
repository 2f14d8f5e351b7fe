#!/usr/bin/env bash
# A real Slurm cluster of one node on this machine runs scripts/cluster/slurm-shards.sh
# as a 3-task job array; the merged shards must equal one whole run byte for byte.
#
#   scripts/cluster/slurm-local-test.sh              # as root; OPLAB=path/to/oplab to skip the build
#
# What it does, in order:
#   1. Installs munge and slurm-wlm where missing (scripts/setup.sh --with-slurm, apt).
#   2. Finds oplab: $OPLAB, else .build/release/oplab, else builds it
#      (swift build -c release --product oplab).
#   3. Starts its own daemons, without systemd, each as a child of this script in the
#      foreground (so the script knows every pid and stops exactly those):
#        munged -F --force        with a fresh key and its own socket (AuthInfo=socket=...),
#                                 so a machine's own munged, if any, is not used or touched;
#        slurmctld -D -i -f CONF  SlurmUser=root, state in the temporary folder;
#        slurmd -D -f CONF -N N   one node, this host at 127.0.0.1, the CPUs `slurmd -C`
#                                 detects; ProctrackType=proctrack/linuxproc and
#                                 TaskPlugin=task/none (no cgroups in a container);
#      on ports 16817 and 16818 (SLURM_TEST_PORT=P uses P and P+1), not Slurm's 6817/6818,
#      and with SLURM_CONF pointing at its own slurm.conf: /etc/slurm is not read or written.
#   4. Writes a small rail round robin (configs/slurm-local-test.yaml, 300 blocks) into a
#      lab folder laid out like the repository, and submits from there
#        sbatch --array=1-3 --cpus-per-task=1 --chdir=LAB scripts/cluster/slurm-shards.sh configs/slurm-local-test.yaml
#      with oplab first on the PATH the job inherits. The job's working folder matters:
#      the config path and the shard folders (results/NAME-shard-K-of-3) are relative to it.
#      (--cpus-per-task=1 overrides the script's 8, which a small machine has not got.)
#   5. Waits for the array (squeue; SLURM_TEST_TIMEOUT seconds, default 300), checks every
#      task COMPLETED with exit code 0 (scontrol; there is no accounting, so no sacct),
#      merges the shards with `oplab merge`, plays the same config in one process with
#      `oplab tournament`, and compares matches.csv, summary.csv, pairwise.csv,
#      ratings.csv (and railroads.csv, cells.csv, findings.csv where written) with cmp.
#   6. On any exit (PASS, FAIL, Ctrl-C): cancels its jobs, waits for their job steps to
#      end, stops its three daemons (SIGTERM, then SIGKILL after 10 s) and removes its
#      folder ($TMPDIR/oplab-slurm-local-test, default /tmp) and lock file. A run killed
#      with SIGKILL leaves that folder, its jobs and daemons; the next run stops them (by
#      the pids recorded there) before it starts. So it can be run again and again.
#
# Ends with `slurm-local-test: PASS (N s)` and exit 0, or `slurm-local-test: FAIL: reason`
# (after the daemons' and jobs' logs) and exit 1; N counts from the start, the build of
# oplab included. Needs root (slurmd launches the jobs). One run at a time per machine
# (a lock file next to the folder).
set -euo pipefail

started=$SECONDS
repo="$(cd "$(dirname "$0")/../.." && pwd)"
state="${TMPDIR:-/tmp}/oplab-slurm-local-test"
port="${SLURM_TEST_PORT:-16817}"
timeout="${SLURM_TEST_TIMEOUT:-300}"
name=slurm-local-test
tasks=3
verdict=""       # PASS (N s) or FAIL: reason, printed last by cleanup
owner=false      # true once this run holds the lock and owns $state

say() { echo "slurm-local-test: $*"; }

show_logs() {
  local file
  for file in "$state"/*.log "$state"/lab/oplab-shard-*.log; do
    [ -f "$file" ] || continue
    echo "----- $file (last 30 lines)"
    tail -n 30 "$file"
  done
}

# The verdict line comes last, after the daemons are stopped (cleanup prints it).
fail() {
  echo "slurm-local-test: $*" >&2
  $owner && show_logs >&2
  verdict="FAIL: $*"
  exit 1
}

alive() { [ "$(cat "/proc/$2/comm" 2>/dev/null)" = "$1" ]; }

# Stops the daemon named $1 whose pid $state/$1.pid records, if it is still that daemon
# (a recycled pid is left alone): SIGTERM, then SIGKILL after 10 s. Fails if none ran.
stop_daemon() {
  local daemon=$1 pid waited=0
  pid="$(cat "$state/$daemon.pid" 2>/dev/null)" || return 1
  alive "$daemon" "$pid" || return 1
  kill -TERM "$pid" 2>/dev/null || return 1
  while alive "$daemon" "$pid" && [ $waited -lt 100 ]; do
    sleep 0.1; waited=$((waited + 1))
  done
  if alive "$daemon" "$pid"; then
    echo "slurm-local-test: $daemon (pid $pid) ignored SIGTERM for 10 s: SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
  return 0
}

# Cancels every job of the cluster in $state (this run's, or a killed run's), waits for
# their slurmstepd processes to end (their sockets leave the spool folder), and stops
# slurmd, slurmctld and munged.
stop_cluster() {
  local ids i stopped=0 daemon
  if [ -f "$state/slurm.conf" ] && alive slurmctld "$(cat "$state/slurmctld.pid" 2>/dev/null)"; then
    ids="$(SLURM_CONF="$state/slurm.conf" squeue -h -o %F 2>/dev/null | sort -u | tr '\n' ' ')"
    if [ -n "${ids// /}" ]; then
      say "cancelling job(s) $ids"
      SLURM_CONF="$state/slurm.conf" scancel $ids 2>/dev/null
      for i in $(seq 1 30); do
        [ -z "$(SLURM_CONF="$state/slurm.conf" squeue -h 2>/dev/null)" ] && break
        sleep 1
      done
    fi
  fi
  for i in $(seq 1 150); do
    [ -z "$(find "$state/spool" -maxdepth 1 -type s 2>/dev/null)" ] && break
    sleep 0.1
  done
  [ -n "$(find "$state/spool" -maxdepth 1 -type s 2>/dev/null)" ] &&
    echo "slurm-local-test: job steps still running after 15 s: $(ls "$state/spool")" >&2
  for daemon in slurmd slurmctld munged; do
    stop_daemon $daemon && stopped=$((stopped + 1))
  done
  [ $stopped -gt 0 ] && say "stopped $stopped daemons"
  return 0
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  set +e
  cd /
  if $owner; then
    stop_cluster
    rm -rf "$state" "$lock"
  fi
  if [ -z "$verdict" ]; then
    [ $status -eq 0 ] && status=1
    verdict="FAIL: a step exited with status $status (see above)"
  fi
  [ "$verdict" = PASS ] && verdict="PASS ($((SECONDS - started)) s)"
  echo "slurm-local-test: $verdict"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

[ "$(id -u)" -eq 0 ] || fail "needs root: slurmd must run as root to launch jobs"

# 1. Packages.
"$repo/scripts/setup.sh" --with-slurm || fail "scripts/setup.sh --with-slurm could not install munge and slurm-wlm"
export PATH="$PATH:/usr/sbin:/sbin"
for command in munged mungekey munge unmunge slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
  command -v $command >/dev/null 2>&1 || fail "$command not found after scripts/setup.sh --with-slurm"
done

# 2. oplab.
if [ -n "${OPLAB:-}" ]; then
  oplab="$OPLAB"
elif [ -x "$repo/.build/release/oplab" ]; then
  oplab="$repo/.build/release/oplab"
else
  say "building oplab (swift build -c release --product oplab)"
  (cd "$repo" && swift build -c release --product oplab) || fail "swift build failed"
  oplab="$(cd "$repo" && swift build -c release --show-bin-path)/oplab"
fi
[ -x "$oplab" ] || fail "no executable oplab at $oplab"
oplab="$(cd "$(dirname "$oplab")" && pwd)/$(basename "$oplab")"
say "oplab: $oplab"

# One run at a time: the folder and ports are fixed. (The daemons do not inherit the
# lock: a killed run's leftovers do not hold it.)
lock="$state.lock"
exec 9>>"$lock"
flock -n 9 || fail "another slurm-local-test is running (it holds $lock)"
owner=true
# A run killed with SIGKILL left its folder, jobs and daemons: stop them by the pids it
# recorded.
if [ -d "$state" ]; then
  say "removing the leftovers of an earlier run in $state"
  stop_cluster
  rm -rf "$state"
fi
mkdir -p -m 0711 "$state"
mkdir -m 0700 "$state/key" "$state/ctld" "$state/spool"
mkdir -m 0711 "$state/munge"
mkdir -p "$state/lab/configs" "$state/lab/bin" "$state/lab/results"
socket="$state/munge/munge.socket.2"
[ ${#socket} -lt 100 ] || fail "the socket path $socket is too long for a Unix socket: set a shorter TMPDIR"

# 3. Daemons.
started_daemon() { echo "$2" > "$state/$1.pid"; }

say "starting munged (own key and socket: $socket)"
mungekey --create --keyfile="$state/key/munge.key" || fail "mungekey could not create a key"
munged -F --force --socket="$socket" --key-file="$state/key/munge.key" \
  --pid-file="$state/munge/munged.pid" --seed-file="$state/munge/munged.seed" \
  --log-file="$state/munge/munged.log" > "$state/munged.log" 2>&1 9>&- &
started_daemon munged $!
for i in $(seq 1 50); do [ -S "$socket" ] && break; sleep 0.1; done
munge -n -S "$socket" | unmunge -S "$socket" >/dev/null 2>&1 || fail "munged does not answer on $socket"

node="$(hostname -s)"
hardware="$(slurmd -C | head -n 1)"           # NodeName=host CPUs=... RealMemory=...
case "$hardware" in NodeName=*) ;; *) fail "slurmd -C printed '$hardware', not a node line" ;; esac
cpus="$(echo "$hardware" | sed -n 's/.* CPUs=\([0-9]*\).*/\1/p')"
export SLURM_CONF="$state/slurm.conf"
cat > "$SLURM_CONF" <<EOF
# Written by scripts/cluster/slurm-local-test.sh; removed when it ends.
ClusterName=oplabtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.daemon.pid
SlurmdPidFile=$state/slurmd.daemon.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 ${hardware#NodeName=* } State=UNKNOWN
PartitionName=oplab Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

say "starting slurmctld (port $port) and slurmd (port $((port + 1)), node $node, $cpus CPUs)"
slurmctld -D -i -f "$SLURM_CONF" > "$state/slurmctld.log" 2>&1 9>&- &
started_daemon slurmctld $!
for i in $(seq 1 100); do
  scontrol ping 2>/dev/null | grep -q "is UP" && break
  alive slurmctld "$(cat "$state/slurmctld.pid")" || fail "slurmctld exited at start"
  sleep 0.2
done
scontrol ping 2>/dev/null | grep -q "is UP" || fail "slurmctld does not answer (scontrol ping) after 20 s"
slurmd -D -f "$SLURM_CONF" -N "$node" > "$state/slurmd.log" 2>&1 9>&- &
started_daemon slurmd $!
node_state=""
for i in $(seq 1 60); do
  node_state="$(sinfo -h -N -n "$node" -o %T 2>/dev/null | head -n 1)"
  case "$node_state" in
    idle) break ;;
    drain*|down*|inval*|fail*) fail "node $node is $node_state: $(sinfo -h -R 2>/dev/null)" ;;
  esac
  alive slurmd "$(cat "$state/slurmd.pid")" || fail "slurmd exited at start"
  sleep 0.5
done
[ "$node_state" = idle ] || fail "node $node is '$node_state', not idle, 30 s after slurmd started"
say "node $node is idle"

# 4. The config and the array job.
lab="$state/lab"
ln -s "$oplab" "$lab/bin/oplab"
cat > "$lab/configs/$name.yaml" <<EOF
# A small rail round robin: 3 tables x 300 blocks x 2 seats = 1,800 matches.
name: $name
game: rail
seats: 2
entrants:
  - {name: cpu, strategy: heuristic}
  - {name: shipped, strategy: shipped-cpu}
  - {name: rnd, strategy: random}
format: round-robin
blocks: 300
seed: 20261121
threads: 1
EOF
cd "$lab"
say "sbatch --array=1-$tasks --cpus-per-task=1 --chdir=$lab scripts/cluster/slurm-shards.sh configs/$name.yaml"
job="$(PATH="$lab/bin:$PATH" sbatch --parsable --array=1-$tasks --cpus-per-task=1 --chdir="$lab" \
  "$repo/scripts/cluster/slurm-shards.sh" "configs/$name.yaml")" || fail "sbatch refused the job"
job="${job%%;*}"
say "submitted array job $job"

# 5. Wait, check, merge, compare.
waited_from=$SECONDS
last=""
while :; do
  queue="$(squeue -h -j "$job" -o %T 2>/dev/null | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, tolower($2); sep=", "}')"
  [ -z "$queue" ] && break
  [ "$queue" != "$last" ] && say "job $job: $queue" && last="$queue"
  [ $((SECONDS - waited_from)) -ge "$timeout" ] && fail "job $job not finished after $timeout s ($queue): $(squeue -h -j "$job" -o '%i %T %R' | paste -sd ',')"
  sleep 1
done
say "job $job left the queue after $((SECONDS - waited_from)) s"
records="$(scontrol -o show job "$job" 2>/dev/null)" || fail "scontrol show job $job failed"
completed=0
while read -r record; do
  [ -z "$record" ] && continue
  task="$(echo "$record" | sed -n 's/.*ArrayTaskId=\([^ ]*\).*/\1/p')"
  task_state="$(echo "$record" | sed -n 's/.*JobState=\([^ ]*\).*/\1/p')"
  exit_code="$(echo "$record" | sed -n 's/.* ExitCode=\([^ ]*\).*/\1/p')"
  say "task $task: $task_state, exit code $exit_code"
  [ "$task_state" = COMPLETED ] && [ "$exit_code" = 0:0 ] || fail "array task $task ended $task_state with exit code $exit_code"
  completed=$((completed + 1))
done <<< "$records"
[ $completed -eq $tasks ] || fail "$completed of $tasks array tasks completed"

shards=()
for k in $(seq 1 $tasks); do
  folder="results/$name-shard-$k-of-$tasks"
  [ -f "$folder/matches.csv" ] || fail "task $k wrote no $folder (--shard auto in the job's working folder $lab)"
  shards+=("$folder")
done
say "shards: ${shards[*]}"
"$oplab" merge "${shards[@]}" --out "results/$name-merged" || fail "oplab merge failed"
say "one machine: oplab tournament configs/$name.yaml"
"$oplab" tournament "configs/$name.yaml" --quiet || fail "oplab tournament failed"
for file in matches.csv summary.csv pairwise.csv ratings.csv railroads.csv cells.csv findings.csv; do
  single="results/$name/$file" merged="results/$name-merged/$file"
  case $file in
    railroads.csv|cells.csv|findings.csv) [ -e "$single" ] || [ -e "$merged" ] || continue ;;
  esac
  [ -s "$single" ] || fail "the single run wrote no $file"
  [ -s "$merged" ] || fail "the merge wrote no $file"
  cmp "$single" "$merged" >&2 || fail "$file differs between the merged shards and the single run"
  say "$file: identical ($(wc -l < "$single") lines, $(wc -c < "$single") bytes)"
done

verdict=PASS
