#!/usr/bin/env bash
# Runs every command of README.md's ```sh blocks with `ply` (target/release/ply, or $PLY) on
# PATH, in a scratch directory, and checks how each ends: its exit status and, where cheap, a
# fact of its output. The terminal UIs run on a pseudo-terminal (a small python3 driver types
# their keys and reads their screen); the human player of `ply ewn host` answers its prompts
# there too.
#
# The short set (the default) runs in a few minutes on 2 cores: a README command too long for
# it (pattern database builds, the 24-puzzle, matches and tournaments at 1.8 s a move, the
# 10-board Sokoboru generation, the cargo commands) runs with --full, and the short set runs a
# cut-down form of it instead (fewer openings, games or instances).
#
# First of all the script checks its own coverage: it extracts the commands of README.md's
# ```sh blocks (comments dropped, continued lines joined, blanks collapsed) and fails if one of
# them has no check here, so that a README change without a check fails CI.
#
# Usage: scripts/readme-examples.sh [--full | --coverage]
#   --full      also the long commands (tens of minutes; needs cargo for the cargo commands)
#   --coverage  only the coverage check (needs no binary)
# PLY=path/to/ply chooses the binary; default target/release/ply (cargo build --release).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-short}
case $mode in
  short | --full | --coverage) ;;
  *) echo "usage: scripts/readme-examples.sh [--full | --coverage]" >&2; exit 2 ;;
esac

