"""Sliding-tile puzzles (the 8-, 15- and 24-puzzle), solved optimally.

Boards follow Korf's convention: tiles ``0 1 2 ... W*W-1`` row-major with the blank (0)
top-left as the goal. Moves are the blank's directions as letters ``U L R D``.

>>> from ply_games import npuzzle
>>> solution = npuzzle.solve("1 2 0 3 4 5 6 7 8", heuristic="manhattan")
>>> solution.moves
'LL'

``solve`` runs ply's IDA* with Manhattan distance, linear conflict or additive pattern
databases (``PatternDatabase``: 5-5-5, 6-6-3 and 7-8 for the 15-puzzle, 6-6-6-6 for the
24-puzzle), on one thread or several, and answers as ``ply npuzzle solve`` does.
"""

from __future__ import annotations

import os
from typing import Union

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
    "load_instances",
    "parse_instances",
    "pdb_directory",
    "solve",
]


def load_instances(path: Union[str, os.PathLike[str]]) -> list[Instance]:
    """Reads an instance file (see ``parse_instances``); ``ValueError`` names its bad line."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    try:
        return parse_instances(text)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from None
