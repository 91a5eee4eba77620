"""The Minesweeper bindings give the maps, openings and solver results of ``ply mines``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import Cli
from ply_games import mines


def test_maps_are_the_clis_files(ply: Cli, tmp_path: Path) -> None:
    for size, count, seed in [(16, None, 1), (64, 700, 7), (256, None, 3)]:
        cli_file = tmp_path / f"cli-{size}.map"
        args = ["mines", "gen", "--size", str(size), "--seed", str(seed), "-o", str(cli_file)]
        if count is not None:
            args += ["--mines", str(count)]
        ply.run(args)
        board = mines.generate(size, count, seed=seed)
        ours = tmp_path / f"py-{size}.map"
        board.save(ours)
        assert ours.read_bytes() == cli_file.read_bytes()
        loaded = mines.Map.load(cli_file)
        assert (loaded.n, loaded.mines) == (size, board.mines)
        info = ply.run(["mines", "info", str(cli_file)]).stdout
        largest, r, c = re.search(r"largest ([\d,]+) cells, from \((\d+), (\d+)\)", info).groups()  # type: ignore[union-attr]
        assert loaded.largest_opening() == (int(largest.replace(",", "")), (int(r), int(c)))


def test_the_solver_opens_what_it_opens_under_the_judge(ply: Cli, tmp_path: Path) -> None:
    path = tmp_path / "m.map"
    ply.run(["mines", "gen", "--size", "256", "--seed", "11", "-o", str(path)])
    board = mines.Map.load(path)
    stats = mines.solve(board, threads=1)
    judge = ["mines", "judge", f"{ply.path} mines solve --threads 1", str(path), "8"]
    done = ply.run([*judge, "--no-time-limit", "--json"])
    verdict = json.loads(done.stdout)
    assert (stats.safe, stats.mines) == (verdict["safe_opened"], verdict["mines_opened"])
    assert stats.score(256, board.mines) == pytest.approx(verdict["score"], abs=1e-9)


def test_games_click_like_the_contest() -> None:
    board = mines.Map(16, [(0, 0), (15, 15)])
    assert board.mines == 2 and board.is_mine(0, 0) and board.number(1, 1) == 1
    game = mines.Game(board)
    opened = game.click(8, 8)
    assert opened is not None and len(opened) == 16 * 16 - 2
    assert game.click(8, 8) == []
    assert game.click(0, 0) is None
    assert game.counts() == (254, 1)
    view = game.view()
    assert view[0, 0] == 9 and view[15, 15] == -1 and view[8, 8] == 0
    assert board.to_numpy().sum() == 2 and board.to_numpy()[15, 15]
    with pytest.raises(ValueError, match="outside the 16 x 16 board"):
        game.click(16, 0)


def test_bad_arguments_raise_the_clis_message(ply: Cli, tmp_path: Path) -> None:
    message = ply.error(["mines", "gen", "--size", "100", "--seed", "1", "-o", str(tmp_path / "x.map")])
    with pytest.raises(ValueError) as raised:
        mines.generate(100)
    assert message.endswith(str(raised.value))
    bad = tmp_path / "bad.map"
    bad.write_bytes(b"16 999\n" + bytes(32))
    message = ply.error(["mines", "info", str(bad)])
    with pytest.raises(ValueError) as raised:
        mines.Map.load(bad)
    assert str(raised.value) == message


# Loads a map, has a thread truncate its file while the solver plays it, then reads the map
# again: a mapped file would end the process with SIGBUS.
TRUNCATED = """
import os, sys, threading
from ply_games import mines
path = sys.argv[1]
board = mines.Map.load(path)
cut = threading.Timer(0.02, os.truncate, (path, 100))
cut.start()
stats = mines.solve(board)
cut.join()
print(os.path.getsize(path), stats.safe, int(board.to_numpy().sum()), board.largest_opening())
"""


def test_a_loaded_map_survives_its_file_being_truncated(tmp_path: Path) -> None:
    board = mines.generate(1024, seed=5)
    path = tmp_path / "m.map"
    board.save(path)
    done = subprocess.run(
        [sys.executable, "-c", TRUNCATED, str(path)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    expected = f"100 {mines.solve(board).safe} {board.mines} {board.largest_opening()}"
    assert done.stdout.strip() == expected
