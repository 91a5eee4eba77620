"""Minesweeper: maps (the contest's file format), games in this process, and ply's solver;
and classic Minesweeper (the three levels or any board, both first-click rules), with exact
mine probabilities, ply's classic player and its seeded win rate.

>>> from ply_games import mines
>>> board = mines.generate(16, seed=7)
>>> board.shape
(16, 16)
>>> game = mines.Game(board)
>>> stats = mines.solve(board)
>>> stats.safe + board.mines <= 16 * 16, stats.stopped
(True, None)
>>> mines.solve(board, max_nodes=1).stopped
'node limit reached'
>>> classic = mines.ClassicGame("beginner", rule="zero", seed=3)
>>> opened = classic.click(4, 4)  # the first click opens a zero and its region
>>> classic.view().shape  # 0-8 open, 9 (HIDDEN) hidden, 10 (EXPLODED) the mine opened
(9, 9)
>>> odds = classic.probabilities()  # each cell's exact chance to be a mine
>>> record = mines.play("beginner", seed=1, game=0)  # ply's classic player, one game
>>> tally = mines.win_rate("beginner", games=100, seed=1)  # games 0-99 of seed 1
>>> tally.games
100
"""

from __future__ import annotations

from typing import Any

from ._files import PathLike
from ._native import extend
from ._ply.mines import (
    EXPLODED,
    HIDDEN,
    LEVELS,
    MAX_SIDE,
    MAX_SIZE,
    MIN_SIZE,
    ClassicGame,
    ClassicRecord,
    ClassicTally,
    Game,
    Map,
    SolveStats,
    contest_score,
    game_seed,
    generate,
    play,
    probabilities,
    solve,
    win_rate,
)

__all__ = [
    "EXPLODED",
    "HIDDEN",
    "LEVELS",
    "MAX_SIDE",
    "MAX_SIZE",
    "MIN_SIZE",
    "ClassicGame",
    "ClassicRecord",
    "ClassicTally",
    "Game",
    "Map",
    "SolveStats",
    "contest_score",
    "game_seed",
    "generate",
    "load",
    "play",
    "probabilities",
    "solve",
    "win_rate",
]


def load(path: PathLike) -> list[Map]:
    """Reads a map file (one map) as a list, the shape of every module's ``load``:
    ``MissingFileError`` when it is not there, ``ParseError`` for a bad header or length.
    ``Map.load`` gives the map itself."""
    return [Map.load(path)]


@extend(Map)
class _Map:
    @property
    def shape(self: Any) -> tuple[int, int]:
        """``(rows, cols)``, here ``(N, N)``: the shape every ``ply_games`` board gives."""
        n: int = self.n
        return (n, n)

    def __repr__(self: Any) -> str:
        return f"Map(n={self.n}, mines={self.mines})"


@extend(Game)
class _Game:
    @property
    def n(self: Any) -> int:
        """The board side N."""
        n: int = self.map.n
        return n


@extend(SolveStats)
class _SolveStats:
    def score(self: Any, n: int, k: int, a: int = 8) -> float:
        """The contest's score in [0, 100] with the constant ``a`` (0 or 8 in the contest)."""
        return contest_score(n, k, self.safe, self.mines, a)

    def __repr__(self: Any) -> str:
        return (
            f"SolveStats(safe={self.safe}, mines={self.mines}, guesses={self.guesses}, "
            f"seconds={self.seconds:.3f})"
        )


# A classic view's cells as ``str(ClassicGame)`` writes them.
_CELLS = {HIDDEN: "#", EXPLODED: "*", 0: "."}


@extend(ClassicGame)
class _ClassicGame:
    def clone(self: Any) -> Any:
        """An independent copy."""
        return self.__copy__()

    def __str__(self: Any) -> str:
        rows = ("".join(_CELLS.get(cell, str(cell)) for cell in row.tolist()) for row in self.view())
        return "".join(f"{row}\n" for row in rows)

    def __repr__(self: Any) -> str:
        if self.level is not None:
            board = f"'{self.level}'"
        else:
            board = f"width={self.width}, height={self.height}, mines={self.mines}"
        return (
            f"ClassicGame({board}, rule='{self.rule}', start={self.start}, seed={self.seed}) "
            f"({self.status}, {self.opened} opened)"
        )


@extend(ClassicRecord)
class _ClassicRecord:
    def __repr__(self: Any) -> str:
        return (
            f"ClassicRecord(seed={self.seed}, game={self.game}, won={self.won}, opened={self.opened}, "
            f"clicks={self.clicks}, guesses={self.guesses})"
        )


@extend(ClassicTally)
class _ClassicTally:
    def __repr__(self: Any) -> str:
        return (
            f"ClassicTally(games={self.games}, wins={self.wins}, guesses={self.guesses}, "
            f"seconds={self.seconds:.3f})"
        )
