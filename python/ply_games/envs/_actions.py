"""Actions as every environment takes them: ints only (a Python int, a NumPy integer or a 0-d
integer array), within the space; anything else is a ``ValueError`` naming the action and the
space, the same in every environment."""

from __future__ import annotations

from typing import Optional

import numpy as np

# The most characters of an action that a message shows.
_SHOWN = 40


def _shown(action: object) -> str:
    """An action as a message shows it: one line, control characters escaped, at most
    ``_SHOWN`` characters of it (then ``...``)."""
    if isinstance(action, str):
        return repr(action[:_SHOWN]) + ("..." if len(action) > _SHOWN else "")
    text = " ".join(repr(action).split())
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def action_index(action: object, n: int, space: str) -> int:
    """``action`` as an int in ``0..n-1``, or ``ValueError("action -1 is not in SPACE")``.

    A bool is refused although Python counts it as an int: ``True`` as an action is a bug.
    """
    value: Optional[int] = None
    if isinstance(action, (bool, np.bool_)):
        value = None
    elif isinstance(action, (int, np.integer)):
        value = int(action)
    elif (
        isinstance(action, np.ndarray)
        and action.shape == ()
        and np.issubdtype(action.dtype, np.integer)
    ):
        value = int(action)
    if value is None:
        raise ValueError(f"action {_shown(action)} is not in {space}")
    if not 0 <= value < n:
        raise ValueError(f"action {_shown(value)} is not in {space}")
    return value
