"""The exceptions ply_games raises on purpose, one family under ``ply_games.Error``.

Each subclasses the built-in exception code written before the family caught, so that
``except ValueError`` (bad input) and ``except FileNotFoundError`` (a missing file) keep
working::

    Error
    ├── InputError (ValueError)            bad input: an argument's value, a text
    │   ├── ParseError                     a text that is no board, instance, puzzle, map...
    │   ├── IllegalMoveError               a move the rules forbid
    │   └── RejectedError                  verify: moves that do not solve the problem as claimed
    ├── DatabaseError (ValueError)         a pattern database file that cannot be used
    ├── MissingFileError (FileNotFoundError, ValueError)  a file that is not there
    └── InternalError (RuntimeError)       an answer that failed its check: a bug in ply

Wrong types still raise ``TypeError``, and Ctrl-C ``KeyboardInterrupt``.

>>> import ply_games
>>> from ply_games import npuzzle
>>> try:
...     npuzzle.Board("1 2 3")
... except ply_games.ParseError as e:
...     print(type(e).__name__, isinstance(e, ValueError))
ParseError True
"""

from __future__ import annotations

__all__ = [
    "DatabaseError",
    "Error",
    "IllegalMoveError",
    "InputError",
    "InternalError",
    "MissingFileError",
    "ParseError",
    "RejectedError",
]


class Error(Exception):
    """The base of every exception ply_games raises on purpose."""

    __module__ = "ply_games"


class InputError(Error, ValueError):
    """Bad input: an argument's value out of range, or a text that cannot be read."""

    __module__ = "ply_games"


class ParseError(InputError):
    """A text (a board, an instance, a puzzle, a map, a solution, dice) that cannot be read;
    the message names the line or the token."""

    __module__ = "ply_games"


class IllegalMoveError(InputError):
    """A move the rules forbid in the position it is played in; the message says why."""

    __module__ = "ply_games"


class RejectedError(InputError):
    """Moves ``verify`` rejects: an illegal move, a problem left unsolved, or another cost
    than the one claimed."""

    __module__ = "ply_games"


class DatabaseError(Error, ValueError):
    """A pattern database file that is there but cannot be used (damaged, of another
    partition, unreadable)."""

    __module__ = "ply_games"


class MissingFileError(Error, FileNotFoundError, ValueError):
    """A file that is not there: an instance, puzzle or map file, or a pattern database."""

    __module__ = "ply_games"


class InternalError(Error, RuntimeError):
    """An answer that failed the check every answer passes before anyone sees it: a bug in
    ply, worth a report."""

    __module__ = "ply_games"
