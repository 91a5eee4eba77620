"""The duel bindings play the rules, agents, openings and referee of ``ply ewn``."""

from __future__ import annotations

import copy
import json
import os
import pickle
import re
import signal
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import Cli
from ply_games.ewn import duel


def moves_of(record: dict[str, Any]) -> list[tuple[str, int]]:
    return [(m["mv"], m["player"]) for m in record["moves"]]


def same_games(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> None:
    """Two logs hold the same games (move times aside)."""
    assert len(a) == len(b)
    for x, y in zip(a, b):
        for key in ("game", "red_player", "red", "blue", "dice", "winner", "end"):
            assert x[key] == y[key], key
        assert moves_of(x) == moves_of(y)


def test_the_referee_plays_the_clis_match(ply: Cli, tmp_path: Path) -> None:
    p0 = f"{ply.path} ewn agent alphabeta --depth 2"
    p1 = f"{ply.path} ewn agent random --seed 3"
    log = tmp_path / "games.jsonl"
    ply.run(["ewn", "host", "--p0", p0, "--p1", p1, "-r", "4", "--seed", "5", "--log", str(log)])
    cli = [json.loads(line) for line in log.read_text().splitlines()]
    same_games(duel.host(p0, p1, rounds=4, seed=5), cli)
    # The same agents in this process play the same moves as the agent programs.
    same_games(duel.host(duel.Agent("normal"), duel.Agent.random(seed=3), rounds=4, seed=5), cli)
    # Each game's opening is the one Game draws for the match's seed (the first game's).
    first = cli[0]
    assert duel.Game(seed=5).setup == first["red"] + first["blue"] + first["dice"]


def _running(args: list[str]) -> list[int]:
    """The processes whose command line is ``args`` (not zombies, whose lines are empty)."""
    wanted = "\0".join(args) + "\0"
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cmdline").read_text() == wanted:
                found.append(int(entry.name))
        except OSError:
            pass  # ended meanwhile
    return found


def test_the_referee_stops_what_an_agent_started_out_of_its_group(ply: Cli) -> None:
    # The agent starts a process in a session of its own, which killing its group misses:
    # the referee kills it all the same, as ply ewn host does, before the call returns.
    helper = ["sleep", "97.31"]
    agent = f"setsid {' '.join(helper)} & exec {ply.path} ewn agent random"
    try:
        ends = [game["end"] for game in duel.host(agent, f"{ply.path} ewn agent random", move_time=0.2)]
        assert len(ends) == 1 and "Forfeit" not in ends[0], ends
        # A SIGKILLed process may take a moment to leave the table.
        deadline = time.monotonic() + 30
        while _running(helper) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _running(helper) == [], "the agent's helper outlived the match"
    finally:
        for pid in _running(helper):
            os.kill(pid, signal.SIGKILL)


def test_states_replay_a_logged_game(ply: Cli, tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    p0 = f"{ply.path} ewn agent alphabeta --depth 1"
    p1 = f"{ply.path} ewn agent random --seed 9"
    ply.run(["ewn", "host", "--p0", p0, "--p1", p1, "-r", "3", "--seed", "2", "--log", str(log)])
    for line in log.read_text().splitlines():
        record = json.loads(line)
        game = duel.Game(red=record["red"], blue=record["blue"], dice=record["dice"])
        state = game.new_initial_state()
        for move in record["moves"]:
            action = state.string_to_action(move["mv"])
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.is_terminal()
        red = record["red_player"]
        assert state.winner == (0 if record["winner"] == red else 1)


def test_playouts_are_the_clis(ply: Cli) -> None:
    out = ply.run(["ewn", "playouts", "--games", "20000", "--seed", "3"]).stdout
    moves, red = re.search(r"playouts, ([\d,]+) moves .* red won ([\d.]+)%", out).groups()  # type: ignore[union-attr]
    tally = duel.playouts(20000, seed=3)
    assert tally.games == 20000
    assert tally.moves == int(moves.replace(",", ""))
    assert f"{100 * tally.red_wins / tally.games:.1f}" == red


def test_unknown_agents_get_the_clis_message(ply: Cli) -> None:
    for name in ["bogus", "alphabeta-21"]:
        with pytest.raises(ValueError) as raised:
            duel.Agent(name)
        assert str(raised.value) == ply.error(["ewn", "play", "--vs", name])


def test_actions_follow_the_rules() -> None:
    rng = np.random.default_rng(1)
    for seed in range(20):
        state = duel.Game(seed=seed).new_initial_state()
        plies = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            assert list(np.flatnonzero(state.action_mask())) == legal
            assert state.legal_actions_mask() == list(state.action_mask())
            assert state.legal_actions(1 - state.current_player()) == []
            illegal = next(a for a in range(duel.NUM_ACTIONS) if a not in legal)
            with pytest.raises(ValueError, match=f"action {illegal} .* is illegal here"):
                state.apply_action(illegal)
            observation = state.observation_tensor()
            assert observation.shape == (duel.OBSERVATION_SIZE,) and observation.dtype == np.float32
            assert observation[504] == 1.0  # the player to move is to move
            state.apply_action(int(rng.choice(legal)))
            plies += 1
        assert plies == state.ply <= duel.MAX_GAME_LENGTH
        assert state.current_player() == duel.TERMINAL
        assert sorted(state.returns()) == [-1.0, 1.0]
        assert state.legal_actions() == [] and not state.action_mask().any()


def test_clones_are_independent_and_states_pickle() -> None:
    state = duel.Game(seed=4).new_initial_state()
    clone, copied = state.clone(), copy.deepcopy(state)
    state.apply_action(state.legal_actions()[0])
    assert clone.ply == copied.ply == 0 and state.ply == 1
    assert clone.history() == [] and len(state.history()) == 1
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    assert again.setup == duel.Game(seed=4).setup
    with pytest.raises(ValueError, match="is illegal here"):
        duel.State.from_history(state.setup, [state.history()[0], 23, 23])


def test_games_take_openings_and_check_them() -> None:
    game = duel.Game(red="012345", blue=[5, 4, 3, 2, 1, 0], dice="0" * 21)
    assert game.setup == "012345543210" + "0" * 21
    assert game.num_distinct_actions() == 24 and game.num_players() == 2
    with pytest.raises(ValueError, match="dice: 3 digits, expected 21"):
        duel.Game(dice="012")
    with pytest.raises(ValueError, match="not a permutation"):
        duel.Game(red="000000")
    with pytest.raises(ValueError, match="not a digit 0-5"):
        duel.Game(dice="9" * 21)


def test_agents_play_legal_moves() -> None:
    state = duel.Game(seed=6).new_initial_state()
    agents = [
        duel.Agent("hard"),
        duel.Agent("easy", seed=2),
        duel.Agent.alphabeta(4, table=True),
        duel.Agent.alphabeta(move_time=0.02, eval="race"),
        duel.Agent.deep(0.02),
        duel.Agent.mcts(0.02, seed=3),
    ]
    for agent in agents:
        assert agent.choose(state) in state.legal_actions(), agent.name
        assert agent.choose(state, move_time=0.01) in state.legal_actions(), agent.name
    final = duel.play(duel.Game(seed=6), duel.Agent.deep(0.01), duel.Agent.random(seed=1))
    assert final.is_terminal()
    with pytest.raises(ValueError, match="the game is over"):
        agents[0].choose(final)
    with pytest.raises(ValueError, match="move_time 0 is not a positive duration"):
        duel.Agent.deep(0)
    with pytest.raises(ValueError, match="unknown evaluation"):
        duel.Agent.alphabeta(2, eval="fast")
