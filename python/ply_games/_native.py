"""The pure-Python part of the native classes: what is computed from a class's other
attributes (reprs, OpenSpiel's constants, derived values) is written here once, in Python,
and added to the class of ``ply_games._ply`` itself, so that instances, pickles and
``isinstance`` stay those of the one native class."""

from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")

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
