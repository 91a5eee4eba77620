"""Solves a single-player EWN instance to the fewest moves and checks the answer.

Run: ``python python/examples/ewn_solo_solve.py``.
"""

from ply_games.ewn import solo

instance = solo.Instance.parse("2\n62 26 66 42 32 36\n665545154156655451541566554515\n")
solution = solo.solve(instance)
assert solution.moves is not None
print(f"{solution.cost} moves in {solution.seconds:.3f} s: {solution.moves}")
print(solo.check(instance, solution.moves).message)
print("the course's output:")
print(solution.text, end="")
