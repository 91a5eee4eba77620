"""One vocabulary across the modules: the same names for the same things, one budget and
``threads`` default on every solve, ``load`` and ``verify`` of one shape, one exception family,
and the old names, deprecated, still working for one release."""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import ply_games
from ply_games import mines, npuzzle, sokoboru
from ply_games.ewn import duel, solo

from conftest import DATA

SOLO = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n"
SOKOBORU = "1 6\n@O---$\n"
BOARD = "1 2 0 3 4 5 6 7 8"


def test_every_solution_speaks_the_same_words() -> None:
    tiles = npuzzle.solve(BOARD)
    dice = solo.solve(solo.Instance.parse(SOLO))
    answers: dict[str, Any] = {
        "npuzzle": tiles,
        "solo": dice,
        "sokoboru": sokoboru.solve(sokoboru.Puzzle(SOKOBORU)),
    }
    for name, answer in answers.items():
        for word in ("cost", "moves", "proven", "lower_bound", "generated", "expanded", "seconds", "stopped"):
            assert hasattr(answer, word), f"{name} has no {word}"
        assert answer.proven and answer.cost is not None and answer.lower_bound == answer.cost, name
        assert answer.stopped is None and answer.seconds >= 0, name
    assert tiles.cost is not None and tiles.initial_bound <= tiles.cost
    assert dice.initial_bound <= dice.lower_bound
    assert mines.solve(mines.generate(16, seed=3)).stopped is None


def test_the_package_says_which_words_each_solve_answers_in() -> None:
    doc = ply_games.__doc__ or ""
    everywhere = ("seconds", "stopped")
    solutions_only = ("cost", "moves", "proven", "lower_bound", "generated", "expanded")
    for word in everywhere + solutions_only:
        assert f"``{word}``" in doc, word
    # The one exception the docstring names is real: the Minesweeper player's record.
    assert "``mines.solve``" in doc and "``SolveStats``" in doc
    stats = mines.solve(mines.generate(16, seed=3))
    assert type(stats) is mines.SolveStats
    assert all(hasattr(stats, word) for word in everywhere + ("safe", "mines", "clicks", "guesses"))
    assert not any(hasattr(stats, word) for word in solutions_only)


SOLVES: dict[str, Callable[..., Any]] = {
    "npuzzle.solve": npuzzle.solve,
    "ewn.solo.solve": solo.solve,
    "sokoboru.solve": sokoboru.solve,
    "sokoboru.solve_all": sokoboru.solve_all,
    "mines.solve": mines.solve,
}


@pytest.mark.parametrize("name", SOLVES)
def test_every_solve_takes_one_budget_with_one_default(name: str) -> None:
    parameters = inspect.signature(SOLVES[name]).parameters
    assert parameters["threads"].default == 1
    assert parameters["time_limit"].default is None
    assert parameters["max_nodes"].default is None
    for word in ("threads", "time_limit", "max_nodes"):
        assert parameters[word].kind is inspect.Parameter.KEYWORD_ONLY


def test_budgets_stop_every_solve_and_say_so() -> None:
    (korf,) = npuzzle.korf100()[:1]
    assert npuzzle.solve(korf.board, "manhattan", max_nodes=1000).stopped == "node limit reached"
    stopped = solo.solve(solo.Instance.parse(SOLO), max_nodes=10)
    assert stopped.stopped == "node limit reached" and not stopped.proven
    (hard,) = sokoboru.load(DATA / "sokoboru" / "medium.in")[:1]
    assert not sokoboru.solve(hard, max_nodes=2000).proven
    assert mines.solve(mines.generate(64, seed=2), max_nodes=3).stopped == "node limit reached"
    assert mines.solve(mines.generate(64, seed=2), time_limit=0).stopped == "time limit reached"


def test_load_reads_a_list_from_every_module(tmp_path: Path) -> None:
    korf = npuzzle.load(DATA / "npuzzle" / "korf100.tsv")
    assert len(korf) == 100 and isinstance(korf[0], npuzzle.Instance)
    assert [type(i) for i in solo.load(DATA / "ewn-solo" / "sample.in")] == [solo.Instance]
    assert all(isinstance(p, sokoboru.Puzzle) for p in sokoboru.load(DATA / "sokoboru" / "small.in"))
    path = tmp_path / "m.map"
    mines.generate(16, seed=1).save(path)
    assert [m.n for m in mines.load(path)] == [16]


LOADS: dict[str, Callable[[Path], Any]] = {
    "npuzzle": npuzzle.load,
    "solo": solo.load,
    "sokoboru": sokoboru.load,
    "mines": mines.load,
}


@pytest.mark.parametrize("name", LOADS)
def test_a_missing_file_is_one_error_everywhere(name: str, tmp_path: Path) -> None:
    with pytest.raises(ply_games.MissingFileError) as raised:
        LOADS[name](tmp_path / "absent")
    assert isinstance(raised.value, FileNotFoundError) and isinstance(raised.value, ValueError)
    assert isinstance(raised.value, ply_games.Error)


@pytest.mark.parametrize("name", ["npuzzle", "solo", "sokoboru", "mines"])
def test_a_bad_file_is_a_parse_error_naming_it(name: str, tmp_path: Path) -> None:
    path = tmp_path / "bad"
    path.write_text("1 2 3\n" if name != "mines" else "x")
    with pytest.raises(ply_games.ParseError) as raised:
        LOADS[name](path)
    assert isinstance(raised.value, ValueError) and str(path) in str(raised.value)


