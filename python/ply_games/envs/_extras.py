"""The optional libraries the environments need, and the error that says how to install one."""

from __future__ import annotations


def explain(error: ModuleNotFoundError, module: str, extra: str, *libraries: str) -> None:
    """Raises, in place of ``error``, an error that says which extra of ply-games installs
    the library ``module`` failed to import, when it is one of ``libraries``; returns
    otherwise, for the caller to re-raise ``error`` (another module is missing)."""
    missing = (error.name or "").partition(".")[0]
    if missing in libraries:
        raise ModuleNotFoundError(
            f"{module} needs {missing}, which is not installed: install ply-games with its "
            f'{extra} extra, pip install "ply-games[{extra}]" (from a clone of ply: '
            f'pip install ".[{extra}]")',
            name=error.name,
        ) from error
