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

from typing import Any

from ._files import PathLike, load_parsed
from ._native import extend, optional, quoted
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


@extend(Puzzle)
class _Puzzle:
    @property
    def shape(self: Any) -> tuple[int, int]:
        """``(rows, cols)``: the shape every ``ply_games`` board gives."""
        return (self.rows, self.cols)

    def __repr__(self: Any) -> str:
        return f"Puzzle({quoted(str(self))})"


@extend(Solution)
class _Solution:
    @property
    def text(self: Any) -> str:
        """The case as the solution file writes it: the penalty, then the moves (an empty
        answer, ``0`` and an empty line, without a solution, as ``ply sokoboru solve`` writes
        it)."""
        return f"{self.cost or 0}\n{self.moves or ''}\n"

    def __repr__(self: Any) -> str:
        return f"Solution(cost={optional(self.cost)}, proven={self.proven}, moves={quoted(self.moves or '')})"


@extend(Game)
class _Game:
    def clone(self: Any) -> Any:
        """An independent copy."""
        return self.__copy__()

    def __repr__(self: Any) -> str:
        return f"Game.from_moves({self.puzzle!r}, {quoted(self.moves)})"
