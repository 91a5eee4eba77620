"""Sokoboru: Sokoban with sliding balls, solved to the optimal penalty.

Boxes are pushed one cell; balls slide until they meet something and drop into an empty box
they reach. A move costs 1 and pushing a full box costs 2: a solution's ``cost`` is its
penalty. A puzzle is solved when no empty box is left. Moves are written ``^ v < >``.

>>> from ply_games import sokoboru
>>> puzzle = sokoboru.Puzzle("1 6\\n@O---$\\n")
>>> solution = sokoboru.solve(puzzle)
>>> (solution.cost, solution.moves, solution.proven)
(1, '>', True)
>>> sokoboru.verify(puzzle, ">")
1
>>> puzzle.shape
(1, 6)
"""

from __future__ import annotations

from ._files import PathLike, load_parsed
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


def load(path: PathLike) -> list[Puzzle]:
    """Reads every puzzle of a puzzle file: ``MissingFileError`` when it is not there,
    ``ParseError`` naming the file, case and line."""
    return load_parsed(path, parse_puzzles)
