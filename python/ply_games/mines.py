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

from ._files import PathLike
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