def test_verify_returns_the_cost_or_says_why_not() -> None:
    instance = solo.Instance.parse(SOLO)
    moves = solo.solve(instance).moves or []
    puzzle = sokoboru.Puzzle(SOKOBORU)
    assert npuzzle.verify(BOARD, "LL") == 2 == npuzzle.verify(BOARD, "LL", 2)
    assert solo.verify(instance, moves) == len(moves)
    assert sokoboru.verify(puzzle, ">") == 1 == sokoboru.verify(puzzle, ">", 1)
    refusals: list[Callable[[], Any]] = [
        lambda: npuzzle.verify(BOARD, "L"),
        lambda: npuzzle.verify(BOARD, "U"),
        lambda: npuzzle.verify(BOARD, "LL", 3),
        lambda: solo.verify(instance, moves[:-1]),
        lambda: solo.verify(instance, moves, len(moves) + 1),
        lambda: sokoboru.verify(puzzle, "<"),
        lambda: sokoboru.verify(puzzle, ">", 2),
        # Moves verify cannot read are moves it refuses.
        lambda: npuzzle.verify(BOARD, "XYZ"),
        lambda: sokoboru.verify(puzzle, "x"),
        lambda: solo.verify(instance, [(300, 1)]),
        lambda: solo.verify(instance, [(-1, 1)]),
    ]
    for refuse in refusals:
        with pytest.raises(ply_games.RejectedError) as raised:
            refuse()
        assert isinstance(raised.value, ValueError)
    # A claimed cost is refused in the same words everywhere, with no file involved.
    claims: list[Callable[[], Any]] = [
        lambda: npuzzle.verify(BOARD, "LL", 3),
        lambda: solo.verify(instance, moves, len(moves) + 1),
        lambda: sokoboru.verify(puzzle, ">", 3),
    ]
    for claim in claims:
        with pytest.raises(ply_games.RejectedError, match=r"^the moves cost \d+, not the \d+ claimed$"):
            claim()
    # A type is still a TypeError.
    with pytest.raises(TypeError):
        solo.verify(instance, [("a", 1)])  # type: ignore[list-item]


def test_the_exception_family_has_a_class_per_problem() -> None:
    with pytest.raises(ply_games.ParseError):
        npuzzle.Board("1 2 3")
    with pytest.raises(ply_games.IllegalMoveError):
        npuzzle.Board(BOARD).replay("UU")
    with pytest.raises(ply_games.IllegalMoveError):
        sokoboru.Game(sokoboru.Puzzle(SOKOBORU)).step("<")
    with pytest.raises(ply_games.InputError):
        npuzzle.solve(BOARD, threads=0)
    with pytest.raises(ply_games.InputError):
        npuzzle.solve(BOARD, time_limit=-1)
    # Unreadable dice text is a ParseError wherever it is read; a bad list is an InputError.
    for text in ("9", "7" * 21, "0" * 20):
        with pytest.raises(ply_games.ParseError):
            duel.parse_dice(text)
        with pytest.raises(ply_games.ParseError):
            duel.Game(dice=text)
    with pytest.raises(ply_games.ParseError):
        duel.Game(red="012")
    with pytest.raises(ply_games.InputError) as raised:
        duel.Game(dice=[9] * 21)
    assert type(raised.value) is ply_games.InputError
    for name in ("InputError", "ParseError", "IllegalMoveError", "RejectedError", "DatabaseError"):
        assert issubclass(getattr(ply_games, name), ValueError), name
    assert issubclass(ply_games.InternalError, RuntimeError)
    for name in ply_games.__all__:
        if name.endswith("Error"):
            assert issubclass(getattr(ply_games, name), ply_games.Error), name


def test_boards_give_their_shape() -> None:
    assert npuzzle.Board.goal(4).shape == (4, 4)
    assert sokoboru.Puzzle(SOKOBORU).shape == (1, 6)
    assert mines.generate(16, seed=1).shape == (16, 16)


def _deprecated(old: Callable[[], Any]) -> Any:
    with pytest.warns(DeprecationWarning, match="is deprecated; use"):
        return old()


def test_old_names_warn_and_still_work(tmp_path: Path) -> None:
    solution = npuzzle.solve(BOARD)
    assert _deprecated(lambda: solution.length) == solution.cost
    assert _deprecated(lambda: solution.optimal) == solution.proven
    assert _deprecated(lambda: solution.initial_estimate) == solution.initial_bound
    korf = npuzzle.korf100()[0]
    assert _deprecated(lambda: korf.optimal) == korf.known_optimum == 57
    loaded = _deprecated(lambda: npuzzle.load_instances(DATA / "npuzzle" / "korf100.tsv"))
    assert loaded[0].board == korf.board
    answer = solo.solve(solo.Instance.parse(SOLO))
    assert _deprecated(lambda: answer.length) == answer.cost
    assert _deprecated(lambda: answer.optimal) == answer.proven
    puzzle = sokoboru.Puzzle(SOKOBORU)
    found = sokoboru.solve(puzzle)
    assert _deprecated(lambda: found.penalty) == found.cost == 1
    game = sokoboru.Game.from_moves(puzzle, ">")
    assert _deprecated(lambda: game.penalty) == game.cost == 1
    assert _deprecated(lambda: sokoboru.solve(puzzle, deadline=5)).cost == 1
    assert _deprecated(lambda: sokoboru.verify(puzzle, ">", penalty=1)) == 1
    # The old and the new name of one argument together contradict or repeat each other.
    both = "give time_limit or its deprecated name deadline, not both"
    for limit in (0, 5):
        with pytest.raises(ply_games.InputError, match=f"^solve: {both}$"):
            sokoboru.solve(puzzle, deadline=5, time_limit=limit)
    for cost in (1, 44):
        with pytest.raises(ply_games.InputError, match="^verify: give cost or its deprecated name penalty, not both$"):
            sokoboru.verify(puzzle, ">", cost, penalty=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (solution.cost, answer.cost, found.cost, game.cost) == (2, 16, 1, 1)
