"""Every ``>>>`` example in the package's docstrings runs, and says what it shows."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ply_games",
    "ply_games._errors",
    "ply_games.npuzzle",
    "ply_games.ewn.solo",
    "ply_games.ewn.duel",
    "ply_games.sokoboru",
    "ply_games.mines",
]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_each_module_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed (see above)"


def test_the_environment_example_runs() -> None:
    pytest.importorskip("pettingzoo")
    module = importlib.import_module("ply_games.envs.ewn_duel_v0")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted > 0 and result.failed == 0