# normalize: one command per line as the coverage check compares them: continued lines joined,
# comments dropped, blanks collapsed.
normalize() {
  awk '
    { line = held $0; held = "" }
    line ~ /\\[[:space:]]*$/ { sub(/\\[[:space:]]*$/, " ", line); held = line; next }
    {
      sub(/(^|[[:space:]]+)#.*$/, "", line)
      gsub(/[[:space:]]+/, " ", line); sub(/^ /, "", line); sub(/ $/, "", line)
      if (line != "") print line
    }'
}

# readme_commands: the commands of README.md's ```sh blocks.
readme_commands() {
  awk '/^```sh[[:space:]]*$/ { block = 1; next } /^```/ { block = 0; next } block' \
    "$root/README.md" | normalize
}

dry=1 passed=0 failed=0 last_ok=
declared=() named=()
# covers COMMAND: COMMAND (as README.md spells it) is checked by what follows.
readme() { named+=("$(printf '%s\n' "$1" | normalize)"); declared+=("${named[-1]}"); }

# run STATUS LIMIT COMMAND [tty STEPS...]: runs COMMAND with sh in the scratch directory, stdout
# in ./out and stderr in ./err, and expects exit STATUS within LIMIT seconds.
run() {
  local want=$1 limit=$2 cmd=$3 got started
  shift 3
  declared+=("$(printf '%s\n' "$cmd" | normalize)")
  last_ok=
  [ "$dry" = 1 ] && return
  started=$(date +%s.%N)
  if [ "${1:-}" = tty ]; then
    shift
    (cd "$work" && python3 "$work/ptydrive.py" "$work/out" "$limit" 80x24 "$cmd" "$@") \
      > /dev/null 2> "$work/err" < /dev/null
  else
    (cd "$work" && timeout -k 10 "$limit" sh -c "$cmd") > "$work/out" 2> "$work/err" < /dev/null
  fi
  got=$?
  local secs
  secs=$(awk -v from="$started" -v to="$(date +%s.%N)" 'BEGIN { printf "%6.1fs", to - from }')
  if [ "$got" = "$want" ]; then
    passed=$((passed + 1)) last_ok=1
    echo "ok     $secs  $cmd"
  else
    failed=$((failed + 1)) last_ok=0
    echo "FAILED $secs  $cmd  (exit $got, expected $want)"
    tail -n 5 "$work/err" | sed 's/^/         | /'
  fi
}
# check STATUS COMMAND: a README command (or its cut-down form) in the short set and with --full.
check() { run "$1" 300 "$2"; }
# long STATUS COMMAND: only with --full.
long() { if [ "$mode" = --full ]; then run "$1" 7200 "$2"; else run_skipped "$2"; fi; }
# short STATUS COMMAND: only without --full (the cut-down form of a long README command).
short() { if [ "$mode" = --full ]; then run_skipped "$2"; else run "$1" 300 "$2"; fi; }
run_skipped() { declared+=("$(printf '%s\n' "$1" | normalize)"); last_ok=; }
# tty STATUS COMMAND STEPS...: on an 80 x 24 pseudo-terminal; the steps are ptydrive.py's.
tty() { local want=$1 cmd=$2; shift 2; run "$want" 120 "$cmd" tty "$@"; }
# fact TEST: a shell test on the last command's ./out, ./err and files, run if it passed.
fact() {
  [ "$last_ok" = 1 ] || return
  if ! (cd "$work" && sh -c "$1") > /dev/null 2>&1; then
    passed=$((passed - 1)) failed=$((failed + 1)) last_ok=0
    echo "FAILED         the output of the command above: $1"
  fi
}
# setup COMMAND: prepares files for the checks that follow; a failure stops the script.
setup() {
  [ "$dry" = 1 ] && return
  (cd "$work" && sh -c "$1") > "$work/out" 2> "$work/err" < /dev/null ||
    { echo "readme-examples: setup failed: $1" >&2; cat "$work/err" >&2; exit 1; }
}

# The examples, in README.md's order. $ROOT is the repository, $WORK the scratch directory.
plan() {
  # Set up
  readme 'cargo run --release -- demo'
  short 0 'ply demo'
  fact 'grep -q "npuzzle" out && grep -q "mines classic" out && ! grep -qi "fail" out'
  long 0 'cd "$ROOT" && cargo run --release -- demo'
  fact 'grep -q "npuzzle" out && grep -q "mines" out && ! grep -qi "fail" out'
  readme 'scripts/test.sh'
  long 0 'cd "$ROOT" && scripts/test.sh'
  readme 'cargo install --path crates/cli'
  long 0 'cd "$ROOT" && cargo install --path crates/cli --root "$WORK/install"'
  fact '"$WORK/install/bin/ply" --version'
  check 0 'ply completions bash > ply.bash && ply completions zsh && ply completions fish && ply completions elvish && ply completions powershell'
  fact 'grep -q "complete" ply.bash'
  check 0 'ply man > ply.1'
  fact 'grep -q "^\.TH ply 1" ply.1'
  check 0 'ply man man1'
  fact 'test -f man1/ply.1 && test -f man1/ply-npuzzle-solve.1'

  # Sliding-tile puzzles
  check 0 'echo "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3" > korf1.txt'
  check 0 'ply npuzzle solve korf1.txt'
  fact 'grep -qx "Solution = 57" out && grep -q "^Threshold = " out'
  check 0 'ply npuzzle solve --heuristic manhattan --moves korf1.txt'
  fact 'grep -qx "Initial Estimate = 41" out && grep -Eqx "Moves = [ULRD]{57}" out'
  check 0 'ply npuzzle bench --first 10'
  fact 'grep -q "10/10 solved" out'
  check 0 'ply npuzzle bench --heuristic manhattan --fsm-depth 12 --first 5'
  fact 'grep -q "5/5 solved" out'
  readme 'ply npuzzle bench --json data/npuzzle/korf100.tsv > results.json'
  short 0 'ply npuzzle bench --json data/npuzzle/korf100.tsv --first 3 > results.json'
  fact 'python3 -c "import json,sys; t = json.load(open(\"results.json\"))[\"totals\"]; sys.exit(t[\"solved\"] != 3)"'
  check 0 'ply npuzzle pdb list'
  fact 'grep -q "7-8" out'
  long 0 'ply npuzzle pdb build --partition 7-8'
  long 0 'ply npuzzle pdb build --partition 6-6-6-6'
  long 0 'ply npuzzle pdb list'
  fact 'grep "npuzzle-4x4-7-8.pdb" out | grep -q " ok" && grep "npuzzle-5x5-6-6-6-6.pdb" out | grep -q " ok"'
  # Run after the build, as the README means it: the strongest database present.
  long 0 'ply npuzzle bench --json data/npuzzle/korf100.tsv > results.json'
  fact 'python3 -c "import json,sys; t = json.load(open(\"results.json\"))[\"totals\"]; sys.exit(t[\"solved\"] != 100)"'
  long 0 'ply npuzzle bench --heuristic pdb78'
  fact 'grep -q "100/100 solved" out'
  long 0 'ply npuzzle bench --heuristic pdb6666 --threads 2 data/npuzzle/korf50-24.tsv --first 1'
  fact 'grep -q "1/1 solved" out'

  # Single-player EWN
  local bonus=data/ewn-solo/tcg2024-public/bonus_sample3
  check 0 "ply ewn solo solve $bonus"
  fact "test \"\$(sed -n 2p out)\" = \"\$(sed -n 4p $bonus)\" && cp out sample.out"
  check 0 "ply ewn solo solve < $bonus"
  fact "test \"\$(sed -n 2p out)\" = \"\$(sed -n 4p $bonus)\""
  readme 'ply ewn solo solve --explain --stats FILE'
  check 0 "ply ewn solo solve --explain --stats $bonus"
  fact 'grep -q "^move  1: die" err && grep -q "expanded" err'
  readme 'ply ewn solo check INSTANCE SOLUTION'
  check 0 "ply ewn solo check $bonus sample.out"
  fact 'grep -q "legal and optimal" out'
  readme 'ply ewn solo view INSTANCE [SOLUTION]'
  tty 0 "ply ewn solo view $bonus sample.out" 'wait=goal piece 6' 'keys=l' 'wait=1: die' 'keys=G' 'keys=q'
  tty 0 "ply ewn solo view $bonus" 'wait=goal piece 6' 'keys=G' 'keys=q'
  # The course judge's `run` script.
  check 0 "printf '#!/bin/sh\nexec ply ewn solo solve\n' > run && chmod +x run && ./run < $bonus"
  fact "test \"\$(sed -n 2p out)\" = \"\$(sed -n 4p $bonus)\""
  check 0 'ply ewn solo gen --seed 1 --count 100 --min-moves 15 > set.txt'
  check 0 'ply ewn solo gen --seed 1 --count 10 --unsolvable > none.txt   # instances without a solution'
  fact 'test "$(grep -cx none none.txt)" = 10'
  check 0 'ply ewn solo bench set.txt'
  fact 'grep -q "^100 instances" out'

  # Sokoboru
  check 0 'ply sokoboru solve --stats data/sokoboru/tiny.in > tiny.out'
  fact 'awk "NR % 2 == 1 { s += \$1 } END { exit s != 259 }" tiny.out'
  check 0 'ply sokoboru verify -i data/sokoboru/tiny.in -o tiny.out'
  check 0 'ply sokoboru verify -i data/sokoboru/tiny.in'
  check 0 'ply sokoboru verify -o tiny.out'
  # Follows the hints through stage 1; the stage is recorded in small.out as it is solved.
  tty 0 'ply sokoboru play -i data/sokoboru/small.in -o small.out --hint' 'wait=stage 1/10' hints 'keys=q'
  fact 'test "$(sed -n 1p small.out)" -gt 0 && sed -n 2p small.out | grep -Eqx "[v^<>]+"'
  readme 'ply sokoboru gen --seed 1 --count 10 --size 5x10 --balls 8 --min-penalty 30 > large.in'
  short 0 'ply sokoboru gen --seed 2 --count 1 --size 5x10 --balls 8 --min-penalty 30 > large.in'
  fact 'grep -q "optimal penalty" err && ply sokoboru verify -i large.in'
  long 0 'ply sokoboru gen --seed 1 --count 10 --size 5x10 --balls 8 --min-penalty 30 > large.in'
  fact 'test "$(grep -c "optimal penalty" err)" = 10 && ply sokoboru verify -i large.in'
  check 0 'ply sokoboru gen --backward --seed 1 --count 10 --size 7x7 --balls 10 --full 2 > hard.in'
  fact 'test "$(grep -c "solvable by construction" err)" = 10 && ply sokoboru verify -i hard.in'
  setup 'echo "44 14 28 23 18 26 22 23 24 37" > tiny.optima'
  check 0 'ply sokoboru score -i data/sokoboru/tiny.in -o tiny.out --optima tiny.optima'
  fact 'grep -q "100.00 % of the file" out'

  # Two-player EWN
  check 0 'ply ewn host -p0 "ply ewn agent alphabeta --depth 8" -p1 "ply ewn agent random" -r 20 --log games.jsonl'
  fact 'test "$(wc -l < games.jsonl)" = 20 && grep -q "^game 20: " out'
  readme 'ply ewn host -p0 "ply ewn agent mcts --verbose" -p1 "ply ewn agent alphabeta --depth 8" -r 10'
  short 0 'ply ewn host -p0 "ply ewn agent mcts --verbose --move-time 0.1" -p1 "ply ewn agent alphabeta --depth 8" -r 2'
  fact 'grep -q "iterations" err && grep -q "^game 2: " out'
  long 0 'ply ewn host -p0 "ply ewn agent mcts --verbose" -p1 "ply ewn agent alphabeta --depth 8" -r 10'
  fact 'grep -q "iterations" err && grep -q "^game 10: " out'
  # The agent speaks the protocol on stdin: a game's setup with the role `f` (it moves first),
  # then the end of the input.
  readme 'ply ewn agent --verbose'
  check 0 'printf 012345012345123035015124421331150f | ply ewn agent --verbose'
  fact 'grep -Eqx "[0-5][0-3]" out && grep -q "^ply 0 die 1: .* depth" err'
  # A whole game at 1.8 s a move. (On a loaded machine the first move can forfeit: the host's
  # clock includes the agent's start, the agent's does not.)
  long 0 'ply ewn host -p0 "ply ewn agent --verbose" -p1 "ply ewn agent alphabeta --depth 8"'
  fact 'grep -q "^game 1: " out'
  tty 0 'ply ewn host --p1 "ply ewn agent alphabeta --depth 2"' 'wait=you play red' human
  fact 'grep -q "game 1: p[01] " out'
  tty 0 'ply ewn play --vs hard --second' 'wait=agent played' 'keys=q'
  tty 0 'ply ewn replay games.jsonl --game 3' 'wait=game 3' 'keys=l' 'wait=last: p0' 'keys=G' 'wait=wins by' 'keys=q'
  check 0 'ply ewn playouts'
  fact 'grep -q "^1,000,000 playouts" out'
  readme 'ply ewn tournament "easy=ply ewn agent random" "hard=ply ewn agent alphabeta --depth 8" "mcts=ply ewn agent mcts" --openings 10 --move-time 1.8 --log t.jsonl'
  short 0 'ply ewn tournament "easy=ply ewn agent random" "hard=ply ewn agent alphabeta --depth 8" "mcts=ply ewn agent mcts --move-time 0.1" --openings 1 --move-time 1.8 --log t.jsonl'
  fact 'grep -q "Elo" out && grep -q "^cross-table" out && test "$(wc -l < t.jsonl)" = 7'
  # --resume goes on from the log: here nothing is left to play.
  short 0 'ply ewn tournament "easy=ply ewn agent random" "hard=ply ewn agent alphabeta --depth 8" "mcts=ply ewn agent mcts --move-time 0.1" --openings 1 --move-time 1.8 --log t.jsonl --resume'
  fact 'grep -q "Elo" out && test "$(wc -l < t.jsonl)" = 7'
  long 0 'ply ewn tournament "easy=ply ewn agent random" "hard=ply ewn agent alphabeta --depth 8" "mcts=ply ewn agent mcts" --openings 10 --move-time 1.8 --log t.jsonl'
  fact 'grep -q "Elo" out && test "$(wc -l < t.jsonl)" = 61'
  # ./my-agent: ply's strongest agent, as a program of one's own.
  setup "printf '#!/bin/sh\nexec ply ewn agent \"\$@\"\n' > my-agent && chmod +x my-agent"
  readme 'ply ewn tournament "new=./my-agent" "ab=ply ewn agent alphabeta --move-time 1.8" --sprt 0,50'
  short 0 'ply ewn tournament "new=./my-agent --move-time 0.1" "ab=ply ewn agent alphabeta --move-time 0.1" --sprt 0,50 --openings 1'
  fact 'grep -q "^SPRT \[0, 50\]" out && grep -q "^Score of new vs ab: [0-9]* - [0-9]* - 0  \[" err'
  long 0 'ply ewn tournament "new=./my-agent" "ab=ply ewn agent alphabeta --move-time 1.8" --sprt 0,50'
  fact 'grep -q "^SPRT \[0, 50\]" out'
  long 0 'cd "$ROOT" && cargo run --release -p ply-ewn --example blunders -- "$WORK/games.jsonl" 0.05'
  readme 'ply ewn openings prove --dice 343242404031241152042 --sample 10 --budget 5 --log o.jsonl'
  short 0 'ply ewn openings prove --dice 343242404031241152042 --sample 3 --budget 5 --max-nodes 20000 --verify-budget 5 --log o.jsonl'
  fact 'test "$(grep -c "\"item\"" o.jsonl)" = 3 && grep -q "343242404031241152042" out'
  long 0 'ply ewn openings prove --dice 343242404031241152042 --sample 10 --budget 5 --log o.jsonl'
  fact 'test "$(grep -c "\"item\"" o.jsonl)" = 10 && grep -q "343242404031241152042" out'
  check 0 'ply ewn openings verify o.jsonl'

  # Minesweeper at scale
  check 0 'ply mines gen --size 2048 --seed 7 -o 2048.map'
  fact 'test "$(wc -c < 2048.map)" = $((2048 * 2048 / 8 + 12))'
  check 0 'ply mines info 2048.map'
  fact 'grep -q "^check *ok" out'
  check 0 'ply mines judge "ply mines naive" 2048.map 0 30'
  # The naive player opens every cell: with A = 0 the mines cost nothing.
  fact 'grep -q "^score *100.000 " out'
  check 0 'ply mines judge "ply mines solve" 2048.map 8'
  # ply's solver within the contest's 8 s: all but a mine or two (A = 8 makes each cost).
  fact 'awk "/^score/ { ok = \$2 >= 99 } END { exit !ok }" out'
  check 0 'ply mines judge "ply mines reference" 2048.map 8'
  # The contest's reference guesses at random and may run out of time: any score, but one.
  fact 'awk "/^score/ { ok = \$2 >= 0 && \$2 <= 100 } END { exit !ok }" out'
  # ./answer: a contest player speaking the raw protocol, built from C where a compiler is;
  # else ply's solver under that name.
  setup "cc -O2 -o answer \"\$ROOT/crates/cli/tests/data/c_player.c\" 2> /dev/null ||
    { printf '#!/bin/sh\nexec ply mines solve\n' > answer && chmod +x answer; }"
  check 0 'ply mines judge ./answer 2048.map 8 8 --json'
  fact 'python3 -c "import json,sys; v = json.load(open(\"out\")); sys.exit(not 0 <= v[\"score\"] <= 100)"'
  tty 0 'ply mines play --local 2048.map' 'wait=opened 0/' 'keys= ' 'keys=q'
  fact 'grep -q "score" out'

  # Classic Minesweeper
  readme 'ply mines classic bench --level expert --rule safe --games 100000 --seed 1'
  short 0 'ply mines classic bench --level expert --rule safe --games 2000 --seed 1'
  # 2,000 expert games: the rate within a few points of the published 40 %.
  fact 'grep "expert" out | grep -Eq "\b(3[6-9]|4[0-5])\.[0-9]+ %"'
  long 0 'ply mines classic bench --level expert --rule safe --games 100000 --seed 1'
  fact 'grep "expert" out | grep -Eq "\b(39|4[0-2])\.[0-9]+ %"'
  check 0 'ply mines classic solve --level beginner --seed 1 --game 42 --svg game.svg'
  fact 'tail -n 1 out | grep -Eq "^(won|lost): " && grep -q "^legend: " out && grep -q "<svg" game.svg'
  tty 0 'ply mines classic play --level intermediate --rule zero' 'wait=seed' 'keys= ' 'keys=t' 'keys=q'
  fact 'grep -q "seed" out'

  # ply studio: it starts, prints its address with a token, and stops on SIGINT (130); the
  # pages and the API are tested by crates/studio's tests and its browser tests.
  readme 'ply studio'
  readme 'ply studio --port 9000 --open'
  check 0 'ply studio --port 0 > url 2> err & pid=$!; i=0; until grep -q "token=" url || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done; kill -INT $pid; wait $pid; test $? = 130'
  fact 'grep -Eq "^http://127\.0\.0\.1:[0-9]+/\?token=[0-9a-f]{48}$" url'
  check 0 'ply studio --port 0 --open > url 2> err & pid=$!; i=0; until grep -q "token=" url || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done; kill -INT $pid; wait $pid; test $? = 130'
  fact 'grep -q "token=" url'

  # Batches on a cluster
  check 0 'seq 1 4 | xargs -P 2 -I{} ply npuzzle bench --first 12 --heuristic linear-conflict --shard {}/4 --log shard-{}.jsonl --resume > /dev/null'
  check 0 'ply merge shard-*.jsonl'
  fact 'grep -q "12/12 solved" out'
  check 0 'ply ewn tournament "deep=$(command -v ply) ewn agent deep" "hard=$(command -v ply) ewn agent alphabeta --depth 8" --openings 100 --move-time 2 -j 1 --emit-slurm 25 --out match --slurm-time 4:00:00 > match.sh'
  fact 'grep -q "#SBATCH --array=1-25%25" match.sh && test -d match'
  # Submitting needs a cluster: scripts/slurm-test.sh runs emitted scripts on a real one.
  readme 'sbatch match.sh'

  # Python: the wheel built and installed into a virtual environment of the scratch directory.
  readme 'pip install .'
  long 0 'python3 -m venv venv && venv/bin/pip install --quiet "$ROOT" && venv/bin/python -c "from ply_games import npuzzle; print(npuzzle.solve(\"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\").cost)"'
  fact 'grep -qx 57 out'
}

dry=1 plan
# The coverage check: every README command has a check above.
uncovered=0
while IFS= read -r cmd; do
  if ! printf '%s\n' "${declared[@]}" | grep -qxF -- "$cmd"; then
    echo "readme-examples: README.md runs \`$cmd\`, which this script does not check" >&2
    uncovered=$((uncovered + 1))
  fi
done < <(readme_commands)
readme_list=$(readme_commands)
for cmd in "${named[@]}"; do
  printf '%s\n' "$readme_list" | grep -qxF -- "$cmd" ||
    echo "readme-examples: note: \`$cmd\` is checked here but no longer in README.md" >&2
done
if [ "$mode" = --coverage ] || [ "$uncovered" != 0 ]; then
  echo "readme-examples: $(printf '%s\n' "$readme_list" | wc -l) README commands, $uncovered without a check"
  [ "$uncovered" = 0 ]
  exit
fi

ply=${PLY:-$root/target/release/ply}
[ -x "$ply" ] || { echo "readme-examples: no $ply; run cargo build --release first" >&2; exit 2; }
command -v python3 > /dev/null ||
  { echo "readme-examples: the terminal UIs need python3 (its pty module)" >&2; exit 2; }
work=$(mktemp -d -t ply-readme-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" && ln -s "$(cd "$(dirname "$ply")" && pwd)/$(basename "$ply")" "$work/bin/ply"
export PATH="$work/bin:$PATH" PLY_PDB_DIR="$work/pdb" ROOT="$root" WORK="$work"
ln -s "$root/data" "$work/data"

cat > "$work/ptydrive.py" << 'PY'
# ptydrive.py OUT TIMEOUT COLSxROWS COMMAND STEP...: runs COMMAND (sh -c) on a pseudo-terminal
# of that size, keeping a screen (cursor moves, clears, scrolling) and the stream of text, and
# follows the steps:
#   wait=TEXT  until the screen or the stream shows TEXT (blanks collapsed)
#   keys=TEXT  types TEXT (Python escapes: \x1b[C is the right arrow)
#   human      answers every `your move as cube+direction (MOVES):` prompt with its first move
#   hints      Sokoboru: types the move the hint line shows until the stage is SOLVED
# then waits for the program to end and exits with its status (128 + N for signal N), or 124
# when TIMEOUT seconds pass first (its process group is killed). OUT gets the stream and screen.
import codecs, fcntl, os, pty, re, select, signal, struct, sys, termios, time

out_path, timeout, size, command = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
steps = sys.argv[5:]
cols, rows = (int(x) for x in size.split("x"))
deadline = time.monotonic() + timeout
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.environ["TERM"] = "xterm-256color"
    os.execvp("sh", ["sh", "-c", command])
stream = []
screen = [[" "] * cols for _ in range(rows)]
at = [0, 0]
pending = ""
status, eof = None, False
ESCAPE = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78DEM])")
decoder = codecs.getincrementaldecoder("utf-8")("replace")


