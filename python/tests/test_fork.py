"""Solvers work in a child started by ``fork`` after the parent used every system.

rayon's threads do not exist in a forked child; the binding must not hand the child's work to
a pool whose threads stayed in the parent. Each child gets a time limit, so a hang fails the
test instead of hanging it.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import sys
from collections.abc import Callable
from typing import Any

import pytest

from ply_games import mines, npuzzle, sokoboru
from ply_games.ewn import duel, solo

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="fork is tested on Linux")

SOLO = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n"
KORF12 = npuzzle.korf100()[11].board  # linear conflict solves it in well under a second
SOKOBORU = "1 6\n@O---$\n"
TIMEOUT = 60.0


def _use_every_system() -> None:
    """What a parent does before it forks: a call of each system, the thread pools included."""
    npuzzle.solve(KORF12, "linear-conflict")
    npuzzle.solve(KORF12, "linear-conflict", threads=2)
    solo.solve(solo.Instance.parse(SOLO))
    duel.Agent("hard").choose(duel.Game(seed=1).new_initial_state())
    duel.Agent.deep(0.05).choose(duel.Game(seed=1).new_initial_state())
    ((puzzle, _, _),) = sokoboru.generate(0, rows=4, cols=5, balls=2, max_nodes=200_000)
    sokoboru.solve(puzzle)
    board = mines.generate(2048, seed=1)
    mines.solve(board, threads=2)
    board.largest_opening()
    mines.win_rate("beginner", games=100, seed=1)
    mines.win_rate("beginner", games=100, seed=1, threads=2)


# Each child call, with what it must return (compared with the parent's own answer).
CHILD_CALLS: dict[str, Callable[[], Any]] = {
    "npuzzle": lambda: npuzzle.solve(KORF12, "linear-conflict").cost,
    "npuzzle on 2 threads": lambda: npuzzle.solve(KORF12, "linear-conflict", threads=2).cost,
    "ewn solo": lambda: solo.solve(solo.Instance.parse(SOLO)).cost,
    "ewn duel agent": lambda: duel.Agent("hard").choose(duel.Game(seed=2).new_initial_state()),
    "ewn duel referee": lambda: len(
        duel.host(duel.Agent.random(seed=1), duel.Agent.random(seed=2), seed=3)
    ),
    "sokoboru solve": lambda: sokoboru.solve(sokoboru.Puzzle(SOKOBORU)).cost,
    "sokoboru generate": lambda: str(
        sokoboru.generate(1, rows=4, cols=5, balls=2, max_nodes=200_000)[0][0]
    ),
    "mines generate": lambda: mines.generate(8192, seed=2).mines,
    "mines solve": lambda: mines.solve(mines.generate(2048, seed=3), threads=2).safe,
    "mines largest opening": lambda: mines.generate(256, seed=4).largest_opening(),
    "mines classic win rate": lambda: mines.win_rate("beginner", games=200, seed=2).wins,
    "mines classic win rate on 2 threads": lambda: mines.win_rate(
        "beginner", games=200, seed=2, threads=2
    ).wins,
    "mines classic play": lambda: mines.play("expert", seed=3).moves,
    "mines classic probabilities": lambda: _classic_odds(),
}


def _classic_odds() -> list[list[float]]:
    game = mines.ClassicGame("expert", rule="zero", seed=5)
    game.click(*game.start)
    odds: list[list[float]] = game.probabilities().tolist()
    return odds


def _child(name: str, out: multiprocessing.connection.Connection) -> None:
    try:
        out.send(("ok", CHILD_CALLS[name]()))
    except BaseException as e:  # noqa: BLE001  (reported to the parent)
        out.send(("error", repr(e)))


@pytest.fixture(scope="module")
def used_parent() -> None:
    _use_every_system()


@pytest.mark.parametrize("name", CHILD_CALLS)
def test_a_forked_child_answers(used_parent: None, name: str) -> None:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(name, send))
    child.start()
    send.close()
    try:
        if not receive.poll(TIMEOUT):
            pytest.fail(f"{name}: the forked child did not answer within {TIMEOUT:.0f} s")
        status, value = receive.recv()
    finally:
        child.join(5)
        if child.is_alive():
            child.kill()
            child.join()
    assert status == "ok", value
    assert value == CHILD_CALLS[name]()


def test_an_async_vector_env_resets_after_the_parent_used_the_env() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import ply_games.envs  # noqa: F401  (registers the environments)

    env = gymnasium.make("ply_games/Sokoboru-v0")
    env.reset(seed=0)
    envs = gymnasium.make_vec(
        "ply_games/Sokoboru-v0",
        num_envs=2,
        vectorization_mode="async",
        vector_kwargs={"context": "fork"},
    )
    try:
        envs.reset_async(seed=1)
        observations, _ = envs.reset_wait(timeout=TIMEOUT)
        assert observations.shape == (2, 4, 5)
    finally:
        envs.close(terminate=True)
        env.close()
