# Stubs of the native module built from crates/python (PyO3). Each system is a submodule.
from . import ewn_duel as ewn_duel
from . import ewn_solo as ewn_solo
from . import mines as mines
from . import npuzzle as npuzzle
from . import sokoboru as sokoboru

__all__ = [
    "__version__",
    "_panic",
    "ewn_duel",
    "ewn_solo",
    "mines",
    "npuzzle",
    "sokoboru",
]

__version__: str

def _panic(in_worker: bool) -> None: ...
