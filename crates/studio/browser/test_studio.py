"""ply studio in headless Chromium: every page loads cleanly, a game is played by clicks, a
pasted board's probabilities are the library's, a solution animates, a long solve is
cancelled with no job left. Screenshots go to target/studio-screenshots/."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from conftest import ROOT, ply_path, screenshot, wait_until

PAGES = ["/", "/mines", "/npuzzle", "/sokoboru", "/ewn"]


def open_page(page: Any, studio: str, path: str) -> None:
    parts = urlsplit(studio)
    page.goto(f"{parts.scheme}://{parts.netloc}{path}?{parts.query}")
    page.wait_for_selector("body[data-ready=true]", timeout=60_000)


def token(studio: str) -> str:
    return urlsplit(studio).query.split("=", 1)[1]


def running_jobs(page: Any, studio: str) -> list[Any]:
    parts = urlsplit(studio)
    response = page.request.get(f"{parts.scheme}://{parts.netloc}/api/jobs", headers={"x-ply-token": token(studio)})
    assert response.ok, response.text()
    jobs: list[Any] = response.json()["jobs"]
    return jobs


@pytest.mark.parametrize("path", PAGES)
def test_each_page_loads_without_console_errors(page: Any, studio: str, path: str) -> None:
    open_page(page, studio, path)
    page.wait_for_load_state("networkidle")
    assert page.errors == []
    assert page.locator("#error").is_hidden()
    screenshot(page, "home" if path == "/" else path.strip("/"))


def test_a_beginner_game_is_played_by_clicks_to_its_end(page: Any, studio: str) -> None:
    open_page(page, studio, "/mines")
    page.check("#m-odds")
    page.wait_for_selector("#m-board .pick")
    for _ in range(81):
        if page.get_attribute("#m-board", "data-status") != "playing":
            break
        clicks = int(page.get_attribute("#m-board", "data-clicks"))
        page.click("#m-board .pick")
        page.wait_for_selector(f"#m-board[data-clicks='{clicks + 1}']")
    status = page.get_attribute("#m-board", "data-status")
    assert status in ("won", "lost"), status
    assert page.errors == []
    screenshot(page, f"mines-beginner-{status}")


def test_a_pasted_board_has_the_librarys_probabilities(page: Any, studio: str) -> None:
    mines = pytest.importorskip("ply_games.mines", reason="ply_games (the wheel) is not installed")
    board = ["##1.1####", "##1.1####", "##211####", "#########", "#########", "#########", "1########", "#########", "#########"]
    open_page(page, studio, "/mines")
    page.fill("#a-text", "mines 10\n" + "\n".join(board) + "\n")
    with page.expect_response("**/api/mines/analyse"):
        page.click("#a-run")
    page.wait_for_selector("#a-board .pick")
    shown = page.eval_on_selector_all("#a-board .c", "cells => cells.map(c => c.dataset.p ?? null)")
    view = [[9 if ch == "#" else 0 if ch == "." else int(ch) for ch in row] for row in board]
    expected = mines.probabilities(view, 10).ravel().tolist()
    for cell, (p, q) in enumerate(zip(shown, expected)):
        if board[cell // 9][cell % 9] == "#":
            assert p is not None and float(p) == q, (cell, p, q)
    assert page.errors == []
    screenshot(page, "mines-analysis")


def test_a_15_puzzle_solution_animates_to_the_goal(page: Any, studio: str) -> None:
    open_page(page, studio, "/npuzzle")
    page.fill("#n-tiles", "4 1 2 3 5 6 10 7 8 0 9 11 12 13 14 15")
    page.click("#n-solve")
    page.wait_for_selector("#n-board[data-goal=true]", timeout=120_000)
    assert page.get_attribute("#n-board", "data-tiles") == " ".join(str(t) for t in range(16))
    assert page.locator("#n-iterations tbody tr").count() >= 1
    assert "optimal" in page.inner_text("#n-status")
    assert page.errors == []
    screenshot(page, "npuzzle-solved")


def test_a_long_sokoboru_solve_is_cancelled_and_no_job_is_left(page: Any, studio: str) -> None:
    open_page(page, studio, "/sokoboru")
    hard = ROOT / "data" / "sokoboru" / "hard" / "7x7-12.in"
    with page.expect_response("**/api/sokoboru/play"):
        page.set_input_files("#s-file", str(hard))
    page.click("#s-solve")
    wait_until(lambda: page.inner_text("#s-solve-status").startswith("solving:"), "the solve's first progress")
    assert len(running_jobs(page, studio)) == 1
    page.click("#s-cancel")
    page.wait_for_selector("#s-solve:enabled", timeout=60_000)
    wait_until(lambda: running_jobs(page, studio) == [], "the cancelled solve's job to end")
    assert "cancelled" in page.inner_text("#s-solve-status")
    assert page.errors == []
    screenshot(page, "sokoboru-cancelled")


def test_a_tournament_log_replays_game_by_game(page: Any, studio: str, tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    agents = ["a=ply ewn agent random", "b=ply ewn agent random", "c=ply ewn agent alphabeta --depth 1"]
    subprocess.run(
        [str(ply_path()), "ewn", "tournament", *agents, "--openings", "1", "--seed", "3", "--log", str(log)],
        check=True, capture_output=True, timeout=300,
    )
    games = len(log.read_text().splitlines()) - 1
    open_page(page, studio, "/ewn")
    page.set_input_files("#e-log-file", str(log))
    page.wait_for_selector("#e-standings[data-games='0']")
    page.click("#e-log-play")
    page.wait_for_selector(f"#e-standings[data-games='{games}']", timeout=120_000)
    assert page.locator("#e-standings tbody tr").count() == 3
    assert page.locator("#e-elo circle").count() == 3
    assert page.errors == []
    screenshot(page, "ewn-tournament")


def test_an_openings_log_is_browsed(page: Any, studio: str, tmp_path: Path) -> None:
    proved = subprocess.run(
        [str(ply_path()), "ewn", "openings", "prove", "--dice", "343242404031241152042", "--sample", "2", "--budget", "1"],
        check=True, capture_output=True, text=True, timeout=300,
    )
    log = tmp_path / "o.jsonl"
    log.write_text(proved.stdout)
    open_page(page, studio, "/ewn")
    page.set_input_files("#e-open-file", str(log))
    page.wait_for_selector("#e-open-board[data-board]")
    assert page.locator("#e-open-start option").count() == 2
    assert page.inner_text("#e-open-status").startswith("start ")
    assert page.errors == []


def test_a_certified_openings_log_larger_than_a_request_is_browsed(page: Any, studio: str, tmp_path: Path) -> None:
    # The page leaves the certificates out (it shows none), so a log of `prove --certify`
    # larger than the server's request limit (4 MiB) still opens; the certificates here are
    # stand-ins of that size, as the page never reads them.
    proved = subprocess.run(
        [str(ply_path()), "ewn", "openings", "prove", "--dice", "343242404031241152042", "--sample", "2", "--budget", "1"],
        check=True, capture_output=True, text=True, timeout=300,
    )
    records = [json.loads(line) for line in proved.stdout.splitlines() if line.strip()]
    for record in records:
        record["certificate"] = "A" * (3 << 20)
    log = tmp_path / "certified.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in records))
    assert log.stat().st_size > 4 << 20
    open_page(page, studio, "/ewn")
    page.set_input_files("#e-open-file", str(log))
    page.wait_for_selector("#e-open-board[data-board]")
    assert page.locator("#e-open-start option").count() == 2
    assert page.errors == []
