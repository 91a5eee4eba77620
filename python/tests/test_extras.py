"""Each environment module says which extra of ply-games installs the library it misses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# (module, a library it imports, the extra that installs it)
NEEDS = [
    ("ply_games.envs.puzzles", "gymnasium", "gymnasium"),
    ("ply_games.envs.ewn_duel_v0", "pettingzoo", "pettingzoo"),
    ("ply_games.envs.ewn_duel_v0", "gymnasium", "pettingzoo"),
    ("ply_games.envs.openspiel", "pyspiel", "openspiel"),
]

# A fresh interpreter in which the library cannot be imported (None in sys.modules), whether
# it is installed or not.
SCRIPT = """
import sys
sys.modules[{library!r}] = None
import ply_games.envs
try:
    import {module}
except ModuleNotFoundError as e:
    print(e.name)
    print(e)
"""


@pytest.mark.parametrize(("module", "library", "extra"), NEEDS)
def test_a_missing_library_names_the_extra_that_installs_it(module: str, library: str, extra: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(module=module, library=library)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        library,
        f"{module} needs {library}, which is not installed: install ply-games with its {extra} "
        f'extra, pip install "ply-games[{extra}]" (from a clone of ply: pip install ".[{extra}]")',
    ]


def test_the_extras_are_the_packages() -> None:
    # The extras the messages name are those pyproject.toml defines.
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    for _, _, extra in NEEDS:
        assert f"\n{extra} = [" in pyproject, extra
