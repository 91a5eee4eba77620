"""The two-player EWN duel on a 6 x 7 board with a known dice line, in OpenSpiel's vocabulary.

Six cubes a side; the die of ply ``k`` is ``dice[k % 21]``; the die's cube (or its nearest
living neighbour in number) moves one step in one of its side's four forward directions,
capturing whatever it lands on; a side wins by reaching the far corner or capturing every
enemy cube. Red (player 0) moves first. An action is ``4 * cube + direction`` (0-23).

>>> from ply_games.ewn import duel
>>> state = duel.Game(seed=3).new_initial_state()
>>> hard, easy = duel.Agent("hard"), duel.Agent("random", seed=1)
>>> while not state.is_terminal():
...     agent = hard if state.current_player() == 0 else easy
...     state.apply_action(agent.choose(state))
>>> state.returns()
[1.0, -1.0]

``Agent`` plays the course's baselines by name (``random``/``easy``, ``normal``, ``hard``),
ply's strongest agent (``deep``), alpha-beta, MCTS and random moves; ``host`` is the referee
of ``ply ewn host`` for agent programs speaking the course's protocol (and ``Agent`` objects);
``playouts`` is the engine's speed in Rust.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Union

from .._native import extend
from .._ply.ewn_duel import (
    MAX_GAME_LENGTH,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    TERMINAL,
    Agent,
    Game,
    Playouts,
    State,
    host_records,
    parse_dice,
    playouts,
)

__all__ = [
    "MAX_GAME_LENGTH",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "TERMINAL",
    "Agent",
    "Game",
    "Playouts",
    "State",
    "host",
    "parse_dice",
    "play",
    "playouts",
]

Player = Union[str, Agent]


def host(
    p0: Player,
    p1: Player,
    *,
    rounds: int = 1,
    seed: int = 1,
    move_time: float = 2.0,
    dice: Optional[str] = None,
) -> list[dict[str, Any]]:
    """Plays a match as ``ply ewn host --p0 P0 --p1 P1 -r ROUNDS --seed SEED`` does.

    A player is a shell command line speaking the course's protocol (started with ``sh -c``
    in its own process group, restarted after a forfeit, stopped at the end with whatever it
    started, out of its group included) or an ``Agent``
    running in this process. The first mover alternates, starting with ``p0``. Each game
    comes back as the JSON object ``ply ewn host --log`` writes for it: the setup, the moves
    with their times, the winner (0 or 1) and how it ended. ``dice`` is a dice file's text
    (default: the course's 60 lines). Ctrl-C stops the match and its agents.
    """
    records = host_records(p0, p1, rounds=rounds, seed=seed, move_time=move_time, dice=dice)
    return [json.loads(record) for record in records]


def play(
    game: Game,
    red: Agent,
    blue: Agent,
    *,
    move_time: Optional[float] = None,
) -> State:
    """Plays one game between two agents in this process and returns its final state.

    Both agents are told of the new game and of every move, so agents that keep a search
    tree or table between moves use it; ``move_time`` overrides the timed agents' own.
    """
    state = game.new_initial_state()
    agents = (red, blue)
    for player, agent in enumerate(agents):
        agent.new_game(state, player)
    # An agent playing itself is told of each move once.
    watchers = [red] if red is blue else [red, blue]
    while not state.is_terminal():
        action = agents[state.current_player()].choose(state, move_time)
        for agent in watchers:
            agent.observe(state, action)
        state.apply_action(action)
    return state


@extend(Game)
class _Game:
    def num_distinct_actions(self: Any) -> int:
        """24: an action is ``4 * cube + direction``."""
        return NUM_ACTIONS

    def num_players(self: Any) -> int:
        """2: red (0) moves first, blue (1) second."""
        return 2

    def max_game_length(self: Any) -> int:
        """An upper bound on the plies of a game (169)."""
        return MAX_GAME_LENGTH

    def observation_tensor_shape(self: Any) -> list[int]:
        """The shape of ``State.observation_tensor``."""
        return [OBSERVATION_SIZE]

    def min_utility(self: Any) -> float:
        """-1: a loss."""
        return -1.0

    def max_utility(self: Any) -> float:
        """1: a win."""
        return 1.0

    def utility_sum(self: Any) -> float:
        """0: the game is zero-sum."""
        return 0.0

    def __repr__(self: Any) -> str:
        return f"Game(setup='{self.setup}')"


@extend(State)
class _State:
    def legal_actions_mask(self: Any, player: Optional[int] = None) -> list[int]:
        """24 zeros and ones, one where an action is legal (OpenSpiel's list form)."""
        mask = [0] * NUM_ACTIONS
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def is_chance_node(self: Any) -> bool:
        """Always false: the dice are known, so the game has no chance nodes."""
        return False

    def returns(self: Any) -> list[float]:
        """Each player's result: 1 for the winner, -1 for the loser, 0 before the end."""
        winner = self.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def rewards(self: Any) -> list[float]:
        """Rewards of the last action: the returns at the end, 0 before."""
        returns: list[float] = self.returns()
        return returns

    def move_number(self: Any) -> int:
        """Plies played (OpenSpiel's name)."""
        ply: int = self.ply
        return ply

    def clone(self: Any) -> Any:
        """An independent copy."""
        return self.__copy__()

    def __repr__(self: Any) -> str:
        return f"State.from_history('{self.setup}', {self.history()})"


@extend(Agent)
class _Agent:
    def __repr__(self: Any) -> str:
        return f"Agent('{self.name}')"


@extend(Playouts)
class _Playouts:
    @property
    def moves_per_second(self: Any) -> float:
        """Moves per second."""
        moves: int = self.moves
        seconds: float = self.seconds
        return moves / seconds if seconds > 0 else 0.0

    def __repr__(self: Any) -> str:
        return (
            f"Playouts(games={self.games}, moves={self.moves}, red_wins={self.red_wins}, "
            f"seconds={self.seconds:.3f})"
        )
