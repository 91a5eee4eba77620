"""The Sokoboru bindings give the penalties, verdicts and messages of ``ply sokoboru``."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import DATA, Cli
from ply_games import sokoboru


def cli_answers(ply: Cli, path: Path) -> list[tuple[int, str]]:
    lines = ply.run(["sokoboru", "solve", "--deadline", "none", str(path)]).stdout.split("\n")
    return [(int(lines[i]), lines[i + 1]) for i in range(0, len(lines) - 1, 2)]


@pytest.mark.parametrize("name", ["tiny.in", "small.in", "large.in"])
def test_optimal_penalties_are_the_clis(ply: Cli, tmp_path: Path, name: str) -> None:
    path = DATA / "sokoboru" / name
    puzzles = sokoboru.load(path)
    solutions = sokoboru.solve_all(puzzles, deadline=None)
    cli = cli_answers(ply, path)
    assert [s.cost for s in solutions] == [penalty for penalty, _ in cli]
    assert all(s.proven and s.moves is not None for s in solutions)
    # Each side's answers pass the other side's verifier.
    text = "".join(s.text for s in solutions)
    out = tmp_path / "python.out"
    out.write_text(text)
    ply.run(["sokoboru", "verify", "-i", str(path), "-o", str(out)])
    cli_text = "".join(f"{p}\n{m}\n" for p, m in cli)
    assert sokoboru.verify_solutions(puzzles, cli_text) == [p for p, _ in cli]
    if name == "large.in":
        optima = (DATA / "sokoboru" / "large.optima").read_text().split()
        assert [s.cost for s in solutions] == [int(o) for o in optima]


def test_single_solves() -> None:
    puzzle = sokoboru.Puzzle("1 6\n@O---$\n")
    solution = sokoboru.solve(puzzle)
    assert (solution.cost, solution.moves, solution.proven) == (1, ">", True)
    assert sokoboru.verify(puzzle, ">") == 1
    unsolvable = sokoboru.solve(sokoboru.Puzzle("1 4\nO@-$\n"))
    assert unsolvable.unsolvable and unsolvable.proven and unsolvable.moves is None
    assert unsolvable.text == "0\n\n"


def test_budgets_keep_the_best_answer() -> None:
    (hard,) = sokoboru.load(DATA / "sokoboru" / "medium.in")[:1]
    stopped = sokoboru.solve(hard, max_nodes=2000)
    if not stopped.proven:
        assert stopped.stopped is not None
        if stopped.cost is not None:
            assert stopped.moves is not None
            assert sokoboru.verify(hard, stopped.moves) == stopped.cost
            assert stopped.lower_bound <= stopped.cost


def test_rejections_have_the_clis_message(ply: Cli, tmp_path: Path) -> None:
    puzzles_path = tmp_path / "one.in"
    puzzles_path.write_text("1 6\n@O---$\n")
    (puzzle,) = sokoboru.load(puzzles_path)
    for answer in ["1\n<\n", "2\n>\n", "1\n\n", "1\n>\n1\n>\n"]:
        out = tmp_path / "bad.out"
        out.write_text(answer)
        done = ply.run(["sokoboru", "verify", "-i", str(puzzles_path), "-o", str(out)], check=False)
        assert done.returncode == 1
        with pytest.raises(ValueError) as raised:
            sokoboru.verify_solutions([puzzle], answer)
        # The CLI lists each rejected case on stdout, then sums up on stderr.
        assert str(raised.value) in done.stdout + done.stderr, (done, str(raised.value))
    for text in ["2 2\n@O\n-x\n", "1 3\n@O-\n", "x\n"]:
        bad = tmp_path / "bad.in"
        bad.write_text(text)
        message = ply.error(["sokoboru", "solve", str(bad)])
        with pytest.raises(ValueError) as raised:
            sokoboru.load(bad)
        assert str(raised.value) == message


def test_generation_matches_the_cli(ply: Cli) -> None:
    done = ply.run(["sokoboru", "gen", "--seed", "1", "--count", "2", "--size", "4x5", "--balls", "2"])
    generated = sokoboru.generate(1, 2, rows=4, cols=5, balls=2)
    assert "".join(str(p) for p, _, _ in generated) == done.stdout
    penalties = [int(line.split()[-1]) for line in done.stderr.splitlines() if "penalty" in line]
    assert [penalty for _, penalty, _ in generated] == penalties


def test_games_follow_the_rules() -> None:
    puzzle = sokoboru.Puzzle("1 6\n@O---$\n")
    game = sokoboru.Game(puzzle)
    assert game.legal_moves() == ">" and game.empty_boxes == 1
    with pytest.raises(ValueError, match="wall or off the board"):
        game.step("<")
    assert game.step(">") == 1 and game.is_solved() and game.moves == ">"
    assert game.to_numpy().tolist() == [[0, 2, 0, 0, 0, 5]]
    assert puzzle.to_numpy().tolist() == [[2, 3, 0, 0, 0, 4]]
    with pytest.raises(ValueError, match="expected one puzzle, found 2"):
        sokoboru.Puzzle("1 3\n@O$\n1 3\n@O$\n")
