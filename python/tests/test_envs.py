"""The environments pass their libraries' checkers and are deterministic for a seed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import ply_games.envs  # noqa: E402  (registers the Gymnasium environments)
from ply_games import npuzzle, sokoboru  # noqa: E402
from ply_games.envs.puzzles import (  # noqa: E402
    EwnSoloEnv,
    MinesweeperClassicEnv,
    MinesweeperEnv,
    NPuzzleEnv,
    SokoboruEnv,
)
from ply_games.ewn import duel  # noqa: E402


@pytest.mark.parametrize("env_id", ply_games.envs.IDS)
def test_gymnasium_checker_passes(env_id: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id, render_mode="ansi")
    check_env(env.unwrapped)
    assert isinstance(env.unwrapped.render(), str)
    env.close()


@pytest.mark.parametrize("env_id", ply_games.envs.IDS)
def test_seeded_episodes_repeat(env_id: str) -> None:
    def episode(seed: int) -> list[Any]:
        env = gymnasium.make(env_id)
        env.action_space.seed(seed)
        obs, info = env.reset(seed=seed)
        trace: list[Any] = [obs.tolist()]
        for _ in range(30):
            legal = np.flatnonzero(info["action_mask"])
            action = int(legal[0]) if len(legal) else 0
            obs, reward, terminated, truncated, info = env.step(action)
            trace.append((obs.tolist(), reward, terminated, truncated))
            if terminated or truncated:
                break
        return trace

    assert episode(3) == episode(3)
    assert episode(3) != episode(4)


def test_npuzzle_env_rewards_the_moves() -> None:
    env = NPuzzleEnv(width=3)
    obs, info = env.reset(seed=0, options={"board": "1 2 0 3 4 5 6 7 8"})
    assert obs.tolist() == [1, 2, 0, 3, 4, 5, 6, 7, 8]
    assert info["action_mask"].tolist() == [0, 1, 0, 1]
    total, terminated = 0.0, False
    for letter in npuzzle.solve("1 2 0 3 4 5 6 7 8").moves or "":
        obs, reward, terminated, _, _ = env.step(np.int64("ULRD".index(letter)))
        total += reward
    assert terminated and total == -2.0
    scrambled = NPuzzleEnv(width=4, scramble=10)
    obs, _ = scrambled.reset(seed=1)
    assert npuzzle.solve(obs.tolist()).cost is not None


def test_ewn_solo_env_pays_the_optimum_for_an_optimal_play() -> None:
    env = EwnSoloEnv(min_moves=4, max_moves=8)
    _, info = env.reset(seed=5)
    solution = ply_games.ewn.solo.solve(env.instance)
    assert solution.moves is not None and info["optimum"] == solution.cost
    total, terminated = 0.0, False
    for move in solution.moves:
        action = next(a for a, m in env._moves().items() if m == move)
        _, reward, terminated, _, _ = env.step(np.int64(action))
        total += reward
    assert terminated and total == -float(solution.cost or 0)


def test_sokoboru_env_pays_the_penalty() -> None:
    env = SokoboruEnv(rows=2, cols=6)
    puzzle = sokoboru.Puzzle("1 6\n@O---$\n")
    obs, _ = env.reset(seed=0, options={"puzzle": puzzle})
    assert obs.shape == (2, 6) and obs[1].tolist() == [1] * 6
    _, reward, terminated, _, _ = env.step(np.int64(3))
    assert terminated and reward == -1.0


def test_minesweeper_env_ends_on_a_mine() -> None:
    env = MinesweeperEnv(n=16)
    board = ply_games.mines.Map(16, [(0, 0)])
    env.reset(seed=0, options={"map": board})
    obs, reward, terminated, _, info = env.step(np.int64(0))
    assert terminated and reward == -1.0 and obs[0, 0] == ply_games.mines.EXPLODED
    assert info["action_mask"].sum() == 0, "a lost game offers no move"
    env.reset(seed=0, options={"map": board})
    _, reward, terminated, _, info = env.step(np.int64(8 * 16 + 8))
    assert terminated and reward == 1.0 and info["action_mask"].sum() == 0


# Mines on (0, 1) and (5, 5) of a 16 x 16 board: a click at (15, 15) opens all but (0, 0).
BOTH_MINES = [(0, 1), (5, 5)]


def _mines_trace(env: Any, reset: dict[str, Any], clicks: list[tuple[int, int]]) -> list[Any]:
    obs, info = env.reset(seed=0, options=reset)
    trace: list[Any] = [(obs.dtype.name, obs.tolist(), info["action_mask"].tolist(), info["opened"])]
    for row, col in clicks:
        obs, reward, terminated, _, info = env.step(np.int64(row * 16 + col))
        trace.append((obs.tolist(), reward, terminated, info["action_mask"].tolist(), info["opened"]))
    return trace


def test_both_minesweeper_envs_speak_alike() -> None:
    # The same board in each: the same observations, rewards, masks and counts.
    contest, classic = MinesweeperEnv(n=16, mines=2), MinesweeperClassicEnv(width=16, height=16, mines=2)
    assert contest.observation_space == classic.observation_space
    board = {"map": ply_games.mines.Map(16, BOTH_MINES)}
    game = {"game": ply_games.mines.ClassicGame.from_mines(16, 16, BOTH_MINES)}
    won = [(15, 15), (15, 15), (0, 0)]
    trace = _mines_trace(contest, board, won)
    assert trace == _mines_trace(classic, game, won)
    assert trace[0][0] == "uint8" and {v for row in trace[0][1] for v in row} == {ply_games.mines.HIDDEN}
    assert [step[1:3] for step in trace[1:]] == [(0.0, False), (-0.01, False), (1.0, True)]
    lost = [(15, 15), (0, 1)]
    trace = _mines_trace(contest, board, lost)
    assert trace == _mines_trace(classic, game, lost)
    assert trace[-1][0][0][1] == ply_games.mines.EXPLODED and trace[-1][1:4] == (-1.0, True, [0] * 256)
    contest.render_mode = classic.render_mode = "ansi"
    assert contest.render() == classic.render() == str(classic.game)


def test_classic_minesweeper_env_pays_the_end() -> None:
    env = MinesweeperClassicEnv(width=4, height=3, mines=1)
    assert env.observation_space.shape == (3, 4) and env.action_space.n == 12
    # . . . .
    # . . . *
    # . . . .
    game = ply_games.mines.ClassicGame.from_mines(4, 3, [(1, 3)])
    obs, info = env.reset(seed=0, options={"game": game})
    assert obs.dtype == np.uint8 and (obs == 9).all() and info["action_mask"].sum() == 12
    obs, reward, terminated, _, info = env.step(np.int64(4))  # (1, 0): opens the zeros
    assert (reward, terminated, info["opened"]) == (0.0, False, 9)
    _, reward, terminated, _, _ = env.step(np.int64(4))  # open already
    assert (reward, terminated) == (-0.01, False)
    _, reward, terminated, _, _ = env.step(np.int64(3))
    assert (reward, terminated) == (0.0, False)
    obs, reward, terminated, _, info = env.step(np.int64(11))
    assert (reward, terminated) == (1.0, True) and info["action_mask"].tolist() == [0] * 12
    assert env.game.status == "won" and game.status == "playing", "the env plays a copy"
    env.reset(seed=0, options={"game": game})
    obs, reward, terminated, _, _ = env.step(np.int64(7))
    assert (reward, terminated) == (-1.0, True) and obs[1, 3] == 10


def test_classic_minesweeper_env_boards_and_first_clicks() -> None:
    env = gymnasium.make("ply_games/MinesweeperClassic-v0", level="expert", rule="zero", start=(2, 2))
    obs, info = env.reset(seed=4)
    assert obs.shape == (16, 30) and obs[2, 2] == 0 and info["opened"] >= 9
    assert ply_games.mines.probabilities(obs, 99).sum() == pytest.approx(99)
    beginner = MinesweeperClassicEnv()
    assert (beginner.width, beginner.height, beginner.mines) == (9, 9, 10)
    obs, _ = beginner.reset(seed=1)
    assert (obs == 9).all(), "without start, the agent makes the first click"
    for _ in range(20):
        _, reward, terminated, _, _ = beginner.step(np.int64(40))
        assert reward != -1.0, "the first click is never a mine"
        beginner.reset()
    with pytest.raises(ValueError, match="not both"):
        MinesweeperClassicEnv(level="expert", width=5)
    with pytest.raises(ValueError, match="is 9 x 9 with 10 mines, not 30 x 16 with 99"):
        env.reset(options={"game": ply_games.mines.ClassicGame("beginner")})


def test_classic_minesweeper_env_never_starts_on_a_finished_game() -> None:
    # One mine on 4 x 4, first click at (0, 0): when the mine is off its block, the zero's
    # region opens every safe cell by chance; the reset then draws the next game.
    make: dict[str, Any] = {"width": 4, "height": 4, "mines": 1, "start": (0, 0)}
    won_at_once = []
    for seed in range(40):
        rng, _ = gymnasium.utils.seeding.np_random(seed)
        first = ply_games.mines.ClassicGame(**make, seed=int(rng.integers(0, 2**63)))
        first.click(0, 0)
        env = MinesweeperClassicEnv(**make)
        _, info = env.reset(seed=seed)
        assert env.game.status == "playing" and info["action_mask"].sum() > 0, seed
        if first.status == "won":
            won_at_once.append(seed)
            assert env.game.seed != first.seed, "drawn again"
    assert won_at_once, "some first draw wins at once (else this test tests nothing)"
    # Rules whose first click always ends the game make no episode (refused by the rules, or
    # after the redraws).
    with pytest.raises(ValueError):
        MinesweeperClassicEnv(width=3, height=3, mines=8, start=(1, 1)).reset(seed=0)
    over = ply_games.mines.ClassicGame.from_mines(4, 4, [(3, 3)])
    over.click(0, 0)
    assert over.status == "won"
    with pytest.raises(ValueError, match=r"options\['game'\] is over \(won\)"):
        MinesweeperClassicEnv(width=4, height=4, mines=1).reset(options={"game": over})


# PettingZoo's own classic games (connect_four_v3) draw the same two notes on dict observations.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
def test_pettingzoo_checks_pass() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from ply_games.envs import ewn_duel_v0

    api_test(ewn_duel_v0.env(), num_cycles=1000)
    seed_test(ewn_duel_v0.env, num_cycles=100)


def test_a_ply_agent_plays_a_random_one_in_pettingzoo() -> None:
    pytest.importorskip("pettingzoo")
    from ply_games.envs import ewn_duel_v0

    env = ewn_duel_v0.env()
    env.reset(seed=7)
    hard = duel.Agent("hard")
    rewards = {"player_0": 0.0, "player_1": 0.0}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        if termination or truncation:
            action = None
        elif agent == "player_0":
            action = hard.choose(env.unwrapped.state)
            assert observation["action_mask"][action] == 1
        else:
            action = int(env.action_space(agent).sample(observation["action_mask"]))
        env.step(action)
    assert sorted(rewards.values()) == [-1.0, 1.0]


def test_openspiel_simulation_test_passes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import ply_games.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_ply_ewn_duel")
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    other = pyspiel.load_game("python_ply_ewn_duel", {"seed": 9})
    assert str(other.new_initial_state()) == str(duel.Game(seed=9).new_initial_state())
    state = game.new_initial_state()
    assert state.legal_actions() == duel.Game(seed=1).new_initial_state().legal_actions()
    assert len(state.observation_tensor(0)) == duel.OBSERVATION_SIZE


def _bad_actions(n: int) -> list[Any]:
    """Actions outside ``Discrete(n)`` or not ints, each with how the message shows it."""
    return [
        (-1, "-1"),
        (n, str(n)),
        (10**20, str(10**20)),
        (np.int64(-1), "-1"),
        (np.array(n, dtype=np.int32), str(n)),
        (1.5, "1.5"),
        (float("nan"), "nan"),
        (np.float64(1.0), "np.float64(1.0)"),
        ("1", "'1'"),
        ("\n" * 100, "'" + "\\n" * 40 + "'..."),
        (True, "True"),
        (np.array([1]), "array([1])"),
        (np.array(1.0), "array(1.)"),
        (None, "None"),
    ]


@pytest.mark.parametrize("env_id", ply_games.envs.IDS)
def test_actions_outside_the_space_are_refused(env_id: str) -> None:
    env = gymnasium.make(env_id)
    obs, info = env.reset(seed=2)
    n = env.action_space.n
    for action, shown in _bad_actions(n):
        with pytest.raises(ValueError) as raised:
            env.step(action)
        assert str(raised.value) == f"action {shown} is not in Discrete({n})"
    # Nothing was played: the first legal action gives what it gives in a fresh episode.
    legal = int(np.flatnonzero(info["action_mask"])[0])
    fresh = gymnasium.make(env_id)
    fresh.reset(seed=2)
    for action in (np.int32(legal), np.array(legal, dtype=np.uint8)):
        after = env.step(action)[0]
        assert np.array_equal(after, fresh.step(legal)[0])
        env.reset(seed=2)
        fresh.reset(seed=2)


def _ended(env_id: str) -> Any:
    """An environment whose episode has just ended (terminated)."""
    env = gymnasium.make(env_id)
    if env_id.endswith("NPuzzle-v0"):
        env.reset(seed=0, options={"board": "1 0 2 3 4 5 6 7 8"})
        action = 1  # L
    elif env_id.endswith("EwnSolo-v0"):
        env.reset(seed=5)
        action = int(np.flatnonzero(env.unwrapped._info()["action_mask"])[0])
        while not env.step(action)[2]:
            action = int(np.flatnonzero(env.unwrapped._info()["action_mask"])[0])
        return env
    elif env_id.endswith("Sokoboru-v0"):
        env.reset(seed=0, options={"puzzle": sokoboru.Puzzle("1 3\n@O$\n")})
        action = 3  # >
    elif env_id.endswith("MinesweeperClassic-v0"):
        game = ply_games.mines.ClassicGame.from_mines(9, 9, [(r, r) for r in range(9)] + [(0, 8)])
        env.reset(seed=0, options={"game": game})
        action = 0  # the mine
    else:
        env.reset(seed=0, options={"map": ply_games.mines.Map(16, [(0, 0)])})
        action = 0  # the mine
    assert env.step(action)[2]
    return env


@pytest.mark.parametrize("env_id", ply_games.envs.IDS)
def test_a_step_after_the_end_asks_for_a_reset(env_id: str) -> None:
    env = _ended(env_id)
    for _ in range(2):
        with pytest.raises(gymnasium.error.ResetNeeded, match=r"call reset\(\)"):
            env.step(0)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.unwrapped._info()["action_mask"])[0]))


def test_pettingzoo_refuses_actions_outside_the_space() -> None:
    pytest.importorskip("pettingzoo")
    from ply_games.envs import ewn_duel_v0

    for make in (ewn_duel_v0.env, ewn_duel_v0.raw_env):
        env: Any = make()
        env.reset(seed=1)
        for action, shown in _bad_actions(24):
            if action is None:
                continue  # None is a dead agent's action; a living one's is below
            with pytest.raises(ValueError) as raised:
                env.step(action)
            assert str(raised.value) == f"action {shown} is not in Discrete(24)"
        with pytest.raises(ValueError, match="action None is not in Discrete"):
            env.step(None)
        # Nothing was played.
        assert env.unwrapped.state.ply == 0
        legal = env.unwrapped.state.legal_actions()
        illegal = next(a for a in range(24) if a not in legal)
        if make is ewn_duel_v0.raw_env:
            with pytest.raises(ValueError, match=f"action {illegal} .* is illegal here"):
                env.step(illegal)
        env.step(np.int64(legal[0]))
        assert env.unwrapped.state.ply == 1


def test_openspiel_refuses_actions_outside_the_game() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import ply_games.envs.openspiel  # noqa: F401

    state = pyspiel.load_game("python_ply_ewn_duel").new_initial_state()
    for action, shown in _bad_actions(24):
        with pytest.raises(ValueError) as raised:
            state.apply_action(action)
        assert str(raised.value) == f"action {shown} is not in 0-23 (4 * cube + direction)"
    assert state.history() == []


@pytest.mark.filterwarnings("ignore:.*initialised with render_mode='rgb'")
@pytest.mark.parametrize("env_id", ply_games.envs.IDS)
def test_rgb_frames_pass_the_checker_and_keep_their_shape(env_id: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id, render_mode="rgb_array")
    assert env.metadata["render_modes"] == ["ansi", "rgb_array"]
    check_env(env.unwrapped)
    _, info = env.reset(seed=1)
    frames = [env.render()]
    rng = np.random.default_rng(1)
    for _ in range(12):
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        frames.append(env.render())
        if terminated or truncated:
            _, info = env.reset()
            frames.append(env.render())
    for frame in frames:
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
        assert frame.ndim == 3 and frame.shape == frames[0].shape and frame.shape[2] == 3
    assert len({frame.tobytes() for frame in frames}) > 1, "the frames show the moves"
    colors = np.unique(np.concatenate(frames).reshape(-1, 3).astype(np.int64) @ [65536, 256, 1])
    assert len(colors) >= 3, "cells, borders and pieces"
    collected = gymnasium.wrappers.RenderCollection(gymnasium.make(env_id, render_mode="rgb_array"))
    collected.reset(seed=2)
    collected.step(0)
    assert [f.shape for f in collected.render()] == [frames[0].shape] * 2
    with pytest.raises(ValueError, match="render_mode 'rgb' is not one of ansi, rgb_array"):
        gymnasium.make(env_id, render_mode="rgb").unwrapped


def test_npuzzle_frames_draw_the_tiles() -> None:
    from ply_games.envs import _draw

    env = NPuzzleEnv(width=3, render_mode="rgb_array")
    env.reset(seed=0, options={"board": "1 2 0 3 4 5 6 7 8"})
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.shape == (96, 96, 3)
    # Each tile's cell shows its number in the font, the blank none.
    blank = frame[0:32, 64:96]
    assert (blank == _draw.GRID).all()
    digit = _draw.Canvas(1, 1, 32)
    digit.number(0, 0, 7, _draw.BLACK)
    drawn = (digit.image == _draw.BLACK).all(axis=2)
    assert ((frame[64:96, 32:64] == _draw.BLACK).all(axis=2) == drawn).all()


def test_record_video_records_frames(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    import sys
    import types

    real_moviepy = importlib.util.find_spec("moviepy") is not None
    if not real_moviepy:
        # RecordVideo needs MoviePy only to write the file: a stand-in lets it record.
        monkeypatch.setitem(sys.modules, "moviepy", types.ModuleType("moviepy"))
    env = gymnasium.wrappers.RecordVideo(
        gymnasium.make("ply_games/NPuzzle-v0", render_mode="rgb_array"),
        str(tmp_path / "videos"),
        episode_trigger=lambda episode: True,
    )
    env.reset(seed=3, options={"board": "8 6 7 2 5 4 3 0 1"})  # 31 moves from the goal
    for action in [0, 3, 0, 3]:
        env.step(action)
    frames = env.recorded_frames
    assert len(frames) == 5 and len({f.shape for f in frames}) == 1
    if real_moviepy:
        env.close()
        assert list((tmp_path / "videos").glob("*.mp4"))
    else:
        env.recording, env.recorded_frames = False, []
        env.close()


def test_pettingzoo_frames() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import render_test

    from ply_games.envs import ewn_duel_v0

    env = ewn_duel_v0.env(render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=1)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.shape[2] == 3
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    second = env.render()
    assert isinstance(second, np.ndarray) and second.shape == first.shape
    assert not np.array_equal(first, second)
    render_test(ewn_duel_v0.env)
