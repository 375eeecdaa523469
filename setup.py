"""Optional compiled build of the rules engine.

The package is pure Python. With ``TAKUJO_COMPILE=1`` the modules that run on every step of
a game (core state, actions, chance, events, and each game's rules) are compiled with Cython
from the same source, for about 1.7-1.95x faster play, simulation and search (as the README
says; docs/performance.md):

    TAKUJO_COMPILE=1 python3 -m pip install .              # a compiled install
    TAKUJO_COMPILE=1 python3 setup.py build_ext --inplace   # compiled modules beside the source

An in-place build shadows the .py files it was built from: delete the .so files (or build
again) after editing them. Editable installs (``pip install -e``) always stay pure Python.
"""
from __future__ import annotations

import os
import sys

from setuptools import setup

COMPILED = [
    "takujo/core/action.py", "takujo/core/dice.py", "takujo/core/events.py", "takujo/core/phases.py",
    "takujo/core/piles.py", "takujo/core/plain.py", "takujo/core/response.py", "takujo/core/rng.py",
    "takujo/core/simultaneous.py",
    "takujo/core/state.py", "takujo/core/visibility.py", "takujo/bots/ismcts.py",
    "takujo/games/*/state.py", "takujo/games/*/combat.py", "takujo/games/*/effects.py",
    "takujo/games/*/battle.py", "takujo/games/*/board.py", "takujo/games/*/determinize.py",
    "takujo/games/*/heuristic.py",
]


def extensions() -> list:
    if os.environ.get("TAKUJO_COMPILE") != "1" or "editable_wheel" in sys.argv:
        return []
    from Cython.Build import cythonize
    # annotation_typing off: type hints stay hints, so the compiled modules accept and refuse
    # exactly what the pure ones do (no extra argument checks with other messages)
    return cythonize(COMPILED, language_level=3, nthreads=os.cpu_count() or 1, quiet=True,
                     compiler_directives={"annotation_typing": False})


if __name__ == "__main__":          # pip's build backend runs this file as __main__ too
    setup(ext_modules=extensions())
