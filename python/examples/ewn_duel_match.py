"""Plays ply's strongest agent against the course's depth-8 baseline on a few openings.

Run: ``python python/examples/ewn_duel_match.py``. ``duel.play`` runs both agents in this
process; ``duel.host`` is the referee for agent programs (here ``ply ewn agent``, if the
``ply`` command is installed).
"""

import shutil

from ply_games.ewn import duel

wins = 0
for seed in range(1, 3):
    for deep_is_red in (True, False):
        deep, hard = duel.Agent.deep(move_time=0.1), duel.Agent("hard")
        red, blue = (deep, hard) if deep_is_red else (hard, deep)
        final = duel.play(duel.Game(seed=seed), red, blue)
        won = final.winner == (0 if deep_is_red else 1)
        wins += won
        print(f"opening {seed}, deep {'red' if deep_is_red else 'blue'}: "
              f"{'won' if won else 'lost'} in {final.ply} plies")
print(f"deep won {wins} of 4")

if shutil.which("ply"):
    games = duel.host("ply ewn agent alphabeta --depth 2", duel.Agent.random(seed=1), rounds=2)
    print([(g["winner"], g["end"], len(g["moves"])) for g in games])
print(duel.playouts(200_000))
