"""A Gymnasium loop on ply's sliding-tile environment, with ply's solver as the policy.

Run: ``python python/examples/gymnasium_loop.py`` (needs ``pip install ply-games[gymnasium]``).
"""

import gymnasium as gym
import numpy as np

import ply_games.envs  # noqa: F401  (registers the ply_games/... environments)
from ply_games import npuzzle

env = gym.make("ply_games/NPuzzle-v0", width=3)
for episode in range(3):
    observation, info = env.reset(seed=episode)
    plan = npuzzle.solve(observation.tolist()).moves or ""
    total, steps = 0.0, 0
    terminated = truncated = False
    while not (terminated or truncated):
        # Follow the optimal plan; a random legal move once it runs out (never, here).
        action = "ULRD".index(plan[steps]) if steps < len(plan) else int(
            np.flatnonzero(info["action_mask"])[0]
        )
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
    print(f"episode {episode}: return {total} in {steps} steps (optimal: {len(plan)})")
env.close()
