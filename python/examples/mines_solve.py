"""Generates a Minesweeper map, plays it with ply's solver, and scores it as the contest did.

Run: ``python python/examples/mines_solve.py``.
"""

from ply_games import mines

board = mines.generate(1024, seed=7)
print(board, "largest opening:", board.largest_opening())
stats = mines.solve(board, threads=2)
print(stats)
print(f"score with A = 8: {stats.score(board.n, board.mines):.2f}")

small = mines.generate(16, 40, seed=1)
game = mines.Game(small)
opened = game.click(8, 8)
print("a click on (8, 8):", "a mine" if opened is None else f"{len(opened)} cells opened")
print(game.view())