def newline():
    if at[0] == rows - 1:
        screen.pop(0)
        screen.append([" "] * cols)
    else:
        at[0] += 1


def feed(data):
    global pending
    text = pending + decoder.decode(data)
    pending = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            m = ESCAPE.match(text, i)
            if not m:
                if len(text) - i < 64:
                    pending = text[i:]
                    return
                i += 1
                continue
            i = m.end()
            seq = m.group(0)
            final, params = seq[-1], seq[2:-1]
            stream.append(" ")
            if seq[1] != "[" or params.startswith("?"):
                continue
            nums = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []
            n = max(1, nums[0]) if nums else 1
            if final in "Hf":
                at[0] = min(rows, n) - 1
                at[1] = min(cols, max(1, nums[1] if len(nums) > 1 else 1)) - 1
            elif final == "J" and nums[:1] == [2]:
                for row in screen:
                    row[:] = [" "] * cols
            elif final == "K":
                screen[at[0]][at[1]:] = [" "] * (cols - at[1])
            elif final == "A":
                at[0] = max(0, at[0] - n)
            elif final == "B":
                at[0] = min(rows - 1, at[0] + n)
            elif final == "C":
                at[1] = min(cols - 1, at[1] + n)
            elif final == "D":
                at[1] = max(0, at[1] - n)
            elif final == "G":
                at[1] = min(cols, n) - 1
            elif final == "d":
                at[0] = min(rows, n) - 1
            continue
        i += 1
        if ch == "\r":
            at[1] = 0
        elif ch == "\n":
            newline()
            stream.append(" ")
        elif ch >= " ":
            if at[1] >= cols:
                at[1] = 0
                newline()
            screen[at[0]][at[1]] = ch
            at[1] += 1
            stream.append(ch)


