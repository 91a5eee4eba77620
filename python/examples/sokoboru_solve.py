"""Solves Sokoboru puzzles to the optimal penalty and verifies the answers.

Run: ``python python/examples/sokoboru_solve.py``.
"""

from ply_games import sokoboru

puzzle = sokoboru.Puzzle("4 5\n$--O-\n---O-\n$@---\n-----\n")
print(puzzle)
solution = sokoboru.solve(puzzle, time_limit=10)
assert solution.moves is not None
print(f"penalty {solution.cost} (proven optimal: {solution.proven}): {solution.moves}")
print("the verifier replays it:", sokoboru.verify(puzzle, solution.moves, solution.cost))

for generated, penalty, proven in sokoboru.generate(seed=3, count=2, rows=4, cols=6, balls=3):
    answer = sokoboru.solve(generated)
    assert answer.cost == penalty and proven
    print(generated, f"optimal penalty {answer.cost}")
