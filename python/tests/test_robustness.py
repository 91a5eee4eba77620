"""Ctrl-C stops long calls promptly, and a panic in Rust is an exception, never an abort."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from ply_games import _ply

# Each script prints "ready" right before a call that would run for hours (or, for the agent,
# ten minutes) unless the interrupt stops it, and "interrupted" when KeyboardInterrupt
# reaches it.
LONG_CALLS = {
    "npuzzle": "npuzzle.solve(npuzzle.korf50_24()[0].board, 'manhattan')",
    "npuzzle on 2 threads": "npuzzle.solve(npuzzle.korf50_24()[0].board, 'manhattan', threads=2)",
    "duel agent": "duel.Agent.deep(600).choose(duel.Game().new_initial_state())",
    # A game on this board takes seconds: the call stops within the games in play, not after
    # a batch of them.
    "classic win rate": "mines.win_rate(width=300, height=300, mines=18000, games=1000, threads=2)",
}

# Python's own Ctrl-C handler, whatever the child inherits: a shell's background job starts
# with SIGINT ignored, and Python then leaves it ignored.
SCRIPT = """
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)
from ply_games import mines, npuzzle
from ply_games.ewn import duel
print("ready", flush=True)
try:
    {call}
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.parametrize("name", LONG_CALLS)
def test_ctrl_c_stops_a_long_call(name: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT.format(call=LONG_CALLS[name])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        # Whether the signal lands before or during the call, the call ends with it.
        time.sleep(0.2)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert out.strip() == "interrupted", err
    assert child.returncode == 0, err


@pytest.mark.parametrize("in_worker", [False, True])
def test_a_panic_is_an_exception(in_worker: bool) -> None:
    with pytest.raises(BaseException) as raised:
        _ply._panic(in_worker)
    assert type(raised.value).__name__ == "PanicException"
    assert "on purpose" in str(raised.value)


# Generating a 65536 x 65536 map takes seconds (2.4 s on a 2-core machine); Ctrl-C ends it
# within the chunk each thread is filling (2^24 cells, milliseconds).
GENERATION = """
import signal, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from ply_games import mines
print("ready", flush=True)
start = time.monotonic()
try:
    mines.generate(65536)
    print("finished", flush=True)
except KeyboardInterrupt:
    print(f"interrupted {time.monotonic() - start:.3f}", flush=True)
"""


def test_ctrl_c_stops_a_map_generation_promptly() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", GENERATION],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    said, _, seconds = out.strip().partition(" ")
    assert said == "interrupted", err
    assert float(seconds) < 1.2, f"stopped {seconds} s after the start"
