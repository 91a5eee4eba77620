"""EWN ("Einstein wuerfelt nicht!") in the two variants ply plays.

- ``ply_games.ewn.solo``: the single-player puzzle on a 10 x 10 board with 30 known dice,
  solved to the fewest moves;
- ``ply_games.ewn.duel``: the two-player game on a 6 x 7 board with a known dice line.
"""

from . import duel, solo

__all__ = ["duel", "solo"]
