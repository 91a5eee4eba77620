"""Classic Minesweeper from Python: the first-click rules, seeded games, exact probabilities,
the classic player (as ``ply mines classic solve`` plays it) and its win rate."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
from typing import Any

import numpy as np
import pytest

from conftest import Cli
from ply_games import mines


def _neighbours(game: mines.ClassicGame, row: int, col: int) -> list[tuple[int, int]]:
    return [
        (r, c)
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if 0 <= r < game.height and 0 <= c < game.width and (r, c) != (row, col)
    ]


def _layout(game: mines.ClassicGame) -> list[list[bool]]:
    return [[bool(game.is_mine(r, c)) for c in range(game.width)] for r in range(game.height)]


@pytest.mark.parametrize("rule", ["safe", "zero"])
@pytest.mark.parametrize("level", ["beginner", "expert"])
def test_the_first_click_keeps_its_promise(rule: str, level: str) -> None:
    width, height, count = mines.LEVELS[level]
    for seed in range(60):
        game = mines.ClassicGame(level, rule=rule, seed=seed)
        # Anywhere: the corners, the edges, the middle and the default start.
        at = [(0, 0), (height - 1, width - 1), (0, width // 2), (height // 2, width // 2), game.start]
        row, col = at[seed % len(at)]
        assert game.is_mine(row, col) is None, "no mines before the first click"
        opened = game.click(row, col)
        assert opened is not None and (row, col, int(game.view()[row, col])) in opened
        assert game.status in ("playing", "won")
        assert sum(map(sum, _layout(game))) == count
        assert game.is_mine(row, col) is False
        if rule == "zero":
            assert game.view()[row, col] == 0
            assert all(game.is_mine(r, c) is False for r, c in _neighbours(game, row, col))
            assert len(opened) >= 1 + len(_neighbours(game, row, col))


def test_a_custom_rectangular_board() -> None:
    game = mines.ClassicGame(width=7, height=4, mines=6, rule="zero", seed=2)
    assert (game.width, game.height, game.mines, game.rule, game.level) == (7, 4, 6, "zero", None)
    assert game.start == (2, 2) and game.view().shape == (4, 7) and game.view().dtype == np.uint8
    assert (game.view() == mines.HIDDEN).all()
    game.click(1, 5)
    assert game.view()[1, 5] == 0
    assert mines.ClassicGame("intermediate").level == "intermediate"
    assert mines.ClassicGame().level == "expert", "expert without a board, as the CLI"
    assert mines.ClassicGame(width=30, height=16, mines=99).level == "expert"


def test_seeds_replay_their_games() -> None:
    boards = set()
    for seed in range(20):
        first = mines.ClassicGame("expert", seed=seed)
        again = mines.ClassicGame("expert", seed=seed)
        first.click(5, 5)
        again.click(5, 5)
        assert _layout(first) == _layout(again)
        boards.add(str(_layout(first)))
    assert len(boards) == 20


def test_clicks_open_regions_and_end_the_game() -> None:
    # . . . .
    # . . . *
    # . . . .
    game = mines.ClassicGame.from_mines(4, 3, [(1, 3)])
    assert game.mines == 1 and game.seed == 0
    assert game.click(0, 3) == [(0, 3, 1)]
    assert game.click(0, 3) == []
    opened = game.click(1, 0)
    assert opened is not None and sorted(opened) == sorted(
        (r, c, 1 if c == 2 else 0) for r in range(3) for c in range(3)
    )
    assert game.status == "playing" and game.opened == 10
    assert game.click(2, 3) == [(2, 3, 1)]
    assert game.status == "won" and game.opened == 11
    assert str(game) == "..11\n..1#\n..11\n"
    lost = mines.ClassicGame.from_mines(4, 3, [(1, 3)])
    assert lost.click(1, 3) is None
    assert lost.status == "lost" and lost.view()[1, 3] == mines.EXPLODED
    assert lost.click(0, 0) == [] and lost.status == "lost"
    assert lost.history() == [(1, 3)]
    with pytest.raises(ValueError, match="the game is lost"):
        lost.probabilities()


def _brute_force(view: np.ndarray, count: int) -> np.ndarray:
    """Each hidden cell's share of the placements of ``count`` mines that fit the numbers."""
    height, width = view.shape
    hidden = [(r, c) for r in range(height) for c in range(width) if view[r, c] == mines.HIDDEN]
    totals = np.zeros(view.shape)
    fits = 0
    for chosen in itertools.combinations(hidden, count):
        placed = set(chosen)
        ok = all(
            view[r, c] == sum((rr, cc) in placed for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2))
            for r in range(height)
            for c in range(width)
            if view[r, c] != mines.HIDDEN
        )
        if ok:
            fits += 1
            for r, c in chosen:
                totals[r, c] += 1
    assert fits > 0
    return totals / fits