def squeeze(text):
    return " ".join(text.split())


def screen_text():
    return squeeze(" ".join("".join(row) for row in screen))


def stream_text():
    return squeeze("".join(stream))


def pump(wait):
    """Reads output for at most `wait` seconds; False once the program has ended and all of
    its output is read."""
    global status, eof
    if not eof and select.select([fd], [], [], max(0.0, wait))[0]:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if data:
            feed(data)
            return True
        eof = True
    elif eof:
        time.sleep(max(0.0, min(wait, 0.05)))
    if status is None:
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(code)
    return status is None or not eof


def finish(code):
    with open(out_path, "w") as out:
        out.write(stream_text() + "\n" + "\n".join("".join(r).rstrip() for r in screen) + "\n")
    sys.exit(code)


def give_up(why):
    sys.stderr.write(f"ptydrive: {why}; the screen shows: {screen_text()[-400:]!r}\n")
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    finish(124)


def wait_until(ready, what):
    while not ready():
        if time.monotonic() > deadline:
            give_up(f"no {what} within {timeout:g} s")
        if not pump(min(0.1, max(0.0, deadline - time.monotonic()))) and not ready():
            give_up(f"the program ended before {what}")


def typed(keys):
    time.sleep(0.1)
    os.write(fd, keys.encode())


