"""Every value pickles and copies into an equal value (with the same hash, for one that never
changes); copied environments and states play on as the originals do."""

from __future__ import annotations

import copy
import pickle
import warnings
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ply_games import mines, npuzzle, sokoboru
from ply_games.ewn import duel, solo

SOLO = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n9\n"
SOKOBORU = "2 6\n@O---$\n--O-$-\n"
INSTANCE = solo.Instance.parse(SOLO)


# Methods without arguments that show a value's state besides its attributes.
_VIEWS = ("view", "counts", "legal_moves", "legal_actions", "is_solved", "is_over", "to_numpy")


def _fields(value: Any) -> Any:
    """What makes a value: its text, public attributes and views, NumPy arrays as lists and
    the package's objects taken apart the same way."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_fields(v) for v in value]
    if not type(value).__module__.startswith("ply_games"):
        return value
    out = {}
    for name in dir(value):
        if name.startswith("_"):
            continue
        # The deprecated names repeat others (test_vocabulary checks them).
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            attribute = getattr(value, name)
        if not callable(attribute):
            out[name] = _fields(attribute)
        elif name in _VIEWS:
            out[name] = _fields(attribute())
    text = str(value)
    return (type(value).__name__, "" if " object at 0x" in text else text, out)


def _values() -> dict[str, Callable[[], Any]]:
    solo_state = solo.State(solo.Instance.parse(SOLO))
    solo_state.play(*solo_state.legal_moves()[0])
    game = sokoboru.Game(sokoboru.Puzzle(SOKOBORU))
    game.step(">")
    duel_state = duel.Game(seed=3).new_initial_state()
    duel_state.apply_action(duel_state.legal_actions()[0])
    board = mines.Map(16, [(0, 0), (15, 15), (3, 4)])
    mines_game = mines.Game(board)
    mines_game.click(8, 8)
    mines_game.click(0, 0)
    classic = mines.ClassicGame("beginner", rule="zero", seed=2)
    classic.click(4, 4)
    return {
        "npuzzle.Board": lambda: npuzzle.Board("1 2 0 3 4 5 6 7 8"),
        "npuzzle.Instance": lambda: npuzzle.korf100()[3],
        "npuzzle.Solution": lambda: npuzzle.solve("1 2 0 3 4 5 6 7 8", "manhattan"),
        "npuzzle.Solution, stopped": lambda: npuzzle.solve(
            npuzzle.korf100()[0].board, "manhattan", max_nodes=1000
        ),
        "solo.Instance": lambda: solo.Instance.parse(SOLO),
        "solo.Solution": lambda: solo.solve(solo.Instance.parse(SOLO)),
        "solo.Verdict": lambda: solo.check(solo.Instance.parse(SOLO), [(36, 25)], optimum=9),
        "solo.State": lambda: solo_state,
        "sokoboru.Puzzle": lambda: sokoboru.Puzzle(SOKOBORU),
        "sokoboru.Solution": lambda: sokoboru.solve(sokoboru.Puzzle(SOKOBORU)),
        "sokoboru.Game": lambda: game,
        "duel.Game": lambda: duel.Game(seed=5, dice="0" * 21),
        "duel.State": lambda: duel_state,
        "duel.Playouts": lambda: duel.playouts(10, seed=2),
        "mines.Map": lambda: board,
        "mines.Game": lambda: mines_game,
        "mines.SolveStats": lambda: mines.solve(mines.generate(16, seed=4)),
        "mines.ClassicGame": lambda: classic,
        "mines.ClassicGame, fresh": lambda: mines.ClassicGame(width=7, height=5, mines=6, seed=3),
        "mines.ClassicGame, from mines": lambda: mines.ClassicGame.from_mines(5, 4, [(0, 0), (3, 4)]),
        "mines.ClassicRecord": lambda: mines.play("beginner", seed=3),
        "mines.ClassicTally": lambda: mines.win_rate("beginner", games=20, seed=3),
    }


VALUES = _values()


# The values that change (games and states): equal to their copies, never hashable.
GAMES = (solo.State, sokoboru.Game, duel.State, mines.Game, mines.ClassicGame)


def _same(again: Any, value: Any) -> None:
    """``again`` is a copy of ``value``: the same type and fields, equal, and, for a value
    that never changes, with the same hash."""
    assert type(again) is type(value)
    assert _fields(again) == _fields(value)
    assert again == value and not again != value
    if isinstance(value, GAMES):
        with pytest.raises(TypeError, match="unhashable"):
            hash(value)
    else:
        assert hash(again) == hash(value)
        assert {again: 1}[value] == 1


@pytest.mark.parametrize("name", VALUES)
@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy"])
def test_values_pickle_and_copy(name: str, how: str) -> None:
    value = VALUES[name]()
    if how == "pickle":
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            _same(pickle.loads(pickle.dumps(value, protocol)), value)
    else:
        _same(copy.copy(value) if how == "copy" else copy.deepcopy(value), value)


def test_values_that_differ_are_unequal() -> None:
    # Two of each kind that differ in one thing, and an object of another type.
    pairs: list[tuple[Any, Any]] = [
        (npuzzle.korf100()[3], npuzzle.korf100()[4]),
        (npuzzle.solve("1 2 0 3 4 5 6 7 8"), npuzzle.solve("1 0 2 3 4 5 6 7 8")),
        (solo.check(INSTANCE, [(36, 25)], optimum=9), solo.check(INSTANCE, [], optimum=9)),
        (duel.Game(seed=5), duel.Game(seed=6)),
        (duel.playouts(10, seed=2), duel.playouts(11, seed=2)),
        (mines.Map(16, [(0, 0)]), mines.Map(16, [(0, 1)])),
        (mines.play("beginner", seed=3), mines.play("beginner", seed=3, game=1)),
        (mines.ClassicGame("beginner", seed=1), mines.ClassicGame("beginner", seed=2)),
    ]
    for a, b in pairs:
        assert a != b and not a == b, type(a).__name__
        assert a != object() and a != _fields(a)
    # Seconds are a field like the others: the same tally timed apart is another record.
    tally = mines.win_rate("beginner", games=5, seed=3)
    rebuild = getattr(mines.ClassicTally, "_from_fields")  # what a pickle calls
    assert rebuild(tally.games, tally.wins, tally.guesses, tally.seconds) == tally
    assert rebuild(tally.games, tally.wins, tally.guesses, tally.seconds + 1) != tally


def test_copies_of_games_are_independent() -> None:
    state = solo.State(solo.Instance.parse(SOLO))
    for other in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        other.play(*other.legal_moves()[0])
        assert other.moves_played == 1 and state.moves_played == 0 and other != state
    game = sokoboru.Game(sokoboru.Puzzle(SOKOBORU))
    for other_game in (copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        other_game.step(">")
        assert other_game.moves == ">" and game.moves == "" and other_game != game
    board = mines.Map(16, [(0, 0)])
    played = mines.Game(board)
    for other_mines in (copy.copy(played), copy.deepcopy(played), pickle.loads(pickle.dumps(played))):
        other_mines.click(8, 8)
        assert other_mines.counts()[0] > 0 and played.counts() == (0, 0) and other_mines != played
    duel_state = duel.Game(seed=3).new_initial_state()
    moved = duel_state.clone()
    moved.apply_action(moved.legal_actions()[0])
    assert moved != duel_state
    classic = mines.ClassicGame("beginner", seed=2)
    clicked = classic.clone()
    clicked.click(4, 4)
    assert clicked != classic


def test_a_game_copy_plays_on_alike() -> None:
    game = mines.Game(mines.Map(16, [(0, 0), (2, 2)]))
    game.click(0, 1)  # a number: opens alone
    again = pickle.loads(pickle.dumps(game))
    assert again.view().tolist() == game.view().tolist()
    assert again.counts() == game.counts() == (1, 0)
    assert again.click(8, 8) == game.click(8, 8)


def test_boards_have_weak_references() -> None:
    board = npuzzle.Board.goal(3)
    ref = weakref.ref(board)
    assert ref() is board


def test_agents_pickle_as_their_specification() -> None:
    state = duel.Game(seed=6).new_initial_state()
    agents = [
        duel.Agent("hard"),
        duel.Agent("easy", seed=2),
        duel.Agent.random(seed=4),
        duel.Agent.alphabeta(3, table=True, eval="race"),
        duel.Agent.alphabeta(move_time=0.05),
        duel.Agent.deep(0.05),
        duel.Agent.mcts(0.05, seed=7),
    ]
    for agent in agents:
        for again in (pickle.loads(pickle.dumps(agent)), copy.copy(agent), copy.deepcopy(agent)):
            assert again is not agent
            assert (again.name, again.move_time, repr(again)) == (agent.name, agent.move_time, repr(agent))
        # Its tables stay behind: a pickle is a few bytes, even of the deep agent's 290 MiB.
        assert len(pickle.dumps(agent)) < 300
    for deterministic in agents[:4]:
        again = pickle.loads(pickle.dumps(deterministic))
        assert again.choose(state) == deterministic.choose(state), deterministic.name


def test_pattern_databases_pickle_as_their_file(tmp_path: Path) -> None:
    # A loaded database pickles as its partition and file; copies share the tables.
    directory = tmp_path / "pdb"
    built = _small_database()
    assert copy.copy(built) is built and copy.deepcopy(built) is built
    with pytest.raises(TypeError, match="built in memory"):
        pickle.dumps(built)
    path = built.save(directory=directory)
    loaded = npuzzle.PatternDatabase.load("5-5-5", directory=directory)
    again = pickle.loads(pickle.dumps(loaded))
    assert again.partition == "5-5-5" and again.is_loaded
    board = npuzzle.korf100()[0].board
    assert again.value(board) == loaded.value(board) == built.value(board)
    assert pickle.loads(pickle.dumps(built)).value(board) == built.value(board)
    assert path.is_file()


_DATABASE: list[npuzzle.PatternDatabase] = []


def _small_database() -> npuzzle.PatternDatabase:
    """The 5-5-5 databases (built once: a few seconds)."""
    if not _DATABASE:
        _DATABASE.append(npuzzle.PatternDatabase.build("5-5-5"))
    return _DATABASE[0]


# Gymnasium, PettingZoo and OpenSpiel: a copy continues as the original does.

GYM_IDS = [
    "ply_games/NPuzzle-v0",
    "ply_games/EwnSolo-v0",
    "ply_games/Sokoboru-v0",
    "ply_games/Minesweeper-v0",
    "ply_games/MinesweeperClassic-v0",
]


def _trace(env: Any, actions: list[int]) -> list[Any]:
    out = []
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        out.append((np.asarray(obs).tolist(), reward, terminated, truncated, info["action_mask"].tolist()))
        if terminated or truncated:
            break
    return out


@pytest.mark.parametrize("env_id", GYM_IDS)
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_gymnasium_envs_copy_and_play_on(env_id: str, how: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import ply_games.envs  # noqa: F401

    env = gymnasium.make(env_id)
    _, info = env.reset(seed=11)
    rng = np.random.default_rng(2)
    for _ in range(3):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, _, info = env.step(int(rng.choice(legal)))
        if terminated:
            _, info = env.reset()
    again = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    actions = [int(a) for a in rng.choice(np.flatnonzero(info["action_mask"]), 6)]
    assert _trace(again, actions) == _trace(env, actions)
    # The random streams were copied too: the next seedless resets agree.
    assert np.asarray(again.reset()[0]).tolist() == np.asarray(env.reset()[0]).tolist()


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_the_pettingzoo_env_copies_and_plays_on(how: str) -> None:
    pytest.importorskip("pettingzoo")
    from ply_games.envs import ewn_duel_v0

    env = ewn_duel_v0.env()
    env.reset(seed=3)
    for _ in range(4):
        observation = env.last()[0]
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    again = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))

    def play(e: Any) -> list[Any]:
        out = []
        for agent in e.agent_iter(max_iter=400):
            observation, reward, termination, truncation, _ = e.last()
            out.append((agent, observation["observation"].tolist(), reward, termination))
            legal = np.flatnonzero(observation["action_mask"])
            e.step(None if termination or truncation else int(legal[-1]))
        return out

    assert play(again) == play(env)


@pytest.mark.parametrize("how", ["deepcopy", "pickle", "clone"])
def test_openspiel_states_copy_and_play_on(how: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import ply_games.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_ply_ewn_duel", {"seed": 4})
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    if how == "deepcopy":
        again = copy.deepcopy(state)
    elif how == "pickle":
        again = pickle.loads(pickle.dumps(state))
    else:
        again = state.clone()
    assert again.history() == state.history() and str(again) == str(state)
    while not state.is_terminal():
        assert again.legal_actions() == state.legal_actions()
        action = state.legal_actions()[-1]
        state.apply_action(action)
        again.apply_action(action)
    assert again.is_terminal() and again.returns() == state.returns()
    assert again.history() == state.history()
