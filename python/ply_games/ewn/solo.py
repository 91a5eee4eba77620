"""Single-player EWN with a fixed dice sequence: parse, solve, check and generate.

An instance is three lines: the goal piece (1-6), the cells of pieces 1-6 (``10 * row +
col``, the hole at 33) and 30 dice (1-6); the die selects the piece that moves (or its nearest
living neighbours in number), which steps to any of its 8 neighbours and removes whatever
stands there. The goal piece must reach cell 0 in the fewest moves.

>>> from ply_games.ewn import solo
>>> instance = solo.Instance.parse("2\\n62 26 66 42 32 36\\n665545154156655451541566554515\\n")
>>> solution = solo.solve(instance)
>>> (solution.cost, solution.proven)
(16, True)
>>> solo.verify(instance, solution.moves or [])
16
>>> solo.check(instance, solution.moves or []).message
'legal and optimal: 16 moves'
"""

from __future__ import annotations

from .._files import PathLike, load_parsed
from .._ply.ewn_solo import (
    DICE,
    Instance,
    Solution,
    State,
    Verdict,
    check,
    generate,
    parse_solution,
    solve,
    verify,
)

__all__ = [
    "DICE",
    "Instance",
    "Solution",
    "State",
    "Verdict",
    "check",
    "generate",
    "load",
    "parse_solution",
    "solve",
    "verify",
]


def load(path: PathLike) -> list[Instance]:
    """Reads an instance file, one instance or several separated by blank lines (what
    ``generate`` writes), as a list: ``MissingFileError`` when it is not there,
    ``ParseError`` naming the file and its bad line."""
    return load_parsed(path, Instance.parse_many)
