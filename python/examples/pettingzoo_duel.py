"""A PettingZoo game of the EWN duel: ply's depth-8 baseline against random moves.

Run: ``python python/examples/pettingzoo_duel.py`` (needs ``pip install ply-games[pettingzoo]``).
"""

from ply_games.envs import ewn_duel_v0
from ply_games.ewn.duel import Agent

env = ewn_duel_v0.env(render_mode="ansi")
env.reset(seed=42)
ply_agent = Agent("hard")
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        print(f"{agent}: reward {reward}")
        action = None
    elif agent == "player_0":
        action = ply_agent.choose(env.unwrapped.state)
    else:
        action = env.action_space(agent).sample(observation["action_mask"])
    env.step(action)
print(env.unwrapped.render())
env.close()
