"""Minesweeper: maps (the contest's file format), games in this process, and ply's solver.

>>> from ply_games import mines
>>> board = mines.generate(16, seed=7)
>>> game = mines.Game(board)
>>> stats = mines.solve(board)
>>> stats.safe + board.mines <= 16 * 16
True
"""

from ._ply.mines import (
    MAX_SIZE,
    MIN_SIZE,
    Game,
    Map,
    SolveStats,
    contest_score,
    generate,
    solve,
)

__all__ = [
    "MAX_SIZE",
    "MIN_SIZE",
    "Game",
    "Map",
    "SolveStats",
    "contest_score",
    "generate",
    "solve",
]