for step in steps:
    kind, _, arg = step.partition("=")
    if kind == "wait":
        wait_until(lambda: squeeze(arg) in screen_text() or squeeze(arg) in stream_text(), repr(arg))
    elif kind == "keys":
        typed(codecs.decode(arg, "unicode_escape"))
    elif kind == "human":
        prompt = re.compile(r"your move as cube\+direction \(([0-5][0-3])")
        answered = 0
        while pump(min(0.1, max(0.0, deadline - time.monotonic()))):
            found = prompt.findall(stream_text())
            if len(found) > answered:
                typed(found[-1] + "\r")
                answered = len(found)
            if time.monotonic() > deadline:
                give_up(f"the game did not end within {timeout:g} s")
    elif kind == "hints":
        keys = {"^": "k", "v": "j", "<": "h", ">": "l"}
        hint = re.compile(r"hint: ([v^<>])")
        moves = 0
        while True:
            wait_until(lambda: "SOLVED" in screen_text() or "hint: none" in screen_text()
                       or hint.search(screen_text()), "a hint")
            if "SOLVED" in screen_text():
                break
            shown = hint.search(screen_text())
            if not shown:
                give_up("the hint search found nothing")
            typed(keys[shown.group(1)])
            moves += 1
            wait_until(lambda: re.search(rf"\bmoves {moves}\b", screen_text()), f"move {moves}")
    else:
        sys.exit(f"ptydrive: unknown step {step!r}")
while pump(min(0.1, max(0.0, deadline - time.monotonic()))):
    if time.monotonic() > deadline:
        give_up(f"the program did not end within {timeout:g} s")
finish(status)
PY

declared=() named=()
dry=0 plan
echo "readme-examples: $passed passed, $failed failed ($( [ "$mode" = --full ] && echo "full set" || echo "short set; --full adds the long commands"))"
[ "$failed" = 0 ]
