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

from typing import Any, Optional

from .._files import PathLike, load_parsed
from .._native import extend, quoted
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


@extend(Instance)
class _Instance:
    def __repr__(self: Any) -> str:
        return f"Instance.parse({quoted(str(self))})"


@extend(Solution)
class _Solution:
    @property
    def lower_bound(self: Any) -> int:
        """A proven lower bound on the optimal cost: the last bound IDA* finished (the cost
        itself when solved)."""
        bounds: list[int] = self.thresholds
        return bounds[-1] if bounds else self.initial_bound

    @property
    def text(self: Any) -> Optional[str]:
        """The course's output (``ply ewn solo solve``): the seconds, the move count and the
        moves as from/to pairs on one line; ``None`` without a solution."""
        if self.moves is None:
            return None
        pairs = " ".join(f"{source} {target}" for source, target in self.moves)
        return f"{self.seconds:.6f}\n{len(self.moves)}\n{pairs}\n"

    def __repr__(self: Any) -> str:
        if self.moves is not None:
            return f"Solution(cost={len(self.moves)}, moves={self.moves}, seconds={self.seconds:.4f})"
        if self.stopped is not None:
            return f"Solution(cost=None, stopped={quoted(self.stopped)})"
        return "Solution(cost=None, unsolvable=True)"


@extend(Verdict)
class _Verdict:
    def __str__(self: Any) -> str:
        message: str = self.message
        return message

    def __repr__(self: Any) -> str:
        return f"Verdict({quoted(self.message)})"

    def __bool__(self: Any) -> bool:
        legal: bool = self.legal
        return legal


@extend(State)
class _State:
    @property
    def moves_played(self: Any) -> int:
        """Moves played so far."""
        return len(self.moves)

    @property
    def die(self: Any) -> Optional[int]:
        """The die of the next move (1-6), or ``None`` after the 30th move."""
        dice: tuple[int, ...] = self.instance.dice
        played = len(self.moves)
        return dice[played] if played < len(dice) else None

    def clone(self: Any) -> Any:
        """An independent copy."""
        return self.__copy__()

    def __repr__(self: Any) -> str:
        return f"State.from_moves({self.instance!r}, {self.moves})"
