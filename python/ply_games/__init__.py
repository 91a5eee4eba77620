"""ply from Python: optimal puzzle solvers, game agents and referees.

One module per system, each binding ply's Rust libraries (no game logic lives in Python):

- ``ply_games.npuzzle``: sliding-tile puzzles, IDA* with pattern databases;
- ``ply_games.ewn.solo``: single-player EWN with a known dice sequence;
- ``ply_games.ewn.duel``: the two-player 6 x 7 EWN duel in OpenSpiel's vocabulary, its
  agents and its referee;
- ``ply_games.sokoboru``: Sokoban with sliding balls, solved to the optimal penalty;
- ``ply_games.mines``: Minesweeper maps, games and the solver.

``ply_games.envs`` (optional: Gymnasium, PettingZoo, OpenSpiel) wraps them as environments.

Every module speaks the same words. ``load(path)`` reads a file into a list of problems;
``solve(problem, *, threads=1, time_limit=None, max_nodes=None)`` answers with a record whose
``seconds`` and ``stopped`` (which budget ran out) mean the same thing everywhere. The
solvers of ``npuzzle``, ``ewn.solo`` and ``sokoboru`` return a ``Solution`` whose ``cost``,
``moves``, ``proven``, ``lower_bound`` and ``generated``/``expanded`` (the work done) do too;
``mines.solve`` plays a map as far as it can and returns ``SolveStats`` instead (the
``safe`` cells and ``mines`` opened, ``clicks``, ``guesses``), since a game of Minesweeper
has no cost to prove. ``verify(problem, moves, cost=None)`` (the three solvers' modules)
returns the cost of moves that solve the problem, or raises ``RejectedError`` saying why
not. A board's ``shape`` is ``(rows, cols)``.

Long searches release the GIL and stop on Ctrl-C (``KeyboardInterrupt``). Every error ply
raises on purpose is a ``ply_games.Error``: bad input an ``InputError`` (a ``ValueError``), a
missing file a ``MissingFileError`` (a ``FileNotFoundError``), with the message the ``ply``
command prints; wrong types raise ``TypeError``.

>>> import ply_games
>>> from ply_games import npuzzle
>>> npuzzle.solve("1 2 0 3 4 5 6 7 8").cost
2
>>> issubclass(ply_games.InputError, ValueError)
True
"""

from ._errors import (
    DatabaseError,
    Error,
    IllegalMoveError,
    InputError,
    InternalError,
    MissingFileError,
    ParseError,
    RejectedError,
)
from . import ewn, mines, npuzzle, sokoboru
from ._ply import __version__

__all__ = [
    "DatabaseError",
    "Error",
    "IllegalMoveError",
    "InputError",
    "InternalError",
    "MissingFileError",
    "ParseError",
    "RejectedError",
    "__version__",
    "ewn",
    "mines",
    "npuzzle",
    "sokoboru",
]
