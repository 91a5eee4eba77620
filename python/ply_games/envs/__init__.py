"""Environments over ply's games (optional: each needs its library, none is needed by the rest;
an extra of ply-games installs each, and a module imported without its library says which).

- Gymnasium (``pip install ply-games[gymnasium]``): importing this package registers the
  single-agent puzzles as ``ply_games/NPuzzle-v0``, ``ply_games/EwnSolo-v0``,
  ``ply_games/Sokoboru-v0``, ``ply_games/Minesweeper-v0`` and
  ``ply_games/MinesweeperClassic-v0`` (classic boards and first-click rules)
  (``gymnasium.make(id)``).
- PettingZoo (``pip install ply-games[pettingzoo]``): ``ply_games.envs.ewn_duel_v0.env()``, the
  EWN duel as an AEC environment with action masks.
- OpenSpiel (``pip install ply-games[openspiel]``): importing ``ply_games.envs.openspiel``
  registers the 6 x 7 known-dice duel as ``python_ply_ewn_duel``.

Seeded resets are deterministic; observations are fixed-shape NumPy arrays.
"""

from __future__ import annotations

IDS = (
    "ply_games/NPuzzle-v0",
    "ply_games/EwnSolo-v0",
    "ply_games/Sokoboru-v0",
    "ply_games/Minesweeper-v0",
    "ply_games/MinesweeperClassic-v0",
)

_ENTRY_POINTS = {
    "ply_games/NPuzzle-v0": ("NPuzzleEnv", 200),
    "ply_games/EwnSolo-v0": ("EwnSoloEnv", 100),
    "ply_games/Sokoboru-v0": ("SokoboruEnv", 200),
    "ply_games/Minesweeper-v0": ("MinesweeperEnv", 1000),
    "ply_games/MinesweeperClassic-v0": ("MinesweeperClassicEnv", 1000),
}


def _register() -> None:
    """Registers the Gymnasium environments, once, when Gymnasium is installed."""
    try:
        import gymnasium
    except ImportError:
        return
    for env_id, (name, steps) in _ENTRY_POINTS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=f"ply_games.envs.puzzles:{name}",
                max_episode_steps=steps,
            )


_register()

__all__ = ["IDS"]
