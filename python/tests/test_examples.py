"""Every example under python/examples runs to its end, on the API's current names (a
deprecated one would stop it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs(path: Path) -> None:
    if path.stem.startswith("openspiel"):
        pytest.importorskip("pyspiel")
    if path.stem.startswith(("gymnasium", "pettingzoo")):
        pytest.importorskip(path.stem.split("_")[0])
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning:__main__", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
