"""The cost of the Python boundary, side by side with its references in one run.

1. Random EWN-duel playouts driven from a Python loop (``legal_actions`` + ``apply_action``
   per move): ply's duel against OpenSpiel's own C++ ``einstein_wurfelt_nicht`` (whose dice
   are chance nodes, sampled in the same loop and not counted as moves).
2. The batched call ``ply_games.ewn.duel.playouts(n)`` against ``ply ewn playouts``.
3. A solve from Python against the same solve in Rust: Korf's instance 1 with the 7-8 pattern
   databases (``ply npuzzle bench --json`` over the instance repeated), and Sokoboru's
   small.in (``ply sokoboru solve``).

Usage (from the repository root, with ply-games installed and the ``ply`` command built):

    PLY=target/release/ply PLY_PDB_DIR=DIR python python/benchmarks/bench_boundary.py

``PLY_PDB_DIR`` must hold the 7-8 databases (``ply npuzzle pdb build --partition 7-8``);
without them the third part is skipped. ``--quick`` runs smaller sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from ply_games import npuzzle, sokoboru
from ply_games.ewn import duel

ROOT = Path(__file__).resolve().parents[2]


def ply_duel_loop(games: int, seed: int) -> tuple[int, float]:
    """Moves and seconds of `games` random games of ply's duel driven from Python."""
    rng = random.Random(seed)
    openings = [duel.Game(seed=s) for s in range(64)]
    moves = 0
    started = time.perf_counter()
    for g in range(games):
        state = openings[g % 64].new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves, time.perf_counter() - started


def openspiel_loop(games: int, seed: int) -> tuple[int, float]:
    """Moves and seconds of `games` random games of OpenSpiel's C++ EWN driven from Python."""
    import pyspiel

    names = pyspiel.registered_names()
    name = "einstein_wurfelt_nicht" if "einstein_wurfelt_nicht" in names else "breakthrough"
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
    return moves, time.perf_counter() - started


def cli(ply: str, *args: str) -> str:
    return subprocess.run([ply, *args], check=True, capture_output=True, text=True).stdout


def cli_playouts(ply: str, games: int, seed: int) -> float:
    out = cli(ply, "ewn", "playouts", "--games", str(games), "--seed", str(seed))
    moves, secs = re.search(r"([\d,]+) moves in ([\d.]+) s", out).groups()  # type: ignore[union-attr]
    return int(moves.replace(",", "")) / float(secs)


def korf1_rust(ply: str, pdb_dir: str, repeats: int) -> float:
    """Seconds per solve of Korf 1 with 7-8, from `ply npuzzle bench --json`."""
    board = " ".join(map(str, npuzzle.korf100()[0].board.tiles))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
        file.write((board + "\n") * repeats)
    try:
        out = cli(ply, "npuzzle", "bench", "--heuristic", "pdb78", "--pdb-dir", pdb_dir,
                  "--json", file.name)
    finally:
        os.unlink(file.name)
    return float(json.loads(out)["totals"]["seconds"]) / repeats


def korf1_python(pdb_dir: str, repeats: int) -> tuple[float, float]:
    """Wall seconds per call, and the solver's own seconds per solve, of Korf 1 with 7-8."""
    database = npuzzle.PatternDatabase.load("7-8", directory=pdb_dir)
    board = npuzzle.korf100()[0].board
    npuzzle.solve(board, database)  # warm the pages, as the CLI's first solve does
    search = 0.0
    started = time.perf_counter()
    for _ in range(repeats):
        search += npuzzle.solve(board, database).seconds
    return (time.perf_counter() - started) / repeats, search / repeats


def small_rust(ply: str) -> float:
    started = time.perf_counter()
    cli(ply, "sokoboru", "solve", "--deadline", "none", "--threads", "2",
        str(ROOT / "data" / "sokoboru" / "small.in"))
    return time.perf_counter() - started


def small_python() -> float:
    puzzles = sokoboru.load(ROOT / "data" / "sokoboru" / "small.in")
    started = time.perf_counter()
    sokoboru.solve_all(puzzles, deadline=None, threads=2)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each measurement")
    args = parser.parse_args()
    ply = os.environ.get("PLY", str(ROOT / "target" / "release" / "ply"))
    games = 2_000 if args.quick else 20_000
    batch = 200_000 if args.quick else 2_000_000
    results: dict[str, float] = {}

    def interleaved(*runs: Callable[[], float]) -> list[list[float]]:
        """Each run `args.repeats` times, alternating, so that load swings hit all alike."""
        figures: list[list[float]] = [[] for _ in runs]
        for _ in range(args.repeats):
            for figure, run in zip(figures, runs):
                figure.append(run())
        return figures

    def rate(loop: Callable[[int, int], tuple[int, float]]) -> Callable[[], float]:
        def run() -> float:
            moves, secs = loop(games, 1)
            return moves / secs

        return run

    def openspiel_rate() -> float:
        try:
            return rate(openspiel_loop)()
        except ImportError:
            return float("nan")

    ours, theirs = interleaved(rate(ply_duel_loop), openspiel_rate)
    results["ply duel, Python loop, moves/s"] = max(ours)
    results["OpenSpiel einstein_wurfelt_nicht, Python loop, moves/s"] = max(theirs)
    batched, command = interleaved(
        lambda: duel.playouts(batch, seed=1).moves_per_second,
        lambda: cli_playouts(ply, batch, 1),
    )
    results["duel.playouts(n), moves/s"] = max(batched)
    results["ply ewn playouts, moves/s"] = max(command)

    pdb_dir = os.environ.get("PLY_PDB_DIR")
    if pdb_dir and (Path(pdb_dir) / "npuzzle-4x4-7-8.pdb").is_file():
        solves = 50 if args.quick else 500
        rust: list[float] = []
        calls: list[tuple[float, float]] = []
        for _ in range(args.repeats):
            rust.append(korf1_rust(ply, pdb_dir, solves))
            calls.append(korf1_python(pdb_dir, solves))
        results["Korf 1 with 7-8, Rust (bench), ms/solve"] = 1e3 * min(rust)
        results["Korf 1 with 7-8, Python call, ms/solve"] = 1e3 * min(w for w, _ in calls)
        results["Korf 1 with 7-8, Python (solver's time), ms/solve"] = 1e3 * min(
            s for _, s in calls
        )
    rust_small, python_small = interleaved(lambda: small_rust(ply), small_python)
    results["Sokoboru small.in, Rust (ply sokoboru solve), s"] = min(rust_small)
    results["Sokoboru small.in, Python solve_all, s"] = min(python_small)

    width = max(map(len, results))
    for name, value in results.items():
        shown = f"{value:,.3f}" if value < 1000 else f"{value:,.0f}"
        print(f"{name:<{width}}  {shown}")


if __name__ == "__main__":
    main()
