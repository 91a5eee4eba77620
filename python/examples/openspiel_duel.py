"""The known-dice EWN duel in OpenSpiel: its registered game, played by OpenSpiel's MCTS bot
against ply's depth-2 baseline.

Run: ``python python/examples/openspiel_duel.py`` (needs ``pip install ply-games[openspiel]``).
"""

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import ply_games.envs.openspiel  # noqa: F401  (registers python_ply_ewn_duel)
from ply_games.ewn import duel

game = pyspiel.load_game("python_ply_ewn_duel", {"seed": 3})
rng = np.random.RandomState(1)
bot = mcts.MCTSBot(game, 2, 200, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
normal = duel.Agent("normal")
state = game.new_initial_state()
while not state.is_terminal():
    if state.current_player() == 0:
        action = bot.step(state)
    else:
        action = normal.choose(state.state)
    state.apply_action(action)
print(state)
print("returns (OpenSpiel MCTS, ply normal):", state.returns())
