"""Sliding-tile puzzles (the 8-, 15- and 24-puzzle), solved optimally.

Boards follow Korf's convention: tiles ``0 1 2 ... W*W-1`` row-major with the blank (0)
top-left as the goal. Moves are the blank's directions as letters ``U L R D``.

>>> from ply_games import npuzzle
>>> solution = npuzzle.solve("1 2 0 3 4 5 6 7 8", heuristic="manhattan")
>>> (solution.cost, solution.moves, solution.proven)
(2, 'LL', True)
>>> npuzzle.verify("1 2 0 3 4 5 6 7 8", "LL")
2
>>> npuzzle.Board("1 2 0 3 4 5 6 7 8").shape
(3, 3)

``solve`` runs ply's IDA* with Manhattan distance, linear conflict or additive pattern
databases (``PatternDatabase``: 5-5-5, 6-6-3 and 7-8 for the 15-puzzle, 6-6-6-6 for the
24-puzzle), on one thread or several, and answers as ``ply npuzzle solve`` does. ``load``
reads an instance file.
"""

from __future__ import annotations

from typing import Any

from ._files import PathLike, deprecated, load_parsed
from ._native import extend, optional, quoted
from ._ply.npuzzle import (
    HEURISTICS,
    PARTITIONS,
    Board,
    Instance,
    PatternDatabase,
    Solution,
    korf50_24,
    korf100,
    parse_instances,
    pdb_directory,
    solve,
    verify,
)

__all__ = [
    "HEURISTICS",
    "PARTITIONS",
    "Board",
    "Instance",
    "PatternDatabase",
    "Solution",
    "korf100",
    "korf50_24",
    "load",
    "load_instances",
    "parse_instances",
    "pdb_directory",
    "solve",
    "verify",
]


def load(path: PathLike) -> list[Instance]:
    """Reads an instance file (see ``parse_instances``): ``MissingFileError`` when it is not
    there, ``ParseError`` naming the file and its bad line."""
    return load_parsed(path, parse_instances)


def load_instances(path: PathLike) -> list[Instance]:
    """Deprecated name of ``load``."""
    deprecated("npuzzle.load_instances", "npuzzle.load")
    return load(path)


@extend(Board)
class _Board:
    @property
    def shape(self: Any) -> tuple[int, int]:
        """``(rows, cols)``, here ``(W, W)``: the shape every ``ply_games`` board gives."""
        width: int = self.width
        return (width, width)

    def moves(self: Any) -> str:
        """The directions the blank can move in, as a string of letters in ``U L R D`` order."""
        return "".join(letter for letter in "ULRD" if self.moved(letter) is not None)

    def __repr__(self: Any) -> str:
        return f"Board({list(self.tiles)})"


@extend(Instance)
class _Instance:
    @property
    def label(self: Any) -> str:
        """The identifier, or ``line N`` when the file had none."""
        label: str = self.id if self.id is not None else f"line {self.line}"
        return label

    def __repr__(self: Any) -> str:
        return (
            f"Instance(label={quoted(self.label)}, known_optimum={optional(self.known_optimum)}, "
            f"board={self.board!r})"
        )


@extend(Solution)
class _Solution:
    def __repr__(self: Any) -> str:
        if self.moves is None:
            return f"Solution(cost=None, stopped={quoted(self.stopped or '')}, lower_bound={self.lower_bound})"
        return (
            f"Solution(cost={len(self.moves)}, moves={quoted(self.moves)}, generated={self.generated}, "
            f"expanded={self.expanded}, seconds={self.seconds:.4f})"
        )


@extend(PatternDatabase)
class _PatternDatabase:
    def __repr__(self: Any) -> str:
        return f"PatternDatabase('{self.partition}')"
