"""Fixtures of the studio's browser tests: a `ply studio` on a free port and headless
Chromium driven by Playwright. Without Chromium or the playwright package every test skips,
saying which is missing."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = Path(os.environ.get("PLY_STUDIO_ARTIFACTS", ROOT / "target" / "studio-screenshots"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    return os.environ.get("PLY_CHROMIUM") or shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )


def ply_path() -> Path:
    given = os.environ.get("PLY")
    if given:
        return Path(given)
    return ROOT / "target" / "ci" / "ply"


@pytest.fixture(scope="session")
def studio() -> Iterator[str]:
    """The URL (token included) of a `ply studio` serving on a free port."""
    ply = ply_path()
    if not ply.exists():
        pytest.skip(f"no ply binary at {ply}: build it (cargo build --profile ci -p ply) or set PLY")
    process = subprocess.Popen(
        [str(ply), "studio", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    url = process.stdout.readline().strip()
    if not url.startswith("http://"):
        process.kill()
        _, err = process.communicate()
        pytest.fail(f"ply studio did not start: {err.strip()}")
    try:
        yield url
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            pytest.fail("ply studio did not stop on SIGINT")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium (Debian's), launched by Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install playwright)")
    executable = chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page whose console errors and uncaught exceptions are collected in
    `page.errors`."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.errors = errors
    try:
        yield opened
    finally:
        context.close()


def screenshot(page: Any, name: str) -> None:
    """Writes the page's picture under the artifacts directory."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def wait_until(condition: Any, what: str, cap: float = 120.0) -> None:
    """Waits until `condition()` holds, failing with `what` after a generous cap."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > cap:
            pytest.fail(f"gave up waiting: {what}")
        time.sleep(0.05)
