"""An argument means one thing everywhere: ``threads`` that would do nothing is refused, and
the deprecated names and the exception classes come from one table and one lookup."""

from __future__ import annotations

import pytest

import ply_games
from ply_games import npuzzle
from ply_games.ewn import solo

SOLO = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n"


def test_threads_the_solver_cannot_use_are_refused() -> None:
    instance = solo.Instance.parse(SOLO)
    assert solo.solve(instance, threads=1).cost == 16
    with pytest.raises(ply_games.InputError, match=r"^threads 2: the EWN solo solver runs on one thread"):
        solo.solve(instance, threads=2)


def test_a_deprecated_name_is_a_documented_property_of_its_class() -> None:
    alias = npuzzle.Solution.__dict__["length"]
    assert isinstance(alias, property) and alias.__doc__ == "Deprecated name of `cost`."
    with pytest.warns(DeprecationWarning, match=r"^Solution.length is deprecated; use Solution.cost"):
        assert npuzzle.solve("1 2 0 3 4 5 6 7 8").length == 2
