"""Single-player EWN with a fixed dice sequence: parse, solve, check and generate.

An instance is three lines: the goal piece (1-6), the cells of pieces 1-6 (``10 * row +
col``, the hole at 33) and 30 dice (1-6); the die selects the piece that moves (or its nearest
living neighbours in number), which steps to any of its 8 neighbours and removes whatever
stands there. The goal piece must reach cell 0 in the fewest moves.

>>> from ply_games.ewn import solo
>>> instance = solo.Instance.parse("2\\n62 26 66 42 32 36\\n665545154156655451541566554515\\n")
>>> solution = solo.solve(instance)
>>> solo.check(instance, solution.moves or []).message
'legal and optimal: 9 moves'
"""

from __future__ import annotations

import os
from typing import Union

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
]


def load(path: Union[str, os.PathLike[str]]) -> Instance:
    """Reads an instance file; ``ValueError`` names the file and its bad line."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    try:
        return Instance.parse(text)
    except ValueError as e:
        raise ValueError(f"{os.fspath(path)}: {e}") from None
