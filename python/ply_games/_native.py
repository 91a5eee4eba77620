"""The pure-Python part of the native classes: what is computed from a class's other
attributes (reprs, OpenSpiel's constants, derived values, deprecated names) is written here
once, in Python, and added to the class of ``ply_games._ply`` itself, so that instances,
pickles and ``isinstance`` stay those of the one native class."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from . import _ply
from ._files import deprecated

T = TypeVar("T")

# The attributes of the native classes renamed before the first release: (submodule of
# ``_ply``, class, old name, new name). Each old name stays one release, a property that reads
# the new one with a ``DeprecationWarning``.
RENAMED = [
    ("npuzzle", "Instance", "optimal", "known_optimum"),
    ("npuzzle", "Solution", "length", "cost"),
    ("npuzzle", "Solution", "optimal", "proven"),
    ("npuzzle", "Solution", "initial_estimate", "initial_bound"),
    ("ewn_solo", "Solution", "length", "cost"),
    ("ewn_solo", "Solution", "optimal", "proven"),
    ("sokoboru", "Solution", "penalty", "cost"),
    ("sokoboru", "Game", "penalty", "cost"),
]

# What a class body holds besides its methods.
_BOOKKEEPING = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__annotations__"}


def extend(native: type) -> Callable[[type[T]], type[T]]:
    """Class decorator: adds the methods and properties the decorated class defines to the
    native class ``native``, named as its own (``help`` shows them as the class's)."""

    def add(body: type[T]) -> type[T]:
        for name, value in vars(body).items():
            if name in _BOOKKEEPING:
                continue
            function = value.fget if isinstance(value, property) else value
            if function is not None:
                function.__qualname__ = f"{native.__name__}.{name}"
            setattr(native, name, value)
        return body

    return add


def quoted(text: str) -> str:
    """``text`` in double quotes with Rust's escapes (``{:?}``), as the reprs have always
    written strings."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    for char, escape in (("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t"), ("\0", "\\0")):
        escaped = escaped.replace(char, escape)
    return f'"{escaped}"'


def optional(value: object) -> str:
    """``None`` or the value, as a repr writes an optional number."""
    return "None" if value is None else str(value)


def renamed(cls: str, old: str, new: str) -> property:
    """The property ``old`` of class ``cls``, renamed ``new``: ``new``'s value, read with a
    ``DeprecationWarning`` pointing at the reader."""

    def read(self: Any) -> Any:
        deprecated(f"{cls}.{old}", f"{cls}.{new}")
        return getattr(self, new)

    return property(read, doc=f"Deprecated name of `{new}`.")


for _module, _class, _old, _new in RENAMED:
    setattr(getattr(getattr(_ply, _module), _class), _old, renamed(_class, _old, _new))
