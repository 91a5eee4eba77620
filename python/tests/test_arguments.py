"""Bad arguments raise ValueError or TypeError with one line naming the argument and the
problem, quoting at most a short, escaped piece of the input; Python refuses what the CLI
refuses."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import Cli
import ply_games
from ply_games import mines, npuzzle, sokoboru
from ply_games.ewn import duel, solo

K2 = "1 2 0 3 4 5 6 7 8"
KORF = "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6"
PUZZLE = sokoboru.Puzzle("1 6\n@O---$\n")
INSTANCE = solo.Instance.parse("2\n62 26 66 42 32 36\n665545154156655451541566554515\n")
MAP = mines.Map(16, [(0, 0)])
STATE = duel.Game().new_initial_state()
BIG = 2**200
BIG_SHOWN = str(BIG)[:40] + "..."

# (call, exception, message)
CASES: dict[str, tuple[Callable[[], Any], type[Exception], str]] = {
    # H3: one thread range for every binding.
    "npuzzle threads 10**6": (
        lambda: npuzzle.solve(KORF, threads=10**6),
        ValueError,
        "threads 1000000 is not in 1..=256",
    ),
    "npuzzle threads 0": (lambda: npuzzle.solve(K2, threads=0), ValueError, "threads 0 is not in 1..=256"),
    "npuzzle threads -1": (lambda: npuzzle.solve(K2, threads=-1), ValueError, "threads -1 is not in 1..=256"),
    "npuzzle threads 2**200": (
        lambda: npuzzle.solve(K2, threads=BIG),
        ValueError,
        f"threads {BIG_SHOWN} is not in 1..=256",
    ),
    "npuzzle threads 1.5": (
        lambda: npuzzle.solve(K2, threads=1.5),  # type: ignore[arg-type]
        TypeError,
        "threads must be an int, not float",
    ),
    "sokoboru threads 100000": (
        lambda: sokoboru.solve(PUZZLE, threads=100000),
        ValueError,
        "threads 100000 is not in 1..=256",
    ),
    "sokoboru solve_all threads 0": (
        lambda: sokoboru.solve_all([PUZZLE], threads=0),
        ValueError,
        "threads 0 is not in 1..=256",
    ),
    "mines threads 0": (lambda: mines.solve(MAP, threads=0), ValueError, "threads 0 is not in 1..=1023"),
    "mines threads 10**6": (lambda: mines.solve(MAP, threads=10**6), ValueError, "threads 1000000 is not in 1..=1023"),
    "mines threads 2**70": (
        lambda: mines.solve(MAP, threads=2**70),
        ValueError,
        "threads 1180591620717411303424 is not in 1..=1023",
    ),
    # L1: the argument named, the problem said.
    "Board tile -1": (lambda: npuzzle.Board([0, 1, 2, 3, 4, 5, 6, 7, -1]), ValueError, "tile -1 is out of range 0..=8"),
    "Board tile 2**70": (
        lambda: npuzzle.Board([0, 1, 2, 3, 4, 5, 6, 7, 2**70]),
        ValueError,
        "tile 1180591620717411303424 is out of range 0..=8",
    ),
    "Board tile 0.0": (
        lambda: npuzzle.Board([0.0] * 9),  # type: ignore[list-item]
        TypeError,
        "tile 0.0 is not an int",
    ),
    "Board 2 x 4": (
        lambda: npuzzle.Board(np.arange(8).reshape(2, 4)),
        ValueError,
        "tiles: a 2 x 4 array is not a square board",
    ),
    "Board 3-d": (
        lambda: npuzzle.Board(np.zeros((2, 2, 2), int)),
        ValueError,
        "tiles: a 3-dimensional array is not a board",
    ),
    "Board None": (
        lambda: npuzzle.Board(None),  # type: ignore[arg-type]
        TypeError,
        "expected a Board, a string of tile numbers or a sequence of ints, not NoneType",
    ),
    "goal width -1": (lambda: npuzzle.Board.goal(-1), ValueError, "width -1 is not 3, 4 or 5"),
    "dice -1": (lambda: duel.Game(dice=[-1] * 21), ValueError, "dice: -1 is not a digit 0-5"),
    "red 1.5": (
        lambda: duel.Game(red=[1.5] * 6),  # type: ignore[list-item]
        ValueError,
        "red: 1.5 is not a digit 0-5",
    ),
    "max_nodes -1": (lambda: npuzzle.solve(K2, max_nodes=-1), ValueError, "max_nodes -1 is negative"),
    "seed -1": (lambda: duel.Game(seed=-1), ValueError, "seed -1 is negative"),
    "seed 2**64": (
        lambda: solo.generate(2**64),
        ValueError,
        "seed 18446744073709551616 is more than 18446744073709551615",
    ),
    "seed 1.5": (lambda: solo.generate(1.5), TypeError, "seed must be an int, not float"),  # type: ignore[arg-type]
    "solo cells -1": (
        lambda: solo.Instance(1, [-1, 2, 3, 4, 5, 6], [1] * 30),
        ValueError,
        "cells: -1 is negative",
    ),
    "solo goal -1": (lambda: solo.Instance(-1, [1, 2, 3, 4, 5, 6], [1] * 30), ValueError, "goal -1 is negative"),
    "sokoboru cost -1": (lambda: sokoboru.verify(PUZZLE, "", -1), ValueError, "cost -1 is negative"),
    "mines cell -1": (lambda: mines.Map(16, [(-1, 0)]), ValueError, "mines: -1 is negative"),
    "mines n 2**40": (
        lambda: mines.Map(2**40, []),
        ValueError,
        "board size 1099511627776 is not a power of two from 16 to 65536",
    ),
    "mines cell twice": (
        lambda: mines.Map(16, [(3, 4), (0, 0), (3, 4)]),
        ValueError,
        "mine (3, 4) is listed twice",
    ),
    "classic mine twice": (
        lambda: mines.ClassicGame.from_mines(3, 3, [(0, 0), (0, 0)]),
        ValueError,
        "mine (0, 0) is listed twice",
    ),
    "mines is_mine -1": (lambda: MAP.is_mine(-1, 0), ValueError, "r -1 is negative"),
    "mines click 2**70": (
        lambda: mines.Game(MAP).click(0, 2**70),
        ValueError,
        "c 1180591620717411303424 is more than 4294967295",
    ),
    "solo check str": (
        lambda: solo.check(INSTANCE, "abc"),  # type: ignore[arg-type]
        TypeError,
        "moves must be a sequence of (from, to) pairs, not str",
    ),
    "solo check -1": (lambda: solo.check(INSTANCE, [(-1, 2)]), ValueError, "moves: -1 is negative"),
    "solo check 1.5": (
        lambda: solo.check(INSTANCE, [(1.5, 2)]),  # type: ignore[list-item]
        TypeError,
        "moves: 1.5 is not an int",
    ),
    "solo check triple": (
        lambda: solo.check(INSTANCE, [(1, 2, 3)]),  # type: ignore[list-item]
        ValueError,
        "moves: (1, 2, 3) is not a pair",
    ),
    "solve_all str": (
        lambda: sokoboru.solve_all("abc"),  # type: ignore[arg-type]
        TypeError,
        "puzzles must be a sequence of Puzzles, not str",
    ),
    "verify_solutions ints": (
        lambda: sokoboru.verify_solutions([1], ""),  # type: ignore[list-item]
        TypeError,
        "puzzles: 1 is not a Puzzle",
    ),
    "apply_action 2**70": (
        lambda: STATE.clone().apply_action(2**70),
        ValueError,
        "action 1180591620717411303424 is not in 0-23 (4 * cube + direction)",
    ),
    "playouts -1": (lambda: duel.playouts(-1), ValueError, "games -1 is negative"),
    "alphabeta depth -1": (lambda: duel.Agent.alphabeta(-1), ValueError, "depth -1 is negative"),
    "sokoboru rows -1": (lambda: sokoboru.generate(1, rows=-1), ValueError, "rows -1 is negative"),
    # L2: escaped, short quotes of the input.
    "Agent NUL": (
        lambda: duel.Agent("\x00"),
        ValueError,
        "unknown agent '\\0': use random, easy, normal, hard, deep or alphabeta-D (D = 1-20)",
    ),
    "Agent long": (
        lambda: duel.Agent("x" * 10000),
        ValueError,
        f"unknown agent '{'x' * 40}...': use random, easy, normal, hard, deep or alphabeta-D (D = 1-20)",
    ),
    "sokoboru step newline": (
        lambda: sokoboru.Game(PUZZLE).step("\n"),
        ValueError,
        "'\\n' is not one move: expected one of ^ v < >",
    ),
    "string_to_action newline": (
        lambda: STATE.string_to_action("12\n"),
        ValueError,
        "'12\\n' is not a move: expected two digits ND",
    ),
    "heuristic long": (
        lambda: npuzzle.solve(K2, "h" * 1000),
        ValueError,
        "unknown heuristic '" + "h" * 40 + "...' (expected manhattan, linear-conflict, pdb555, "
        "pdb663, pdb78, pdb6666, strongest or a PatternDatabase)",
    ),
    "directory NUL": (
        lambda: npuzzle.solve(KORF, directory="\x00"),
        ValueError,
        "directory '\\0' holds a NUL character",
    ),
    "Map.save empty": (lambda: MAP.save(""), ValueError, "path '' names no file"),
    "Map.load NUL": (lambda: mines.Map.load("m\x00.map"), ValueError, "path 'm\\0.map' holds a NUL character"),
    # L3: what the CLI refuses.
    "deep 86401": (lambda: duel.Agent.deep(86401), ValueError, "move_time 86401 is more than a day (86,400 s)"),
    "deep 1e19": (lambda: duel.Agent.deep(1e19), ValueError, "move_time 1e19 is more than a day (86,400 s)"),
    "choose nan": (
        lambda: duel.Agent.alphabeta(1).choose(STATE, move_time=float("nan")),
        ValueError,
        "move_time NaN is not a number",
    ),
    "choose -1": (lambda: duel.Agent("random").choose(STATE, move_time=-1), ValueError, "move_time -1 is negative"),
    "choose inf": (
        lambda: duel.Agent.alphabeta(1).choose(STATE, move_time=float("inf")),
        ValueError,
        "move_time inf is more than a day (86,400 s)",
    ),
    # The seconds rule names the argument given, and a number of seconds is a number.
    "sokoboru time_limit nan": (
        lambda: sokoboru.solve(PUZZLE, time_limit=float("nan")),
        ValueError,
        "time_limit NaN is not a number",
    ),
    "sokoboru solve_all deadline -1": (
        lambda: sokoboru.solve_all([PUZZLE], deadline=-1),
        ValueError,
        "deadline -1 is negative",
    ),
    "npuzzle time_limit str": (
        lambda: npuzzle.solve(K2, time_limit="1"),  # type: ignore[arg-type]
        TypeError,
        "time_limit must be a number of seconds, not str",
    ),
    "solo time_limit True": (
        lambda: solo.solve(INSTANCE, time_limit=True),
        TypeError,
        "time_limit must be a number of seconds, not bool",
    ),
    "mines time_limit numpy True": (
        lambda: mines.solve(MAP, time_limit=np.bool_(True)),  # type: ignore[arg-type]
        TypeError,
        "time_limit must be a number of seconds, not bool",
    ),
    "host move_time str": (
        lambda: duel.host(duel.Agent("random"), duel.Agent("random"), move_time="2"),  # type: ignore[arg-type]
        TypeError,
        "move_time must be a number of seconds, not str",
    ),
    "mcts move_time True": (
        lambda: duel.Agent.mcts(True),
        TypeError,
        "move_time must be a number of seconds, not bool",
    ),
    "wall_density True": (
        lambda: sokoboru.generate(1, wall_density=True),
        TypeError,
        "wall_density must be a number, not bool",
    ),
    # A bool is no count either.
    "npuzzle threads True": (
        lambda: npuzzle.solve(K2, threads=True),
        TypeError,
        "threads must be an int, not bool",
    ),
    "mines threads False": (
        lambda: mines.solve(MAP, threads=False),
        TypeError,
        "threads must be an int, not bool",
    ),
    "seed True": (lambda: duel.Game(seed=True), TypeError, "seed must be an int, not bool"),
    "max_nodes True": (
        lambda: sokoboru.solve(PUZZLE, max_nodes=True),
        TypeError,
        "max_nodes must be an int, not bool",
    ),
    "fsm_depth True": (
        lambda: npuzzle.solve(K2, fsm_depth=True),
        TypeError,
        "fsm_depth must be an int, not bool",
    ),
    "apply_action True": (
        lambda: STATE.clone().apply_action(True),
        TypeError,
        "action must be an int, not bool",
    ),
    "contest n 0": (
        lambda: mines.contest_score(0, 0, 0, 0),
        ValueError,
        "board size 0 is not a power of two from 16 to 65536",
    ),
    "contest k": (lambda: mines.contest_score(16, 300, 0, 0), ValueError, "300 mines do not fit in 256 cells"),
    "contest safe": (
        lambda: mines.contest_score(16, 32, 250, 0),
        ValueError,
        "250 safe cells opened, of 224",
    ),
    "contest mines": (lambda: mines.contest_score(16, 32, 0, 33), ValueError, "33 mines opened, of 32"),
    "contest a": (lambda: mines.contest_score(16, 32, 10, 0, a=-1), ValueError, "a -1 is negative"),
}


@pytest.mark.parametrize("name", CASES)
def test_bad_arguments_name_the_argument_and_the_problem(name: str) -> None:
    call, kind, message = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(kind) as raised:
            call()
    # A bad value is one of the package's own errors, and still the ValueError it was.
    assert isinstance(raised.value, kind)
    if kind is ValueError:
        assert isinstance(raised.value, ply_games.Error), type(raised.value)
    else:
        assert type(raised.value) is kind
    assert str(raised.value) == message
    assert all(c >= " " for c in str(raised.value)), "no raw control characters"


def test_arrays_and_numpy_ints_are_boards() -> None:
    board = npuzzle.Board(K2)
    assert npuzzle.Board(board.to_numpy()) == board
    assert npuzzle.Board(np.array(board.tiles, dtype=np.int64).reshape(3, 3)) == board
    assert npuzzle.Board([np.int8(t) for t in board.tiles]) == board


def test_a_missing_agent_program_is_the_clis_usage_error(ply: Cli) -> None:
    message = ply.error(["ewn", "host", "--p0", "no-such-agent-program", "--p1", "also-missing"])
    with pytest.raises(ValueError) as raised:
        duel.host("no-such-agent-program", duel.Agent("random"))
    assert str(raised.value) == message == "p0: `no-such-agent-program` cannot be started: not found on PATH"
    with pytest.raises(ValueError, match="p1: `/no/such/file` cannot be started: no such executable file"):
        duel.host(duel.Agent("random"), "/no/such/file --fast")
    with pytest.raises(ValueError, match="p1: `A=1` only sets shell variables and starts no program"):
        duel.host(duel.Agent("random"), "A=1")


def test_a_map_file_cannot_be_named_by_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="path '' names no file"):
        mines.Map.load("")


def test_dice_files_may_start_with_a_byte_order_mark() -> None:
    line = "012345012345012345012"
    assert duel.parse_dice("\ufeff" + line + "\n") == [[int(d) for d in line]]


def test_scores_of_possible_counts_are_unchanged() -> None:
    assert mines.contest_score(16, 32, 224, 0) == pytest.approx(100.0)
    assert mines.contest_score(16, 32, 0, 0, a=0) == 0.0
    assert mines.contest_score(16, 256, 0, 0) == 100.0


def test_the_deep_agent_documents_its_memory() -> None:
    assert duel.Agent.deep.__doc__ is not None and "290 MiB" in duel.Agent.deep.__doc__
