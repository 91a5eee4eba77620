"""The sliding-tile bindings give the answers, counts and messages of ``ply npuzzle``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import Cli
from ply_games import npuzzle

# 8-puzzles, and Korf instances that linear conflict solves in well under a second.
BOARDS = [
    "1 2 0 3 4 5 6 7 8",
    "8 6 7 2 5 4 3 0 1",
    "6 4 7 8 5 0 3 2 1",
]
KORF = ["9", "12", "13", "16", "19", "23", "28", "30"]  # each well under a second


def report(ply: Cli, path: Path, *flags: str) -> dict[str, str]:
    """The fields of ``ply npuzzle solve --moves`` for the one instance in ``path``."""
    out = ply.run(["npuzzle", "solve", "--moves", *flags, str(path)]).stdout
    return dict(re.findall(r"^([A-Z][\w/ ()]*?) = (.*)$", out, re.M))


def number(text: str) -> int:
    return int(text.replace(",", ""))


def compare(ply: Cli, tmp_path: Path, board: npuzzle.Board, heuristic: str, *flags: str) -> None:
    path = tmp_path / "instance.txt"
    path.write_text(" ".join(map(str, board.tiles)) + "\n")
    cli = report(ply, path, "--heuristic", heuristic, *flags)
    directory = tmp_path / "pdb" if heuristic.startswith("pdb") else None
    py = npuzzle.solve(board, heuristic, directory=directory)
    assert py.proven and py.moves is not None
    assert py.cost == number(cli["Solution"])
    assert py.moves == cli["Moves"]
    assert py.initial_bound == number(cli["Initial Estimate"])
    assert py.thresholds == [int(t) for t in cli["Threshold"].split()]
    assert (py.generated, py.expanded) == (number(cli["Generated"]), number(cli["Expanded"]))
    assert board.replay(py.moves).is_goal()


@pytest.mark.parametrize("tiles", BOARDS)
@pytest.mark.parametrize("heuristic", ["manhattan", "linear-conflict"])
def test_eight_puzzles_match_the_cli(ply: Cli, tmp_path: Path, tiles: str, heuristic: str) -> None:
    compare(ply, tmp_path, npuzzle.Board(tiles), heuristic)


@pytest.mark.parametrize("label", KORF)
def test_korf_instances_match_the_cli(ply: Cli, tmp_path: Path, label: str) -> None:
    (instance,) = [i for i in npuzzle.korf100() if i.label == label]
    compare(ply, tmp_path, instance.board, "linear-conflict")
    assert npuzzle.solve(instance.board, "linear-conflict").cost == instance.known_optimum


def test_bundled_sets_are_the_data_files(data: Path) -> None:
    korf = npuzzle.korf100()
    from_file = npuzzle.load(data / "npuzzle" / "korf100.tsv")
    assert [(i.label, i.known_optimum, i.board) for i in korf] == [
        (i.label, i.known_optimum, i.board) for i in from_file
    ]
    assert len(npuzzle.korf50_24()) == 50


def test_databases_are_the_cli_files_and_give_its_answers(ply: Cli, tmp_path: Path) -> None:
    # The CLI builds 5-5-5 in one directory, Python in another: the files are the same bytes,
    # each side reads the other's, and the solves agree to the node.
    cli_dir, py_dir = tmp_path / "cli", tmp_path / "pdb"
    ply.run(["npuzzle", "pdb", "build", "--partition", "5-5-5", "--pdb-dir", str(cli_dir)])
    built = npuzzle.PatternDatabase.build("5-5-5")
    saved = built.save(directory=py_dir)
    cli_file = cli_dir / built.file_name
    assert saved == py_dir / built.file_name
    assert saved.read_bytes() == cli_file.read_bytes()
    loaded = npuzzle.PatternDatabase.load("5-5-5", directory=cli_dir)
    assert loaded.is_loaded and loaded.partition == "5-5-5" and loaded.width == 4
    korf1 = npuzzle.korf100()[0].board
    assert loaded.value(korf1) == built.value(korf1)
    compare(ply, tmp_path, korf1, "pdb555", "--pdb-dir", str(py_dir))
    assert npuzzle.solve(korf1, loaded).cost == 57
    # The default heuristic is the strongest database present, as the CLI's.
    assert npuzzle.solve(korf1, directory=py_dir).heuristic == "pdb 5-5-5 + reflection"
    assert npuzzle.solve(korf1, directory=tmp_path / "none").heuristic == "linear-conflict"


def test_bad_input_raises_the_cli_message(ply: Cli, tmp_path: Path) -> None:
    for text in ["1 2 3\n", "1 2 3 4 5 6 7 8 8\n", "1 2 x 3 4 5 6 7 8\n"]:
        path = tmp_path / "bad.txt"
        path.write_text(text)
        message = ply.error(["npuzzle", "solve", "--heuristic", "manhattan", str(path)])
        with pytest.raises(ValueError) as raised:
            npuzzle.parse_instances(text)
        assert message == f"{path}: {raised.value}"
        with pytest.raises(ValueError) as raised:
            npuzzle.load(path)
        assert message == str(raised.value)


def test_an_unsolvable_board_is_read_and_refused_by_the_solver(ply: Cli, tmp_path: Path) -> None:
    # As the CLI, which answers every line of a file: the board parses, its solve is refused.
    text = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 15 14\n"
    path = tmp_path / "unsolvable.txt"
    path.write_text(text)
    message = ply.error(["npuzzle", "solve", "--heuristic", "manhattan", str(path)])
    (instance,) = npuzzle.parse_instances(text)
    with pytest.raises(ValueError) as raised:
        npuzzle.solve(instance.board, heuristic="manhattan")
    assert message.endswith(str(raised.value)), (message, str(raised.value))


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="expected 9, 16 or 25 numbers"):
        npuzzle.Board([1, 2, 3])
    with pytest.raises(TypeError):
        npuzzle.Board(3.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown heuristic 'fast'"):
        npuzzle.solve(npuzzle.Board.goal(3), "fast")
    with pytest.raises(ValueError, match="heuristic pdb78 is for 4x4 boards, not 3x3"):
        npuzzle.solve(npuzzle.Board.goal(3), "pdb78")
    with pytest.raises(ValueError, match="unsolvable"):
        npuzzle.solve([0, 2, 1, 3, 4, 5, 6, 7, 8])
    with pytest.raises(ValueError, match="time_limit -1 is negative"):
        npuzzle.solve(npuzzle.Board.goal(3), "manhattan", time_limit=-1)
    with pytest.raises(ValueError, match="move 1 \\(U\\) leaves the board"):
        npuzzle.Board.goal(3).replay("U")
    with pytest.raises(FileNotFoundError, match="build it with"):
        npuzzle.PatternDatabase.load("7-8", directory="/nonexistent/ply")
    with pytest.raises(ValueError, match="unknown partition"):
        npuzzle.PatternDatabase.load("4-4")


def test_budgets_give_a_lower_bound_not_an_answer() -> None:
    korf1 = npuzzle.korf100()[0].board
    stopped = npuzzle.solve(korf1, "manhattan", max_nodes=1000)
    assert not stopped.proven and stopped.moves is None and stopped.cost is None
    assert stopped.stopped == "node limit reached"
    assert 41 <= stopped.lower_bound <= 57


def test_boards() -> None:
    board = npuzzle.Board("1 2 0 3 4 5 6 7 8")
    assert board.width == 3 and board.blank == 2 and board.moves() == "LD"
    assert board.moved("L") == npuzzle.Board([1, 0, 2, 3, 4, 5, 6, 7, 8])
    assert board.moved("R") is None
    assert board.replay("LL").is_goal()
    assert board.to_numpy().shape == (3, 3)
    assert board.heuristic("manhattan") == 2
    assert str(npuzzle.Board.goal(3)) == "0 1 2\n3 4 5\n6 7 8\n"
    assert len({board, npuzzle.Board(list(board.tiles))}) == 1


def test_parallel_solves_stay_optimal() -> None:
    korf = npuzzle.korf100()[2]
    solution = npuzzle.solve(korf.board, "linear-conflict", threads=2)
    assert solution.cost == korf.known_optimum


def test_duplicate_pruning_depth_keeps_the_optimum() -> None:
    board = npuzzle.korf100()[78].board  # Korf's #79, 42 moves
    plain = npuzzle.solve(board, "manhattan")
    assert plain.cost == 42 and plain.generated == 540_859  # Korf's count less the root
    assert npuzzle.solve(board, "manhattan", fsm_depth=2).generated == plain.generated
    pruned = npuzzle.solve(board, "manhattan", fsm_depth=12)
    assert pruned.cost == 42 and pruned.proven
    assert pruned.generated < plain.generated
    for bad in (1, 14):
        with pytest.raises(ValueError, match="fsm_depth must be between 2 and 13"):
            npuzzle.solve(board, "manhattan", fsm_depth=bad)


def test_a_star_then_ida_star_keeps_the_optimum() -> None:
    korf = npuzzle.korf100()[78]
    board = korf.board
    assert korf.known_optimum is not None
    for states in (1, 500, 20_000):
        for threads in (1, 2):
            solution = npuzzle.solve(board, "manhattan", astar_states=states, threads=threads)
            assert solution.cost == korf.known_optimum and solution.proven
            assert npuzzle.verify(board, solution.moves or "") == korf.known_optimum
    for bad in (-1, 100_000_001):
        with pytest.raises(ValueError, match=f"astar_states must be between 0 and 100000000, not {bad}"):
            npuzzle.solve(board, "manhattan", astar_states=bad)


def test_the_database_directory_is_the_clis(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # ply-npuzzle's one policy: a relative XDG_CACHE_HOME is ignored, as the XDG spec says.
    monkeypatch.delenv("PLY_PDB_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert npuzzle.pdb_directory() == tmp_path / ".cache" / "ply"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert npuzzle.pdb_directory() == tmp_path / "cache" / "ply"
    # A file where the directory should be is refused, as by `ply npuzzle`.
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("PLY_PDB_DIR", str(tmp_path / "file"))
    with pytest.raises(ValueError, match="not a directory"):
        npuzzle.pdb_directory()
    # Without any directory the default heuristic is linear conflict, as the CLI's.
    monkeypatch.delenv("PLY_PDB_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.delenv("HOME")
    assert npuzzle.solve(" ".join(map(str, [1, 0, *range(2, 16)]))).heuristic == "linear-conflict"
