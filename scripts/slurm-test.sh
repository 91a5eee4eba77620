#!/usr/bin/env bash
# ply's batches on a real Slurm: a single-node cluster on loopback (munged, slurmctld, slurmd
# with this machine's CPUs) in a scratch directory of its own, on ports of its own, and the
# scripts of `--emit-slurm` submitted to it with `sbatch` and nothing else.
#
# It checks that
#  - an 8-shard tournament and an 8-shard npuzzle bench finish, merge by themselves into
#    DIR/result.txt and DIR/result.json, and equal the unsharded runs on the same items (the
#    same games, move for move, between deterministic agents; the same table and JSON but for
#    the measured times);
#  - a task requeued while it runs (`scontrol requeue`) goes on from its log: the merged
#    result is complete, with no item twice;
#  - a task cancelled (`scancel` of one array element) and one whose process is killed fail
#    the array, so the merge job is cancelled; `ply merge` of the logs then names what is
#    missing, and the same script submitted again finishes the shards from their logs and
#    merges them;
# and it prints Slurm's own overhead: an 8-task array of trivial shards and its merge, from
# sbatch to the result.
#
# Needs root (it installs Debian's slurm-wlm and munge if they are missing, and runs the
# daemons as root). It stops the daemons it started (munged only if it started it) and removes
# its directory; KEEP=1 keeps the directory. PLY=path chooses the binary (default:
# target/release/ply, built if missing).
#
# With --submit SCRIPT it runs no test: it starts the cluster, submits SCRIPT (an emitted
# script, for a long job such as the 200-game match of docs/cluster.md), waits for it and its
# merge to end, prints the wall time and stops the cluster.
#
# Usage: scripts/slurm-test.sh [--submit SCRIPT]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
job_script=
case ${1:-} in
  "") ;;
  --submit)
    [ -f "${2:-}" ] || { echo "usage: scripts/slurm-test.sh [--submit SCRIPT]" >&2; exit 2; }
    job_script=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
    ;;
  *) echo "usage: scripts/slurm-test.sh [--submit SCRIPT]" >&2; exit 2 ;;
esac

say() { printf 'slurm-test: %s\n' "$*"; }
fail() { printf 'slurm-test: FAILED: %s\n' "$*" >&2; exit 1; }

if [ "$(id -u)" != 0 ]; then
  fail "run it as root (it starts slurmctld and slurmd)"
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
  ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# The test's binary (a submitted script names its own).
if [ -z "$job_script" ]; then
  ply=${PLY:-${CARGO_TARGET_DIR:-$root/target}/release/ply}
  if [ ! -x "$ply" ]; then
    say "building $ply"
    (cd "$root" && cargo build --release --locked -p ply) || fail "cannot build $ply"
  fi
  [ -x "$ply" ] || fail "$ply is not an executable (PLY names the binary to test)"
  ply=$(cd "$(dirname "$ply")" && pwd)/$(basename "$ply")
fi

