#!/usr/bin/env bash
# Runs the command examples of README.md, in the README's order, in a scratch directory with
# `ply` (target/release/ply, or $PLY) on PATH, and checks that each ends as the README says.
# The terminal UIs are checked to parse their arguments (`--help`); the long examples (the
# 7-8 and 6-6-6-6 database builds, the 24-puzzle, matches at 1.8 s a move) run with --full.
# Usage: scripts/readme-examples.sh [--full]   (after cargo build --release)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
ply=${PLY:-$root/target/release/ply}
[ -x "$ply" ] || { echo "readme-examples: no $ply; run cargo build --release first" >&2; exit 2; }
full=${1:-}
work=$(mktemp -d -t ply-readme-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" && ln -s "$ply" "$work/bin/ply"
export PATH="$work/bin:$PATH" PLY_PDB_DIR="$work/pdb"
cd "$work" && ln -s "$root/data" data
passed=0 failed=0
# check STATUS COMMAND...: runs COMMAND (through sh, as the README shows it) and expects STATUS.
check() {
  local want=$1; shift
  sh -c "$*" > "$work/out" 2> "$work/err" < /dev/null
  local got=$?
  if [ "$got" = "$want" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAILED (exit $got, not $want): $*" >&2; tail -3 "$work/err" >&2
  fi
}
long() { [ "$full" = --full ] && check "$@"; }

check 0 'echo "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3" > korf1.txt'
check 0 'ply npuzzle solve korf1.txt'
check 0 'ply npuzzle solve --heuristic manhattan --moves korf1.txt'
check 0 'ply npuzzle bench --first 10'
check 0 'ply npuzzle bench --json data/npuzzle/korf100.tsv --first 3 > results.json'
long 0 'ply npuzzle pdb build --partition 7-8'
long 0 'ply npuzzle pdb build --partition 6-6-6-6'
check 0 'ply npuzzle pdb list'
long 0 'ply npuzzle bench --heuristic pdb78'
long 0 'ply npuzzle bench --heuristic pdb6666 --threads 2 data/npuzzle/korf50-24.tsv --first 1'

check 0 'ply ewn solo solve data/ewn-solo/tcg2024-public/bonus_sample3 > sample.out'
check 0 'ply ewn solo solve < data/ewn-solo/tcg2024-public/bonus_sample3'
check 0 'ply ewn solo solve --explain --stats data/ewn-solo/tcg2024-public/bonus_sample3'
check 0 'ply ewn solo check data/ewn-solo/tcg2024-public/bonus_sample3 sample.out'
check 0 'ply ewn solo view --help'
check 0 'ply ewn solo gen --seed 1 --count 5 --min-moves 15 > set.txt'
check 0 'ply ewn solo bench set.txt'

check 0 'ply sokoboru solve --stats data/sokoboru/tiny.in > tiny.out'
check 0 'ply sokoboru verify -i data/sokoboru/tiny.in -o tiny.out'
check 0 'ply sokoboru verify -i data/sokoboru/tiny.in'
check 0 'ply sokoboru verify -o tiny.out'
check 0 'ply sokoboru play --help'
check 0 'ply sokoboru gen --seed 1 --count 2 --size 5x10 --balls 8 --min-penalty 30 > large.in'

check 0 'ply ewn host -p0 "ply ewn agent alphabeta --depth 8" -p1 "ply ewn agent random" -r 20 --log games.jsonl'
long 0 'ply ewn host -p0 "ply ewn agent mcts --verbose" -p1 "ply ewn agent alphabeta --depth 8" -r 10'
check 0 'printf "012345012345343242404031241152042f" | ply ewn agent alphabeta --move-time 1.8'
check 0 'ply ewn play --help'
check 0 'ply ewn replay --help'
check 0 'ply ewn playouts --games 10000'

check 0 'ply mines gen --size 2048 --seed 7 -o 2048.map'
check 0 'ply mines info 2048.map'
check 0 'ply mines judge "ply mines naive" 2048.map 0 30'
check 0 'ply mines judge "ply mines solve" 2048.map 8'
check 0 'ply mines judge "ply mines reference" 2048.map 8'
check 2 'ply mines judge ./answer 2048.map 8 8 --json'
check 0 'ply mines play --help'
check 0 'ply completions bash > ply.bash && ply man > ply.1'

echo "readme-examples: $passed passed, $failed failed"
[ "$failed" = 0 ]
