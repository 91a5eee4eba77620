"""Solves Korf's first 15-puzzle instance optimally, as ``ply npuzzle solve`` does.

Run: ``python python/examples/npuzzle_solve.py`` (after ``pip install .``). With the 7-8
pattern databases built (``ply npuzzle pdb build --partition 7-8`` or
``npuzzle.PatternDatabase.build("7-8").save()``) the default heuristic uses them and the solve
takes milliseconds; without, linear conflict takes about a second.
"""

from ply_games import npuzzle

instance = npuzzle.korf100()[0]
print(instance.board)
solution = npuzzle.solve(instance.board)
print(f"heuristic: {solution.heuristic}")
print(f"{solution.cost} moves (Korf: {instance.known_optimum}): {solution.moves}")
print(f"{solution.generated:,} nodes generated in {solution.seconds:.3f} s")
assert solution.moves is not None
assert npuzzle.verify(instance.board, solution.moves) == solution.cost
