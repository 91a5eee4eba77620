"""ply from Python: optimal puzzle solvers, game agents and referees.

One module per system, each binding ply's Rust libraries (no game logic lives in Python):

- ``ply_games.npuzzle``: sliding-tile puzzles, IDA* with pattern databases;
- ``ply_games.ewn.solo``: single-player EWN with a known dice sequence;
- ``ply_games.ewn.duel``: the two-player 6 x 7 EWN duel in OpenSpiel's vocabulary, its
  agents and its referee;
- ``ply_games.sokoboru``: Sokoban with sliding balls, solved to the optimal penalty;
- ``ply_games.mines``: Minesweeper maps, games and the solver.

``ply_games.envs`` (optional: Gymnasium, PettingZoo, OpenSpiel) wraps them as environments.
Long searches release the GIL and stop on Ctrl-C (``KeyboardInterrupt``); bad arguments raise
``ValueError`` or ``TypeError`` with the message the ``ply`` command prints.
"""

from . import ewn, mines, npuzzle, sokoboru
from ._ply import __version__

__all__ = ["__version__", "ewn", "mines", "npuzzle", "sokoboru"]
