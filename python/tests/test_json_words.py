"""``ply ... solve --json`` and the Python solutions speak the same words for the same things:
both convert ply-search's one report, so on the same instances every word has the same value
(the seconds apart, which are each run's own)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import DATA, Cli
from ply_games import npuzzle, sokoboru
from ply_games.ewn import solo

# The words every solution has; ``seconds`` is compared for presence only.
WORDS = ("cost", "moves", "proven", "lower_bound", "generated", "expanded", "stopped")


def records(ply: Cli, *args: str, check: bool = True) -> list[dict[str, Any]]:
    """The JSON records ``ply ARGS`` prints, one a line."""
    out = ply.run(list(args), check=check).stdout
    return [json.loads(line) for line in out.splitlines()]


def same_words(cli: dict[str, Any], py: Any, extra: tuple[str, ...] = ()) -> None:
    for word in WORDS + extra:
        value = getattr(py, word)
        if word == "moves" and isinstance(value, list):
            value = [list(pair) for pair in value]
        assert cli[word] == value, f"{word}: cli {cli[word]!r}, python {value!r}"
    assert isinstance(cli["seconds"], float) and cli["seconds"] >= 0


def test_npuzzle_solve_json_is_the_python_solution(ply: Cli, tmp_path: Path) -> None:
    boards = ["1 2 0 3 4 5 6 7 8", "8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"]
    path = tmp_path / "boards.txt"
    path.write_text("\n".join(boards) + "\n")
    for heuristic in ("manhattan", "linear-conflict"):
        lines = records(ply, "npuzzle", "solve", "--json", "--heuristic", heuristic, str(path))
        assert [line["line"] for line in lines] == [1, 2, 3]
        for line, board in zip(lines, boards):
            py = npuzzle.solve(board, heuristic)
            same_words(line, py, ("initial_bound", "thresholds", "heuristic"))
    # A budget that runs out reads the same too.
    (korf,) = npuzzle.korf100()[:1]
    path.write_text(" ".join(map(str, korf.board.tiles)) + "\n")
    args = ("npuzzle", "solve", "--json", "--heuristic", "manhattan", "--max-nodes", "1000")
    (line,) = records(ply, *args, str(path), check=False)
    stopped = npuzzle.solve(korf.board, "manhattan", max_nodes=1000)
    same_words(line, stopped, ("initial_bound", "thresholds"))
    assert line["stopped"] == "node limit reached" and not line["proven"]


def test_solo_solve_json_is_the_python_solution(ply: Cli) -> None:
    for name in ("sample.in", "tcg2024-public/2.2", "tcg2024-public/3.1"):
        path = DATA / "ewn-solo" / name
        (line,) = records(ply, "ewn", "solo", "solve", "--json", str(path))
        py = solo.solve(solo.Instance.parse(path.read_text()))
        same_words(line, py, ("initial_bound", "unsolvable", "thresholds", "relaxed_generated"))


def test_sokoboru_solve_json_is_the_python_solution(ply: Cli) -> None:
    path = DATA / "sokoboru" / "tiny.in"
    # One thread and no deadline: the searches, and so the counts, are the same every run.
    lines = records(ply, "sokoboru", "solve", "--json", "--threads", "1", "--deadline", "none", str(path))
    answers = sokoboru.solve_all(sokoboru.load(path), threads=1, deadline=None)
    assert [line["case"] for line in lines] == list(range(1, len(answers) + 1))
    for line, py in zip(lines, answers):
        same_words(line, py, ("unsolvable",))
