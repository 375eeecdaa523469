"""takujo (卓上): an engine for tabletop card and board games.

    >>> import takujo
    >>> game = takujo.load("fuutei", players=3)
    >>> state = game.new_state(seed=1)
"""
from .core.registry import game_class, load, names, register

__version__ = "0.1.0"

register("fuutei", "takujo.games.fuutei.game:FuuteiGame")
register("sengoku_taisen", "takujo.games.sengoku_taisen.game:SengokuGame")
register("ibara", "takujo.games.ibara.game:IbaraGame")
register("draft_daimyo", "takujo.games.draft_daimyo.game:DaimyoGame")

from .core.errors import OptionError  # noqa: E402
from .plugins import load_plugins  # noqa: E402  (after the games, which extensions build on)

try:
    load_plugins()
except OptionError as _exc:                 # an operator's setting: say what is wrong, no traceback
    raise SystemExit(f"takujo: {_exc}") from None


def compiled() -> bool:
    """Whether the rules engine runs compiled (the optional Cython build, see setup.py)."""
    from .core import state
    return not state.__file__.endswith(".py")


__all__ = ["__version__", "compiled", "game_class", "load", "names", "register"]
