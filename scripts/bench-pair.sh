#!/usr/bin/env bash
# Before/after on ply's headline workloads: builds REV (a commit, branch or tag) beside the
# working tree, builds the working tree, then runs each workload with both binaries in turn
# (old, new, old, new, ...) and prints per workload each side's median and fastest wall time
# and the ratio new/old of the medians. Run it before resolving any issue that touches a hot
# path and put its output in the closing note.
#
# Usage: scripts/bench-pair.sh REV [--rounds N] [--only NAME,...] [--list]
#
# The workloads (names for --only):
#   korf1-manhattan  15-puzzle Korf #1, Manhattan distance, one thread
#   korf100-pdb78    Korf's 100 15-puzzles, 7-8 databases with reflection (built once if missing)
#   sokoboru-small   the course's small.in, proven (default threads)
#   openings-40      40 sampled starts of a dice line proven (one thread), a million positions a start at most
#   classic-expert   20,000 classic expert games, one thread
#   mines-2048       the Minesweeper solver judged on a 2048 map (A = 8)
#
# REV's binary is kept in target/bench-pair/SHA/ (a git worktree and its own target folder), so
# a second run against the same REV does not build it again. Both binaries run with the same
# database folder (target/bench-pair/pdb, or $PLY_PDB_DIR). Times are whole processes in
# seconds; ratios below 1 mean the working tree is faster. A workload whose command fails on
# either side is reported as failed, with its exit status, and the script exits 1 at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
}

rev=""
rounds=3
only=""
list=0
while [ $# -gt 0 ]; do
  case "$1" in
  --rounds)
    [ $# -ge 2 ] || usage
    rounds=$2
    shift 2
    ;;
  --only)
    [ $# -ge 2 ] || usage
    only=$2
    shift 2
    ;;
  --list)
    list=1
    shift
    ;;
  -h | --help) usage ;;
  -*)
    echo "bench-pair: unknown option '$1'" >&2
    usage
    ;;
  *)
    [ -z "$rev" ] || usage
    rev=$1
    shift
    ;;
  esac
done
case "$rounds" in
'' | *[!0-9]* | 0)
  echo "bench-pair: --rounds '$rounds' is not a whole number from 1" >&2
  exit 2
  ;;
esac

names=(korf1-manhattan korf100-pdb78 sokoboru-small openings-40 classic-expert mines-2048)
if [ "$list" = 1 ]; then
  printf '%s\n' "${names[@]}"
  exit 0
fi
[ -n "$rev" ] || usage
if [ -n "$only" ]; then
  for n in ${only//,/ }; do
    case " ${names[*]} " in
    *" $n "*) ;;
    *)
      echo "bench-pair: unknown workload '$n' (--list names them)" >&2
      exit 2
      ;;
    esac
  done
fi
wanted() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

sha=$(git rev-parse --verify --quiet "$rev^{commit}") || {
  echo "bench-pair: '$rev' is not a commit of this repository" >&2
  exit 2
}
short=${sha:0:10}
work="$root/target/bench-pair"
mkdir -p "$work"

# The old binary: a worktree at REV with a target folder of its own.
old_dir="$work/$short"
old="$old_dir/ply"
if [ ! -x "$old" ]; then
  echo "== building $short (REV) in $old_dir" >&2
  if [ ! -d "$old_dir/src" ]; then
    git worktree add --detach "$old_dir/src" "$sha" >/dev/null
  fi
  CARGO_TARGET_DIR="$old_dir/target" cargo build --release --locked -p ply \
    --manifest-path "$old_dir/src/Cargo.toml" >&2
  cp "$old_dir/target/release/ply" "$old"
fi
echo "== building the working tree" >&2
cargo build --release --locked -p ply >&2
new="$root/target/release/ply"

# Inputs, made once.
data="$work/inputs"
mkdir -p "$data"
export PLY_PDB_DIR=${PLY_PDB_DIR:-$work/pdb}
echo "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3" >"$data/korf1.txt"
if wanted korf100-pdb78 && ! "$new" npuzzle pdb list 2>/dev/null | grep -q '7-8.*sound'; then
  echo "== building the 7-8 databases into $PLY_PDB_DIR (about 2 minutes, 2.5 GB)" >&2
  "$new" npuzzle pdb build --partition 7-8 >&2
fi
if wanted mines-2048 && [ ! -s "$data/m2048.map" ]; then
  "$new" mines gen --size 2048 --seed 1 -o "$data/m2048.map" >&2
fi

# The command of workload $1 for binary $2, as words.
command_of() {
  local ply=$2
  case "$1" in
  korf1-manhattan) echo "$ply npuzzle solve --heuristic manhattan --threads 1 $data/korf1.txt" ;;
  korf100-pdb78) echo "$ply npuzzle bench --heuristic pdb78 --threads 1" ;;
  sokoboru-small) echo "$ply sokoboru solve data/sokoboru/small.in" ;;
  openings-40) echo "$ply ewn openings prove --dice 343242404031241152042 --sample 40 --seed 5 --max-nodes 1000000 --verify 0" ;;
  classic-expert) echo "$ply mines classic bench --level expert --games 20000 --seed 1 --threads 1" ;;
  mines-2048) echo "$ply mines judge --no-time-limit \"$ply mines solve\" $data/m2048.map 8" ;;
  esac
}

# Runs one command; prints its wall seconds, or "failed:STATUS".
timed() {
  local start end status=0
  start=$EPOCHREALTIME
  eval "$1" >/dev/null 2>"$work/last-stderr" || status=$?
  end=$EPOCHREALTIME
  if [ "$status" != 0 ]; then
    echo "failed:$status"
  else
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
  fi
}

# Median and minimum of the numbers on stdin.
stats() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "- -"; exit }
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3f %.3f\n", m, v[1] }'
}

failed=0
printf '%-16s %10s %10s %10s %10s %8s\n' workload "old med" "old min" "new med" "new min" new/old
for name in "${names[@]}"; do
  wanted "$name" || continue
  old_times=() new_times=() bad=""
  for _ in $(seq "$rounds"); do
    for side in old new; do
      bin=$old
      [ "$side" = new ] && bin=$new
      t=$(timed "$(command_of "$name" "$bin")")
      case "$t" in
      failed:*)
        bad="$side ${t#failed:}: $(tail -n 1 "$work/last-stderr")"
        break 2
        ;;
      esac
      if [ "$side" = old ]; then old_times+=("$t"); else new_times+=("$t"); fi
    done
  done
  if [ -n "$bad" ]; then
    printf '%-16s failed (%s)\n' "$name" "$bad"
    failed=1
    continue
  fi
  read -r om omin < <(printf '%s\n' "${old_times[@]}" | stats)
  read -r nm nmin < <(printf '%s\n' "${new_times[@]}" | stats)
  ratio=$(awk -v a="$nm" -v b="$om" 'BEGIN { printf "%.2f", a / b }')
  printf '%-16s %10s %10s %10s %10s %8s\n' "$name" "$om" "$omin" "$nm" "$nmin" "$ratio"
done
echo "old: $short ($rev); new: the working tree at $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' with changes'); $rounds rounds, alternated; $(nproc) cores"
exit "$failed"
