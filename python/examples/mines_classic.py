"""Classic Minesweeper: a game by hand with the exact mine probabilities, one game of ply's
classic player, and its win rate on beginner under both first-click rules.

Run: ``python python/examples/mines_classic.py``.
"""

import numpy as np

from ply_games import mines

game = mines.ClassicGame("beginner", rule="zero", seed=3)
opened = game.click(*game.start)
print(f"the first click on {game.start} opened {len(opened or [])} cells:")
print(game)
odds = game.probabilities()
hidden = np.argwhere(game.view() == mines.HIDDEN)
row, col = min(hidden.tolist(), key=lambda at: float(odds[at[0], at[1]]))
print(f"the safest hidden cell: ({row}, {col}), a mine with probability {odds[row, col]:.3f}")

record = mines.play("expert", seed=1, game=0)
print(record, f"(the guesses' chance {record.guessed_safety:.2f})")

for rule in ("safe", "zero"):
    tally = mines.win_rate("beginner", rule=rule, games=2000, seed=1)
    low, high = tally.interval
    print(f"beginner, {rule}: won {tally.rate:.1%} of {tally.games} (95 % in {low:.1%}-{high:.1%})")