work=$(mktemp -d /tmp/ply-slurm-test.XXXXXX)
conf=$work/slurm.conf
started_munged=
cleanup() {
  local status=$?
  set +e
  if [ -f "$conf" ] && [ -f "$work/run/slurmctld.pid" ]; then
    SLURM_CONF=$conf scancel --quiet --full "--user=$(id -un)" 2>/dev/null
  fi
  # Only the daemons this script started, by the pid files of its own directory.
  for daemon in slurmd slurmctld; do
    pidfile=$work/run/$daemon.pid
    if [ -f "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null
    fi
  done
  if [ -n "$started_munged" ]; then
    kill "$started_munged" 2>/dev/null
  fi
  if [ "$status" != 0 ] || [ "${KEEP:-}" = 1 ]; then
    say "kept $work (its log/ holds the daemons' logs)"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# munged: the one running, else one of this script's.
if ! pgrep -x munged >/dev/null; then
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  if [ ! -s /etc/munge/munge.key ]; then
    fail "/etc/munge/munge.key is missing (reinstall munge)"
  fi
  runuser -u munge -- /usr/sbin/munged
  started_munged=$(cat /run/munge/munged.pid)
  say "started munged ($started_munged)"
fi

# Two free ports on loopback.
free_port() {
  local port=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null ||
    [ "$port" = "${taken:-}" ]; do
    port=$((port + 1))
  done
  echo "$port"
}
ctld_port=$(free_port 17817)
taken=$ctld_port
slurmd_port=$(free_port $((ctld_port + 1)))
host=$(hostname)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool" "$work/run" "$work/log"
cat >"$conf" <<EOF
ClusterName=plytest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MinJobAge=3600
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
slurmctld -f "$conf"
slurmd -f "$conf" -N "$host"
for _ in $(seq 300); do
  state=$(sinfo -h -o %t 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || fail "the node did not come up (state '$state'); see $work/log"
say "cluster up: $host, $cpus CPUs, ports $ctld_port and $slurmd_port"

# Waits until the cluster has no job left (at most $1 seconds).
wait_idle() {
  local limit=${1:-900} start=$SECONDS
  while [ -n "$(squeue -h -o %i)" ]; do
    [ $((SECONDS - start)) -lt "$limit" ] || fail "jobs still queued after ${limit}s: $(squeue)"
    sleep 1
  done
}
# The state of job (or array task) $1.
job_state() {
  scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1
}
# Submits the script $1; prints the job id.
submit() {
  sbatch --parsable "$1" | cut -d';' -f1
}
# The table of ply's output file $1 with the measured times and the column widths left out.
table() {
  grep -v -e '^generated per second' -e '^[┌╞└├]' "$1" |
    sed -E 's/[0-9]+\.[0-9]+/#/g; s/ +/ /g'
}
# The JSON of ply's output file $1 without the measured times.
json() {
  grep -v -E '"(seconds|generated_per_second|elapsed)"' "$1"
}
# The games of tournament logs "$@", without the move times, in one order.
games() {
  for log in "$@"; do tail -n +2 "$log"; done | sed -E 's/"secs":[^,}]*//g' | sort
}
# Asserts that the directory $1 holds the merged result of the reference $2 (a prefix:
# $2.txt, $2.json) and, for a tournament, that its logs hold the games of $2.jsonl.
same_result() {
  local dir=$1 reference=$2
  [ -s "$dir/result.txt" ] && [ -s "$dir/result.json" ] || fail "$dir has no result"
  diff <(table "$reference.txt") <(table "$dir/result.txt") >&2 ||
    fail "$dir/result.txt differs from the unsharded table"
  diff <(json "$reference.json") <(json "$dir/result.json") >&2 ||
    fail "$dir/result.json differs from the unsharded JSON"
  "$ply" merge "$dir"/shard-*.jsonl >/dev/null ||
    fail "ply merge refuses the logs of $dir"
  if [ -f "$reference.jsonl" ]; then
    diff <(games "$reference.jsonl") <(games "$dir"/shard-*.jsonl) >&2 ||
      fail "the games of $dir differ from the unsharded tournament's"
    say "  the same $(tail -n +2 "$reference.jsonl" | wc -l) games, move for move"
  fi
}

if [ -n "$job_script" ]; then
  start=$SECONDS
  say "submitted $job_script as job $(cd "$(dirname "$job_script")" && submit "$job_script")"
  wait_idle 604800
  say "its array and merge ended $((SECONDS - start)) s after sbatch"
  exit 0
fi

cd "$work"
easy="easy=$ply ewn agent random --seed 1"
normal="normal=$ply ewn agent alphabeta --depth 2"
tournament=(ewn tournament "$easy" "$normal" --openings 8 -j 1 --move-time 2)
bench=(npuzzle bench --heuristic linear-conflict --first 16)

say "unsharded references on this machine"
start=$SECONDS
"$ply" "${tournament[@]}" --log ref-t.jsonl >ref-t.txt 2>/dev/null
one_machine_t=$((SECONDS - start))
"$ply" "${tournament[@]}" --json >ref-t.json 2>/dev/null
start=$SECONDS
"$ply" "${bench[@]}" >ref-b.txt
one_machine=$((SECONDS - start))
"$ply" "${bench[@]}" --json >ref-b.json

say "trivial shards: Slurm's own overhead"
# In a directory and to an output directory whose names hold a quote and a `#`, which
# sbatch's directives would otherwise pair or cut.
mkdir "odd'#dir"
printf '%s\n' "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15" >"odd'#dir/trivial.txt"
(cd "odd'#dir" && "$ply" npuzzle bench trivial.txt --emit-slurm 8 --out "tri'v#al" >trivial.sh)
start=$(date +%s.%N)
submit "odd'#dir/trivial.sh" >/dev/null
while [ ! -s "odd'#dir/tri'v#al/result.json" ]; do
  [ -z "$(squeue -h -o %i)" ] && fail "the trivial array ended without a result"
  sleep 0.1
done
end=$(date +%s.%N)
wait_idle
overhead=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
say "  8-task array of trivial shards and its merge: ${overhead} s from sbatch to the result" \
  "($cpus tasks at once)"

say "an 8-shard tournament (one machine: ${one_machine_t} s)"
"$ply" "${tournament[@]}" --emit-slurm 8 --out t --slurm-time 30 >t.sh
start=$SECONDS
submit t.sh >/dev/null
wait_idle
say "  done in $((SECONDS - start)) s"
same_result t ref-t

say "an 8-shard npuzzle bench (one machine: ${one_machine} s)"
"$ply" "${bench[@]}" --emit-slurm 8 --out b --slurm-time 30 >b.sh
start=$SECONDS
submit b.sh >/dev/null
wait_idle
say "  done in $((SECONDS - start)) s"
same_result b ref-b

# Waits until array task $1 runs and its shard's log $2 holds its header and fewer than all
# of its items; prints nothing.
wait_mid_run() {
  local task=$1 log=$2 start=$SECONDS
  until [ "$(job_state "$task")" = RUNNING ] && [ -s "$log" ]; do
    [ $((SECONDS - start)) -lt 300 ] || fail "task $task never ran"
    sleep 0.1
  done
}

say "a task requeued while it runs goes on from its log"
"$ply" "${bench[@]}" --emit-slurm 8 --out q >q.sh
job=$(submit q.sh)
# Shard 3 holds instances 3 and 11, the two longest of the first 16.
wait_mid_run "${job}_3" q/shard-3.jsonl
before=$(wc -l <q/shard-3.jsonl)
scontrol requeue "${job}_3"
say "  requeued task 3 with $((before - 1)) of its 2 instances logged"
# Slurm holds a requeued job back for a while (its BeginTime); the test need not wait.
for _ in $(seq 100); do
  [ "$(job_state "${job}_3")" = PENDING ] && break
  sleep 0.1
done
scontrol update "JobId=${job}_3" StartTime=now
wait_idle
[ "$(grep -c '^heuristic' q/slurm-"${job}"_3.out)" -ge 1 ] || fail "task 3 never finished"
same_result q ref-b
[ "$(wc -l <q/shard-3.jsonl)" = 3 ] || fail "shard 3's log is not a header and 2 instances"

say "a task cancelled and a task killed fail the array; submitted again, it finishes"
"$ply" "${bench[@]}" --emit-slurm 8 --out k >k.sh
job=$(submit k.sh)
# Shards 3 and 7 hold the longest instances of the first 16 (3 and 11, 7 and 15).
wait_mid_run "${job}_3" k/shard-3.jsonl
scancel "${job}_3"
wait_mid_run "${job}_7" k/shard-7.jsonl
pid=$(pgrep -f -- "--shard 7/8 --log $work/k/shard-7.jsonl --resume\$" | head -1)
[ -n "$pid" ] || fail "no process of shard 7 to kill (did it finish first? too fast a machine)"
kill -KILL "$pid"
wait_idle
merge_job=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' k/slurm-"${job}"_*.out | head -1)
[ -n "$merge_job" ] || fail "no task submitted the merge"
[ "$(job_state "$merge_job")" = CANCELLED ] ||
  fail "the merge job is $(job_state "$merge_job"), not cancelled (did task 3 finish first?)"
[ ! -e k/result.json ] || fail "a result was written from an incomplete set"
if "$ply" merge k/shard-*.jsonl >/dev/null 2>k/merge.err; then
  fail "ply merge took an incomplete set"
fi
grep -q 'lacks' k/merge.err || fail "ply merge did not name what is missing: $(cat k/merge.err)"
say "  $(cat k/merge.err)"
mv k/shard-7.jsonl k/shard-7.aside
if "$ply" merge k/shard-*.jsonl >/dev/null 2>k/merge.err; then
  fail "ply merge took 7 shards of 8"
fi
grep -q 'shard 7/8 is missing' k/merge.err ||
  fail "ply merge did not name shard 7/8: $(cat k/merge.err)"
say "  $(cat k/merge.err)"
mv k/shard-7.aside k/shard-7.jsonl
submit k.sh >/dev/null
wait_idle
same_result k ref-b
for shard in 3 7; do
  [ "$(wc -l <k/shard-$shard.jsonl)" = 3 ] ||
    fail "shard $shard's log is not a header and 2 instances"
done

say "passed"
