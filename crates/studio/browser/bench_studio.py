"""The studio's three figures (docs/BENCHMARKS.md): a page's load in headless Chromium, an
expert board's analysis over HTTP, and the progress events a second during a solve. Each is
the median of several runs.

Usage: PLY=target/release/ply python crates/studio/browser/bench_studio.py [RUNS]
(needs the playwright package and Debian's chromium)."""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from conftest import CHROMIUM_ARGS, chromium_path


def post(base: str, token: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "x-ply-token": token},
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def page_load(url: str, runs: int) -> tuple[float, float]:
    """Milliseconds from the navigation's start to the load event and to the section's first
    answers shown (the page ready), each the median over `runs` fresh pages of /mines."""
    from playwright.sync_api import sync_playwright

    parts = urlsplit(url)
    target = f"{parts.scheme}://{parts.netloc}/mines?{parts.query}"
    loads, readies = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for _ in range(runs + 1):
            context = browser.new_context()
            page = context.new_page()
            page.goto(target)
            page.wait_for_selector("body[data-ready=true]")
            ready = float(page.get_attribute("body", "data-ready-ms") or "nan")
            load = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
            loads.append(load)
            readies.append(ready)
            context.close()
        browser.close()
    # The first page warms the browser's process; it is not counted.
    return statistics.median(loads[1:]), statistics.median(readies[1:])


def expert_position(base: str, token: str) -> str:
    """An expert position in the middle of a game: the classic player's first 40 moves of a
    seeded game that lasts longer."""
    for seed in range(1, 100):
        clicks: list[Any] = []
        game: Any = None
        for _ in range(40):
            game = post(base, token, "/api/mines/game", {"board": {"level": "expert"}, "seed": seed, "clicks": clicks, "step": True})
            clicks = game["clicks"]
            if game["status"] != "playing":
                break
        if game["status"] == "playing":
            view = game["view"]
            rows = ["mines 99"]
            for r in range(16):
                rows.append("".join("#" if v == 9 else "." if v == 0 else str(v) for v in view[r * 30 : (r + 1) * 30]))
            return "\n".join(rows) + "\n"
    raise RuntimeError("no expert game lasted 40 moves")


def analysis(base: str, token: str, runs: int) -> float:
    text = expert_position(base, token)
    times = []
    for _ in range(runs + 1):
        started = time.perf_counter()
        post(base, token, "/api/mines/analyse", {"text": text})
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times[1:])


def progress_rate(base: str, token: str, seconds: float) -> tuple[float, float]:
    """Progress events a second and the longest gap between two, during a long solve."""
    request = urllib.request.Request(
        base + "/api/npuzzle/solve",
        data=json.dumps({"tiles": "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", "heuristic": "manhattan"}).encode(),
        headers={"content-type": "application/json", "x-ply-token": token},
    )
    stamps = []
    started = time.perf_counter()
    with urllib.request.urlopen(request) as answer:
        for line in answer:
            if line.startswith(b"event: progress"):
                stamps.append(time.perf_counter())
            if time.perf_counter() - started > seconds:
                break
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    return (len(stamps) - 1) / (stamps[-1] - stamps[0]), max(gaps) * 1000


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    ply = os.environ.get("PLY", "target/release/ply")
    server = subprocess.Popen([ply, "studio", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    parts = urlsplit(url)
    base, token = f"{parts.scheme}://{parts.netloc}", parts.query.split("=", 1)[1]
    try:
        load, ready = page_load(url, runs)
        print(f"page load (/mines, load event): {load:.0f} ms; ready (its first answers): {ready:.0f} ms")
        print(f"expert board analysed over HTTP: {analysis(base, token, runs):.1f} ms")
        rates = [progress_rate(base, token, 3.0) for _ in range(3)]
        rate = statistics.median(r[0] for r in rates)
        gap = max(r[1] for r in rates)
        print(f"progress during a solve: {rate:.2f} events/s, longest gap {gap:.0f} ms")
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
