"""The single-player EWN bindings give the answers, verdicts and messages of ``ply ewn solo``."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import DATA, Cli
from ply_games.ewn import solo

PUBLIC = sorted((DATA / "ewn-solo" / "tcg2024-public").iterdir()) + [DATA / "ewn-solo" / "sample.in"]


@pytest.mark.parametrize("path", PUBLIC, ids=lambda p: p.name)
def test_solutions_are_the_clis(ply: Cli, path: Path) -> None:
    lines = ply.run(["ewn", "solo", "solve", str(path)]).stdout.splitlines()
    (instance,) = solo.load(path)
    solution = solo.solve(instance)
    assert solution.proven and solution.moves is not None
    assert solution.cost == int(lines[1])
    cells = [int(c) for c in lines[2].split()]
    assert solution.moves == list(zip(cells[::2], cells[1::2]))
    if instance.known_optimum is not None:
        assert solution.cost == instance.known_optimum
    assert solution.text is not None
    assert solo.parse_solution(solution.text) == solution.moves


def test_verdicts_are_the_clis(ply: Cli, tmp_path: Path) -> None:
    instance_path = DATA / "ewn-solo" / "sample.in"
    (instance,) = solo.load(instance_path)
    good = (DATA / "ewn-solo" / "sample.out").read_text()
    moves = solo.parse_solution(good)
    candidates = {
        "optimal": good,
        "short": f"0.1\n{len(moves) - 1}\n" + " ".join(f"{a} {b}" for a, b in moves[:-1]),
        "illegal": "0.1\n1\n36 37\n",
        "wrong piece": "0.1\n1\n62 61\n",
    }
    for name, text in candidates.items():
        path = tmp_path / f"{name}.out"
        path.write_text(text)
        done = ply.run(["ewn", "solo", "check", str(instance_path), str(path)], check=False)
        verdict = solo.check(instance, solo.parse_solution(text))
        assert verdict.message == done.stdout.strip(), name
        assert verdict.legal == (done.returncode == 0), name
    assert solo.check(instance, moves, optimum=15).message == "legal but 1 move over optimal: 16 moves"


def test_unsolvable_instances_are_proven(ply: Cli) -> None:
    text = (DATA / "ewn-solo" / "generated" / "unsolvable10-crafted.txt").read_text()
    for instance in solo.Instance.parse_many(text)[:3]:
        solution = solo.solve(instance)
        assert solution.unsolvable and solution.proven and solution.moves is None
        assert instance.known_unsolvable


def test_generated_sets_keep_their_optima() -> None:
    text = (DATA / "ewn-solo" / "generated" / "random200-seed100.txt").read_text()
    for instance in solo.Instance.parse_many(text)[:20]:
        assert solo.solve(instance).cost == instance.known_optimum


def test_generation_matches_the_cli(ply: Cli) -> None:
    out = ply.run(["ewn", "solo", "gen", "--seed", "5", "--count", "3", "--min-moves", "8"]).stdout
    generated = solo.generate(5, 3, min_moves=8)
    assert "\n".join(str(i) for i in generated) == out


def test_bad_instances_raise_the_cli_message(ply: Cli, tmp_path: Path) -> None:
    dice = "665545154156655451541566554515"
    for text in ["7\n", f"2\n1 2 3\n{dice}\n", f"2\n1 2 3 4 5 33\n{dice}\n", "2\n1 2 3 4 5 6\n123\n"]:
        path = tmp_path / "bad.in"
        path.write_text(text)
        message = ply.error(["ewn", "solo", "solve", str(path)])
        with pytest.raises(ValueError) as raised:
            solo.load(path)
        assert str(raised.value) == message


def test_states_step_through_a_solution() -> None:
    (instance,) = solo.load(DATA / "ewn-solo" / "sample.in")
    state = solo.State(instance)
    solution = solo.solve(instance)
    assert solution.moves is not None
    for source, target in solution.moves:
        assert (source, target) in state.legal_moves()
        state.play(source, target)
    assert state.is_solved() and state.is_over() and state.legal_moves() == []
    with pytest.raises(ValueError, match="the game is over"):
        state.play(0, 1)
    fresh = solo.State(instance)
    with pytest.raises(ValueError, match="no piece on cell 99"):
        fresh.play(99, 98)
    assert fresh.die == instance.dice[0] and fresh.moves_played == 0


def test_instances_round_trip() -> None:
    (instance,) = solo.load(DATA / "ewn-solo" / "sample.in")
    again = solo.Instance(instance.goal, instance.cells, instance.dice)
    assert again == instance
    assert solo.Instance.parse(str(instance)) == instance
    with pytest.raises(ValueError, match="goal piece '9' is not 1..6"):
        solo.Instance(9, instance.cells, instance.dice)
