"""The 6 x 7 known-dice EWN duel as an OpenSpiel game (``pip install ply-games[openspiel]``).

Importing this module registers ``python_ply_ewn_duel`` with ``pyspiel.register_game``:
``pyspiel.load_game("python_ply_ewn_duel")`` (or with ``{"seed": s}`` for another opening)
then works with OpenSpiel's algorithms and tests. The game is deterministic with perfect
information (the dice are known), zero-sum, with terminal rewards of 1 and -1; an action is
``4 * cube + direction``; one outside 0-23, or not an int, raises ``ValueError`` from
``apply_action``. OpenSpiel's own ``einstein_wurfelt_nicht`` is the 5 x 5 game with
chance dice, a different game.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._extras import explain

try:
    import pyspiel
except ModuleNotFoundError as missing:
    explain(missing, __name__, "openspiel", "pyspiel")
    raise

from ..ewn import duel
from ._actions import action_index

_NUM_PLAYERS = 2
# The actions, as messages name them.
_ACTIONS = "0-23 (4 * cube + direction)"

GAME_TYPE = pyspiel.GameType(
    short_name="python_ply_ewn_duel",
    long_name="Python ply EWN duel (6x7, known dice)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_NUM_PLAYERS,
    min_num_players=_NUM_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"seed": 1},
)

GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=duel.NUM_ACTIONS,
    max_chance_outcomes=0,
    num_players=_NUM_PLAYERS,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=duel.MAX_GAME_LENGTH,
)


class EwnDuelGame(pyspiel.Game):  # type: ignore[misc]
    """The duel from the opening ``ply_games.ewn.duel.Game(seed)`` draws."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        super().__init__(GAME_TYPE, GAME_INFO, params or {})
        self.duel = duel.Game(seed=int(self.get_parameters()["seed"]))

    def new_initial_state(self) -> EwnDuelState:
        return EwnDuelState(self, self.duel.new_initial_state())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Optional[dict[str, Any]] = None
    ) -> Observer:
        return Observer(params)


class EwnDuelState(pyspiel.State):  # type: ignore[misc]
    """A position: ply's native state behind OpenSpiel's interface."""

    def __init__(self, game: EwnDuelGame, state: duel.State) -> None:
        super().__init__(game)
        self.state = state

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self.state.is_terminal() else self.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.state.legal_actions(player)

    def apply_action(self, action: int) -> None:
        """Plays ``action`` (an int of 0-23, legal here); ``ValueError`` names anything else."""
        super().apply_action(action_index(action, duel.NUM_ACTIONS, _ACTIONS))

    def _apply_action(self, action: int) -> None:
        self.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.state.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def returns(self) -> list[float]:
        return self.state.returns()

    def __str__(self) -> str:
        return str(self.state)

    def __deepcopy__(self, memo: Any) -> EwnDuelState:
        # OpenSpiel's clone copies the history it keeps (a new state would start without it).
        clone: EwnDuelState = self.clone()
        return clone


class Observer:
    """The observation tensor of ``ply_games.ewn.duel.State`` (632 floats), for OpenSpiel."""

    def __init__(self, params: Optional[dict[str, Any]]) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.tensor = np.zeros(duel.OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: EwnDuelState, player: int) -> None:
        self.tensor[:] = state.state.observation_tensor(player)

    def string_from(self, state: EwnDuelState, player: int) -> str:
        return state.state.observation_string(player)


pyspiel.register_game(GAME_TYPE, EwnDuelGame)

__all__ = ["GAME_TYPE", "EwnDuelGame", "EwnDuelState"]
