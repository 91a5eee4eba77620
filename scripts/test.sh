#!/usr/bin/env bash
# The one test command: the Rust suite, then the Python package built as a wheel, installed
# into a fresh virtual environment with its test extras from PyPI, and its suite (pytest, which
# compares every binding with the `ply` command built by the Rust suite), the type check of the
# package, tests and examples (mypy --strict) and of the native module's stubs (stubtest), and
# the studio's browser tests (crates/studio/browser, Playwright on headless Chromium).
#
# Needs the Rust toolchain, python3 (3.9 or later, with venv and pip) and the package
# registries. Usage: scripts/test.sh [--rust | --python]   (default: both)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
python=${PYTHON:-python3}
what=${1:-all}

case "$what" in
all | --rust | --python) ;;
*)
  echo "usage: scripts/test.sh [--rust | --python]" >&2
  exit 2
  ;;
esac

# A failure in one part does not hide the others: every Rust test binary runs
# (--no-fail-fast), then the Python half, and the script fails at the end naming what failed.
failed=()
finish() {
  if [ ${#failed[@]} -gt 0 ]; then
    echo "== FAILED: ${failed[*]}" >&2
    exit 1
  fi
  echo "== all passed"
}

if [ "$what" != --python ]; then
  echo "== Rust: cargo test --profile ci --workspace --locked --no-fail-fast"
  cargo test --profile ci --workspace --locked --no-fail-fast || failed+=("the Rust suite")
fi
if [ "$what" = --rust ]; then
  finish
  exit 0
fi

# The comparisons run the CLI of this tree (the Rust suite above builds it).
if ! cargo build --profile ci --locked -p ply; then
  failed+=("building ply for the Python comparisons")
  finish
fi
export PLY="$target/ci/ply"

venv="$target/python-test-venv"
echo "== Python: a fresh virtual environment in $venv"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "maturin>=1.9.4,<2"

echo "== Python: the ply-games wheel"
wheels="$target/python-test-wheels"
rm -rf "$wheels"
"$venv/bin/maturin" build --profile ci --locked --interpreter "$venv/bin/python" --out "$wheels"
wheel=$(ls "$wheels"/ply_games-*.whl)
"$venv/bin/python" -m pip install --quiet "$wheel[test]"

echo "== Python: pytest python/tests"
# From the repository root the tests import the installed wheel (python/ is not on the path).
"$venv/bin/python" -m pytest python/tests || failed+=("pytest")
echo "== Python: mypy --strict (package, tests, examples) and stubtest (native module)"
"$venv/bin/python" -m mypy || failed+=("mypy")
"$venv/bin/python" -m mypy.stubtest ply_games._ply || failed+=("stubtest")

# ply studio in headless Chromium, driven by Playwright from PyPI (Debian's chromium, which
# .ci/run installs; without it the tests skip, saying so). Screenshots of every page go to
# target/studio-screenshots/.
echo "== Python: pytest crates/studio/browser (ply studio in headless Chromium)"
if "$venv/bin/python" -m pip install --quiet "playwright>=1.40"; then
  "$venv/bin/python" -m pytest crates/studio/browser || failed+=("the studio's browser tests")
  "$venv/bin/python" -m mypy --strict crates/studio/browser || failed+=("mypy (browser tests)")
else
  failed+=("installing playwright")
fi
finish