def test_probabilities_agree_with_brute_force() -> None:
    rng = np.random.default_rng(7)
    checked = 0
    for trial in range(40):
        width, height = int(rng.integers(3, 6)), int(rng.integers(2, 5))
        count = int(rng.integers(1, min(6, width * height - 2)))
        game = mines.ClassicGame(width=width, height=height, mines=count, seed=trial)
        game.click(*game.start)
        # A few more safe clicks, as a player would make them.
        for _ in range(int(rng.integers(0, 3))):
            safe = [
                (r, c)
                for r in range(height)
                for c in range(width)
                if game.view()[r, c] == mines.HIDDEN and game.is_mine(r, c) is False
            ]
            if game.status != "playing" or not safe:
                break
            game.click(*safe[int(rng.integers(len(safe)))])
        if game.status != "playing":
            continue
        view = game.view()
        odds = game.probabilities()
        assert odds.dtype == np.float64 and odds.shape == view.shape
        np.testing.assert_allclose(odds, _brute_force(view, count), atol=1e-9)
        np.testing.assert_allclose(mines.probabilities(view, count), odds, atol=0)
        # The expected number of mines is the number of mines; open cells hold none.
        assert odds.sum() == pytest.approx(count)
        assert (odds[view != mines.HIDDEN] == 0).all()
        checked += 1
    assert checked >= 20


def test_probabilities_on_a_fresh_expert_board_are_the_density() -> None:
    view = np.full((16, 30), mines.HIDDEN, np.uint8)
    np.testing.assert_allclose(mines.probabilities(view, 99), 99 / 480)
    game = mines.ClassicGame("expert", rule="zero", seed=4)
    game.click(*game.start)
    odds = game.probabilities()
    assert odds.sum() == pytest.approx(99) and odds.max() <= 1.0
    # A plain list works as well as an array.
    assert mines.probabilities(game.view().tolist(), 99).tolist() == odds.tolist()


def test_the_player_replays_its_game() -> None:
    for rule in ("safe", "zero"):
        for index in range(8):
            record = mines.play("beginner", rule=rule, seed=5, game=index)
            assert record == record and (record.seed, record.game) == (5, index)
            again = mines.play("beginner", rule=rule, seed=5, game=index)
            assert (again.won, again.moves) == (record.won, record.moves)
            # The record's moves on the game of its seed end as the record says.
            game = mines.ClassicGame("beginner", rule=rule, seed=mines.game_seed(5, index))
            assert record.moves[0][:2] == game.start
            for row, col, certain, p in record.moves:
                result = game.click(row, col)
                if certain:
                    assert result is not None and p == 0.0
            assert game.status == ("won" if record.won else "lost")
            assert game.opened == record.opened
            assert record.clicks == len(record.moves)
            assert record.guesses == sum(not m[2] for m in record.moves)
            assert record.guessed_safety == pytest.approx(
                float(np.prod([1 - m[3] for m in record.moves if not m[2]]))
            )


def test_the_win_rate_is_its_games() -> None:
    whole = mines.win_rate("beginner", games=300, seed=3)
    assert whole.games == 300 and 0.7 < whole.rate < 1.0
    low, high = whole.interval
    assert low < whole.rate < high
    for threads in (1, 2, 3):
        again = mines.win_rate("beginner", games=300, seed=3, threads=threads)
        assert (again.games, again.wins, again.guesses) == (whole.games, whole.wins, whole.guesses)
    parts = [
        mines.win_rate("beginner", games=games, seed=3, first_game=first)
        for first, games in [(0, 120), (120, 1), (121, 179)]
    ]
    assert sum(p.games for p in parts) == 300
    assert sum(p.wins for p in parts) == whole.wins
    assert sum(p.guesses for p in parts) == whole.guesses
    records = [mines.play("beginner", seed=3, game=i) for i in range(300)]
    assert sum(r.won for r in records) == whole.wins
    assert sum(r.guesses for r in records) == whole.guesses
    other = mines.win_rate("beginner", games=300, seed=4)
    assert (other.wins, other.guesses) != (whole.wins, whole.guesses)


def test_custom_boards_and_rules_play() -> None:
    tally = mines.win_rate(width=8, height=6, mines=7, rule="zero", start=(3, 3), games=50)
    assert tally.games == 50
    record = mines.play(width=8, height=6, mines=7, rule="zero", start=(3, 3), seed=1)
    assert record.moves[0][:2] == (3, 3)


def test_games_pickle_and_copy_and_play_on_alike() -> None:
    seeded = mines.ClassicGame("beginner", rule="zero", seed=9)
    seeded.click(4, 4)
    given = mines.ClassicGame.from_mines(5, 4, [(0, 0), (3, 4)], rule="zero", start=(2, 2))
    given.click(0, 1)  # a number: opens alone
    fresh = mines.ClassicGame(width=6, height=5, mines=4, seed=8)
    for game in (seeded, given, fresh):
        for again in (copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game)), game.clone()):
            assert type(again) is mines.ClassicGame
            assert again.view().tolist() == game.view().tolist()
            assert (again.history(), again.status, again.opened, again.seed, again.start) == (
                game.history(),
                game.status,
                game.opened,
                game.seed,
                game.start,
            )
            assert repr(again) == repr(game)
            # Independent, and the same underneath.
            hidden = [tuple(int(x) for x in at) for at in np.argwhere(game.view() == mines.HIDDEN)]
            twin = copy.deepcopy(game)
            for row, col in hidden[:3]:
                assert again.click(row, col) == twin.click(row, col)
                assert again.view().tolist() == twin.view().tolist()
            assert again.history() != game.history() or not hidden
    for value in (mines.play("beginner", seed=2), mines.win_rate("beginner", games=20)):
        for again_value in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
            assert type(again_value) is type(value)
            assert repr(again_value) == repr(value)


