"""Reading the files the ``load`` functions take, one way for every module: a missing file
raises ``MissingFileError`` and a bad one ``ParseError``, each naming the file."""

from __future__ import annotations

import os
import warnings
from typing import Callable, TypeVar, Union

from ._errors import MissingFileError, ParseError

T = TypeVar("T")

PathLike = Union[str, "os.PathLike[str]"]


def read_text(path: PathLike) -> str:
    """The file's text; ``MissingFileError`` when it is not there, ``ParseError`` when it is
    not UTF-8 text."""
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except FileNotFoundError as e:
        raise MissingFileError(e.errno, e.strerror, e.filename) from None
    except UnicodeDecodeError as e:
        raise ParseError(f"{os.fspath(path)}: not UTF-8 text ({e.reason})") from None


def load_parsed(path: PathLike, parse: Callable[[str], T]) -> T:
    """The file parsed by ``parse``; its ``ParseError`` names the file."""
    text = read_text(path)
    try:
        return parse(text)
    except ParseError as e:
        raise ParseError(f"{os.fspath(path)}: {e}") from None


def deprecated(old: str, new: str) -> None:
    """Warns that ``old`` is deprecated in favour of ``new`` (pointing at the caller's caller)."""
    warnings.warn(
        f"{old} is deprecated; use {new} (the old name goes in the next release)",
        DeprecationWarning,
        stacklevel=3,
    )
