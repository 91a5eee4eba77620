"""Every value's ``repr`` and ``str``, as they were written when they were Rust's: reprs built
from a class's other attributes are the pure-Python package's now (``ply_games._native``), in
the same words."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ply_games import mines, npuzzle, sokoboru
from ply_games.ewn import duel, solo

SOLO = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n9\n"
SOKOBORU = "2 6\n@O---$\n--O-$-\n"


def _values() -> dict[str, Any]:
    instance = solo.Instance.parse(SOLO)
    state = solo.State(instance)
    state.play(*state.legal_moves()[0])
    puzzle = sokoboru.Puzzle(SOKOBORU)
    game = sokoboru.Game(puzzle)
    game.step(">")
    duel_game = duel.Game(seed=3)
    duel_state = duel_game.new_initial_state()
    duel_state.apply_action(duel_state.legal_actions()[0])
    board = mines.Map(16, [(0, 0), (15, 15), (3, 4)])
    classic = mines.ClassicGame("beginner", rule="zero", seed=2)
    classic.click(4, 4)
    custom = mines.ClassicGame(width=5, height=4, mines=3, seed=1)
    lost = mines.ClassicGame.from_mines(3, 3, [(0, 0)])
    lost.click(0, 0)
    return {
        "npuzzle.Board": npuzzle.Board("1 2 0 3 4 5 6 7 8"),
        "npuzzle.Instance": npuzzle.korf100()[3],
        "npuzzle.Instance, no id": npuzzle.parse_instances("1 2 0 3 4 5 6 7 8\n")[0],
        "npuzzle.Solution": npuzzle.solve("1 2 0 3 4 5 6 7 8", "manhattan"),
        "npuzzle.Solution, stopped": npuzzle.solve(
            npuzzle.korf100()[0].board, "manhattan", max_nodes=1000
        ),
        "solo.Instance": instance,
        "solo.Solution": solo.solve(instance),
        "solo.Solution, stopped": solo.solve(instance, max_nodes=10),
        "solo.Verdict": solo.check(instance, [(36, 25)], optimum=9),
        "solo.State": state,
        "sokoboru.Puzzle": puzzle,
        "sokoboru.Solution": sokoboru.solve(puzzle),
        "sokoboru.Game": game,
        "duel.Game": duel_game,
        "duel.State": duel_state,
        "duel.Agent": duel.Agent("hard"),
        "duel.Playouts": duel.playouts(games=10, seed=1),
        "mines.Map": board,
        "mines.SolveStats": mines.solve(mines.generate(16, seed=3)),
        "mines.ClassicGame": classic,
        "mines.ClassicGame, custom": custom,
        "mines.ClassicGame, lost": lost,
        "mines.ClassicRecord": mines.play("beginner", seed=1, game=0),
        "mines.ClassicTally": mines.win_rate("beginner", games=10, seed=1),
    }


EXPECTED = {
    "npuzzle.Board": (
        "Board([1, 2, 0, 3, 4, 5, 6, 7, 8])",
        "1 2 0\n3 4 5\n6 7 8\n",
    ),
    "npuzzle.Instance": (
        "Instance(label=\"4\", known_optimum=56, board=Board([5, 12, 10, 7, 15, 11, 14, 0, 8, 2, 1, 13, 3, 4, 9, 6]))",
        "Instance(label=\"4\", known_optimum=56, board=Board([5, 12, 10, 7, 15, 11, 14, 0, 8, 2, 1, 13, 3, 4, 9, 6]))",
    ),
    "npuzzle.Instance, no id": (
        "Instance(label=\"line 1\", known_optimum=None, board=Board([1, 2, 0, 3, 4, 5, 6, 7, 8]))",
        "Instance(label=\"line 1\", known_optimum=None, board=Board([1, 2, 0, 3, 4, 5, 6, 7, 8]))",
    ),
    "npuzzle.Solution": (
        "Solution(cost=2, moves=\"LL\", generated=2, expanded=2, seconds=S)",
        "Solution(cost=2, moves=\"LL\", generated=2, expanded=2, seconds=S)",
    ),
    "npuzzle.Solution, stopped": (
        "Solution(cost=None, stopped=\"node limit reached\", lower_bound=43)",
        "Solution(cost=None, stopped=\"node limit reached\", lower_bound=43)",
    ),
    "solo.Instance": (
        "Instance.parse(\"2\\n62 26 66 42 32 36\\n665545154156655451541566554515\\n9\\n\")",
        "2\n62 26 66 42 32 36\n665545154156655451541566554515\n9\n",
    ),
    "solo.Solution": (
        "Solution(cost=16, moves=[(36, 25), (25, 14), (32, 42), (42, 43), (66, 55), (43, 53), (62, 53), (14, 15), (55, 44), (53, 44), (26, 15), (15, 4), (4, 3), (3, 2), (2, 1), (1, 0)], seconds=S)",
        "Solution(cost=16, moves=[(36, 25), (25, 14), (32, 42), (42, 43), (66, 55), (43, 53), (62, 53), (14, 15), (55, 44), (53, 44), (26, 15), (15, 4), (4, 3), (3, 2), (2, 1), (1, 0)], seconds=S)",
    ),
    "solo.Solution, stopped": (
        "Solution(cost=None, stopped=\"node limit reached\")",
        "Solution(cost=None, stopped=\"node limit reached\")",
    ),
    "solo.Verdict": (
        "Verdict(\"goal not reached: the goal piece is not on (0,0) after 1 move\")",
        "goal not reached: the goal piece is not on (0,0) after 1 move",
    ),
    "solo.State": (
        "State.from_moves(Instance.parse(\"2\\n62 26 66 42 32 36\\n665545154156655451541566554515\\n9\\n\"), [(36, 25)])",
        "State.from_moves(Instance.parse(\"2\\n62 26 66 42 32 36\\n665545154156655451541566554515\\n9\\n\"), [(36, 25)])",
    ),
    "sokoboru.Puzzle": (
        "Puzzle(\"2 6\\n@O---$\\n--O-$-\\n\")",
        "2 6\n@O---$\n--O-$-\n",
    ),
    "sokoboru.Solution": (
        "Solution(cost=3, proven=True, moves=\">v>\")",
        "Solution(cost=3, proven=True, moves=\">v>\")",
    ),
    "sokoboru.Game": (
        "Game.from_moves(Puzzle(\"2 6\\n@O---$\\n--O-$-\\n\"), \">\")",
        "-@---*\n--O-$-\n",
    ),
    "duel.Game": (
        "Game(setup='210435120453112224205514025103524')",
        "Game(setup='210435120453112224205514025103524')",
    ),
    "duel.State": (
        "State.from_history('210435120453112224205514025103524', [4])",
        "R2 .. R1 .. .. .. ..\nR4 R3 .. .. .. .. ..\nR5 .. .. .. .. .. ..\n.. .. .. .. .. .. b1\n.. .. .. .. .. b2 b0\n.. .. .. .. b4 b5 b3\nblue to move, die 1 (ply 1)",
    ),
    "duel.Agent": (
        "Agent('hard')",
        "Agent('hard')",
    ),
    "duel.Playouts": (
        "Playouts(games=10, moves=408, red_wins=4, seconds=S)",
        "Playouts(games=10, moves=408, red_wins=4, seconds=S)",
    ),
    "mines.Map": (
        "Map(n=16, mines=3)",
        "Map(n=16, mines=3)",
    ),
    "mines.SolveStats": (
        "SolveStats(safe=224, mines=0, guesses=2, seconds=S)",
        "SolveStats(safe=224, mines=0, guesses=2, seconds=S)",
    ),
    "mines.ClassicGame": (
        "ClassicGame('beginner', rule='zero', start=(2, 2), seed=2) (playing, 43 opened)",
        "#######1.\n#####311.\n#####2...\n##2221.11\n##1....1#\n##1....1#\n##211..1#\n####1..1#\n####1..1#\n",
    ),
    "mines.ClassicGame, custom": (
        "ClassicGame(width=5, height=4, mines=3, rule='safe', start=(0, 0), seed=1) (playing, 0 opened)",
        "#####\n#####\n#####\n#####\n",
    ),
    "mines.ClassicGame, lost": (
        "ClassicGame(width=3, height=3, mines=1, rule='safe', start=(0, 0), seed=0) (lost, 0 opened)",
        "*##\n###\n###\n",
    ),
    "mines.ClassicRecord": (
        "ClassicRecord(seed=1, game=0, won=True, opened=71, clicks=24, guesses=0)",
        "ClassicRecord(seed=1, game=0, won=True, opened=71, clicks=24, guesses=0)",
    ),
    "mines.ClassicTally": (
        "ClassicTally(games=10, wins=9, guesses=3, seconds=S)",
        "ClassicTally(games=10, wins=9, guesses=3, seconds=S)",
    ),
}


@pytest.mark.parametrize("name", EXPECTED)
def test_reprs_and_strs_keep_their_words(name: str) -> None:
    value = _values()[name]
    # Seconds vary from run to run.
    shown = [re.sub(r"seconds=[0-9.]+", "seconds=S", text) for text in (repr(value), str(value))]
    assert tuple(shown) == EXPECTED[name]