BAD: dict[str, tuple[Any, type[Exception], str]] = {
    "rule": (lambda: mines.ClassicGame(rule="first"), ValueError, 'unknown first-click rule "first" (safe or zero)'),
    "rule type": (lambda: mines.ClassicGame(rule=1), TypeError, "rule must be a str, not int"),  # type: ignore[arg-type]
    "level": (lambda: mines.play("hard"), ValueError, 'unknown level "hard" (beginner, intermediate or expert)'),
    "level type": (lambda: mines.ClassicGame(9), TypeError, "level must be a str or None, not int"),  # type: ignore[arg-type]
    "level and board": (
        lambda: mines.ClassicGame("expert", width=9, height=9, mines=10),
        ValueError,
        "give a level or a board's width, height and mines, not both",
    ),
    "part of a board": (
        lambda: mines.win_rate(width=9, height=9),
        ValueError,
        "a custom board needs width, height and mines, all three",
    ),
    "too many mines": (
        lambda: mines.ClassicGame(width=3, height=3, mines=9, rule="zero"),
        ValueError,
        "9 mines do not fit a board of 3 columns x 3 rows",
    ),
    "side": (lambda: mines.ClassicGame(width=0, height=3, mines=1), ValueError, "each side must be 1 to 1024"),
    "width -1": (lambda: mines.ClassicGame(width=-1, height=3, mines=1), ValueError, "width -1 is negative"),
    "start off": (lambda: mines.play("beginner", start=(9, 0)), ValueError, "the first click (9, 0) is off"),
    "start pair": (lambda: mines.play("beginner", start=(1, 2, 3)), ValueError, "start (1, 2, 3) is not a (row, col) pair"),  # type: ignore[arg-type]
    "start -1": (lambda: mines.play("beginner", start=(-1, 0)), ValueError, "start: -1 is negative"),
    "click off": (lambda: mines.ClassicGame("beginner").click(0, 9), ValueError, "(0, 9) is off the 9 x 9 board"),
    "click float": (lambda: mines.ClassicGame("beginner").click(0.5, 0), TypeError, "row must be an int, not float"),  # type: ignore[arg-type]
    "threads 0": (lambda: mines.win_rate(games=1, threads=0), ValueError, "threads 0 is not in 1..="),
    "games 0": (lambda: mines.win_rate(games=0), ValueError, "games 0 is not in 1..=1000000000000"),
    "seed -1": (lambda: mines.play(seed=-1), ValueError, "seed -1 is negative"),
    "game overflow": (
        lambda: mines.win_rate(games=2, first_game=2**64 - 1),
        ValueError,
        "is more than 18446744073709551615",
    ),
    "view float": (lambda: mines.probabilities(np.zeros((2, 2)), 1), TypeError, "view must be a 2-D array of ints"),
    "view 1-D": (lambda: mines.probabilities([9, 9], 1), ValueError, "view must be 2-D"),
    "view cell": (lambda: mines.probabilities([[9, 11]], 1), ValueError, "view: 11 is not a cell"),
    "view mines": (lambda: mines.probabilities([[9, 9]], 3), ValueError, "3 mines do not fit a 2 x 1 board"),
    "from_mines off": (lambda: mines.ClassicGame.from_mines(3, 3, [(3, 0)]), ValueError, "mines: (3, 0) is off"),
}


@pytest.mark.parametrize("name", BAD)
def test_bad_arguments_say_what_is_wrong(name: str) -> None:
    call, kind, message = BAD[name]
    with pytest.raises(kind) as raised:
        call()
    assert message in str(raised.value)


def test_the_player_plays_as_the_cli_does(ply: Cli) -> None:
    if ply.run(["mines", "classic", "solve", "--help"], check=False).returncode != 0:
        pytest.skip(f"{ply.path} has no `mines classic`")
    cases: list[tuple[list[str], dict[str, Any]]] = [
        (["--level", "beginner", "--seed", "4", "--game", "2"], {"level": "beginner", "seed": 4, "game": 2}),
        (
            ["--width", "12", "--height", "7", "--mines", "14", "--rule", "zero", "--start", "3,4", "--seed", "9"],
            {"width": 12, "height": 7, "mines": 14, "rule": "zero", "start": (3, 4), "seed": 9},
        ),
    ]
    for args, kwargs in cases:
        doc = json.loads(ply.run(["mines", "classic", "solve", *args, "--json"]).stdout)
        record = mines.play(**kwargs)
        assert (record.won, record.opened, record.clicks, record.guesses) == (
            doc["won"],
            doc["opened"],
            doc["clicks"],
            doc["guesses"],
        )
        assert record.moves == [(m["row"], m["col"], m["certain"], m["mine_probability"]) for m in doc["moves"]]
