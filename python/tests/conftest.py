"""Shared fixtures: the ``ply`` command the bindings are compared with, and the bundled data.

The comparisons need the CLI: ``$PLY`` names it (``scripts/test.sh`` sets it), else the first
of ``target/{ci,release,debug}/ply`` (or ``$CARGO_TARGET_DIR/...``) found is used; without one
those tests are skipped with the reason.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"


def _find_ply() -> Optional[Path]:
    named = os.environ.get("PLY")
    if named:
        path = Path(named)
        if not path.is_file():
            raise RuntimeError(f"PLY={named} is not a file")
        return path
    targets = [ROOT / "target"]
    if os.environ.get("CARGO_TARGET_DIR"):
        targets.insert(0, Path(os.environ["CARGO_TARGET_DIR"]))
    for target in targets:
        for profile in ("ci", "release", "debug"):
            path = target / profile / "ply"
            if path.is_file():
                return path
    return None


PLY = _find_ply()


class Cli:
    """Runs the ``ply`` command."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def run(
        self,
        args: Sequence[str],
        *,
        check: bool = True,
        cwd: Optional[Path] = None,
        env: Optional[dict[str, str]] = None,
        timeout: float = 600,
    ) -> subprocess.CompletedProcess[str]:
        """Runs ``ply ARGS``; with ``check``, a non-zero exit fails the test with stderr."""
        done = subprocess.run(
            [str(self.path), *args],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
        if check and done.returncode != 0:
            pytest.fail(f"ply {' '.join(args)} exited {done.returncode}: {done.stderr}")
        return done

    def error(self, args: Sequence[str]) -> str:
        """The message of a failing ``ply ARGS``: its stderr after ``ply: error: ``."""
        done = self.run(args, check=False)
        assert done.returncode != 0, f"ply {' '.join(args)} succeeded"
        line = done.stderr.strip().splitlines()[-1]
        assert line.startswith("ply: error: "), line
        return line.removeprefix("ply: error: ")


@pytest.fixture(scope="session")
def ply() -> Cli:
    """The ``ply`` command (the test is skipped without one)."""
    if PLY is None:
        pytest.skip("no ply binary: set PLY or run `cargo build --profile ci` first")
    return Cli(PLY)


@pytest.fixture(scope="session")
def data() -> Path:
    """The repository's bundled data directory."""
    return DATA
