"""Sokoboru: Sokoban with sliding balls, solved to the optimal penalty.

Boxes are pushed one cell; balls slide until they meet something and drop into an empty box
they reach. A move costs 1 and pushing a full box costs 2. A puzzle is solved when no empty
box is left. Moves are written ``^ v < >``.

>>> from ply_games import sokoboru
>>> puzzle = sokoboru.Puzzle("1 6\\n@O---$\\n")
>>> solution = sokoboru.solve(puzzle)
>>> (solution.penalty, solution.moves, solution.proven)
(1, '>', True)
"""

from __future__ import annotations

import os
from typing import Union

from ._ply.sokoboru import (
    Game,
    Puzzle,
    Solution,
    generate,
    parse_puzzles,
    solve,
    solve_all,
    verify,
    verify_solutions,
)

__all__ = [
    "Game",
    "Puzzle",
    "Solution",
    "generate",
    "load",
    "parse_puzzles",
    "solve",
    "solve_all",
    "verify",
    "verify_solutions",
]


def load(path: Union[str, os.PathLike[str]]) -> list[Puzzle]:
    """Reads every puzzle of a puzzle file; ``ValueError`` names the file, case and line."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    try:
        return parse_puzzles(text)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from None
