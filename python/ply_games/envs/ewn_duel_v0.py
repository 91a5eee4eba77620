"""The EWN duel as a PettingZoo AEC environment (``pip install ply-games[pettingzoo]``).

``env()`` follows PettingZoo's classic board games (``connect_four_v3``): two agents,
``player_0`` (red, moves first) and ``player_1`` (blue), each observing a dict of
``observation`` (``float32``, 632: its own cubes, the opponent's, whose turn, its colour and the
next 21 dice; see ``ply_games.ewn.duel.State.observation_tensor``) and ``action_mask``
(``int8``, 24: one where ``4 * cube + direction`` is legal, all zero when it is not the agent's
turn). The winner gets 1 and the loser -1 at the end; an illegal action loses (-1) in ``env()``
and raises ``ValueError`` in ``raw_env()``. An action outside ``Discrete(24)`` (or not an int:
a float, a string, a bool) raises ``ValueError: action -1 is not in Discrete(24)`` and plays
nothing; a finished agent's action is ``None``, as in every PettingZoo game. Each
``reset(seed=s)`` draws the opening (cube permutations and dice line) ``ply_games.ewn.duel.Game``
draws for a seed taken from the environment's random stream, so a seed fixes the game.

>>> from ply_games.envs import ewn_duel_v0
>>> from ply_games.ewn.duel import Agent
>>> env = ewn_duel_v0.env()
>>> env.reset(seed=7)
>>> deep = Agent.deep(move_time=0.05)
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     if termination or truncation:
...         action = None
...     elif agent == "player_0":
...         action = deep.choose(env.unwrapped.state)
...     else:
...         action = env.action_space(agent).sample(observation["action_mask"])
...     env.step(action)
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from ._extras import explain

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector, wrappers
except ModuleNotFoundError as missing:
    # PettingZoo's extra brings Gymnasium too.
    explain(missing, __name__, "pettingzoo", "pettingzoo", "gymnasium")
    raise

from ..ewn import duel
from ._actions import action_index
from ._draw import BLACK, WHITE, Canvas, Color, Frame

Observation = dict[str, npt.NDArray[Any]]

# Colours of the frames: the board, then red's and blue's cubes.
_BOARD: Color = (226, 222, 210)
_SIDES: tuple[Color, Color] = ((200, 50, 50), (50, 80, 200))


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The environment with PettingZoo's standard wrappers (an illegal move loses), actions
    outside the space refused with ``ValueError`` (where PettingZoo's ``AssertOutOfBoundsWrapper``
    would assert)."""
    wrapped: AECEnv[str, Observation, int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = CheckedActions(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


def _checked(env: AECEnv[str, Observation, int], action: object) -> Optional[int]:
    """The action of the agent to move as an int of its space (``None`` for a finished agent),
    or ``ValueError`` naming the action and the space."""
    agent = env.agent_selection
    if action is None and (env.terminations[agent] or env.truncations[agent]):
        return None
    space = env.action_space(agent)
    assert isinstance(space, spaces.Discrete)
    return action_index(action, int(space.n), str(space))


class CheckedActions(wrappers.BaseWrapper[str, Observation, int]):  # type: ignore[misc]
    """Refuses an action outside the space with ``ValueError`` before the wrapped environment
    sees it (where ``wrappers.AssertOutOfBoundsWrapper`` asserts, and a negative action would
    index the action mask from its end)."""

    def step(self, action: Optional[int]) -> None:
        super().step(_checked(self.env, action))


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # noqa: N801
    """The EWN duel without wrappers; ``state`` is the game's ``ply_games.ewn.duel.State``."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "ewn_duel_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, render_mode: Optional[str] = None) -> None:
        super().__init__()
        modes: list[str] = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode {render_mode!r:.40} is not one of {', '.join(modes)}")
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(duel.NUM_ACTIONS) for a in self.agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, 1.0, shape=(duel.OBSERVATION_SIZE,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(duel.NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.agents
        }
        self._np_random, _ = seeding.np_random(None)
        self.game = duel.Game()
        self.state = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Observation:
        player = self.possible_agents.index(agent)
        observation = self.state.observation_tensor(player)
        if self.state.current_player() == player:
            mask = self.state.action_mask()
        else:
            mask = np.zeros(duel.NUM_ACTIONS, np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        if options and "game" in options:
            self.game = options["game"]
        else:
            self.game = duel.Game(seed=int(self._np_random.integers(0, 2**63)))
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def step(self, action: Optional[int]) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        checked = _checked(self, action)
        assert checked is not None
        # An illegal action raises ValueError saying why, and changes nothing.
        self.state.apply_action(checked)
        next_agent = self._agent_selector.next()
        if self.state.is_terminal():
            for agent, value in zip(self.possible_agents, self.state.returns()):
                self.rewards[agent] = value
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = next_agent
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[Union[str, Frame]]:
        """The position as text (``ansi``; printed for ``human``) or as an image (``rgb_array``:
        ``uint8``, 7 x 7 cells: the 6 x 7 board, red's cubes red and blue's blue with their
        numbers, then the next seven dice, the next one framed in the colour of the side to
        move, or the whole row in the winner's colour once the game is over)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "rgb_array":
            return self._frame()
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _frame(self) -> Frame:
        canvas = Canvas(7, 7)
        for square in range(42):
            canvas.fill(*divmod(square, 7), _BOARD)
        for player, color in enumerate(_SIDES):
            for cube, cell in enumerate(self.state.cubes(player)):
                if cell is not None:
                    r, c = divmod(cell, 7)
                    canvas.fill(r, c, color, canvas.cell // 8)
                    canvas.number(r, c, cube, WHITE)
        winner = self.state.winner
        ply, dice = self.state.ply, self.state.dice
        for i in range(7):
            if winner is not None:
                canvas.fill(6, i, _SIDES[winner])
                continue
            if i == 0:
                canvas.fill(6, i, _SIDES[self.state.current_player()])
            canvas.fill(6, i, WHITE, canvas.cell // 8 if i == 0 else 0)
            canvas.number(6, i, dice[(ply + i) % len(dice)], BLACK)
        return canvas.image

    def close(self) -> None:
        pass
