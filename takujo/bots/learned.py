"""The ``learned`` bot: a small network trained by self-play (`takujo train`), played with numpy.

The network maps a player's observation — the research adapters' encoding of
``state.view(player)``, exactly what ``Seat.observe`` gives — to one value per action index
(an estimate of the player's return after taking that action). The bot plays the legal
action with the highest value; equal values go to the lowest index. No torch is needed here.

Weights are ``.npz`` files: ``spec`` (the game configuration they were trained on),
``hidden`` (layer count) and ``w0, b0, w1, b1, …`` (float16 or float32).
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import numpy as np

from ..core.action import Action
from ..core.errors import OptionError
from ..core.game import Game
from ..core.rng import Rng

#: the weights shipped with the package, one file per game (its default configuration)
WEIGHTS_PACKAGE = "takujo.bots.weights"


class Net:
    """A ReLU multilayer perceptron in numpy: observation -> one value per action index."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], spec: str) -> None:
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.spec = spec
        self.obs_size = int(self.layers[0][0].shape[0])
        self.num_actions = int(self.layers[-1][0].shape[1])

    def values(self, obs: np.ndarray) -> np.ndarray:
        """float32[num_actions] for one observation (or [k, num_actions] for k)."""
        x = obs.astype(np.float32, copy=False)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x


def save_net(path: Path, layers: list[tuple[np.ndarray, np.ndarray]], spec: str,
             dtype: Any = np.float16) -> None:
    """Write weights (`layers`: (weight [in, out], bias [out]) pairs) for `spec` to `path`."""
    arrays: dict[str, Any] = {"spec": np.array(spec), "layers": np.array(len(layers))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(dtype), b.astype(dtype)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)


def load_net(path: Path | str) -> Net:
    """The network in a weights file; OptionError naming the file when it cannot be read."""
    try:
        with np.load(path, allow_pickle=False) as data:
            spec = str(data["spec"])
            n = int(data["layers"])
            layers = [(np.asarray(data[f"w{i}"]), np.asarray(data[f"b{i}"])) for i in range(n)]
    except FileNotFoundError:
        raise OptionError("bot.weights_missing", path=str(path)) from None
    except Exception as exc:  # a zip, pickle or key error: not a weights file
        raise OptionError("bot.bad_weights", path=str(path), detail=f"{type(exc).__name__}: {exc}") from None
    if not layers or any(w.ndim != 2 or b.shape != (w.shape[1],) for w, b in layers) or any(
            a[0].shape[1] != b[0].shape[0] for a, b in zip(layers, layers[1:])):
        raise OptionError("bot.bad_weights", path=str(path), detail="layer shapes do not chain")
    return Net(layers, spec)


def shipped_weights(game: Game) -> Path | None:
    """The weights file shipped for `game`'s name, or None."""
    ref = resources.files(WEIGHTS_PACKAGE).joinpath(f"{game.name}.npz")
    return Path(str(ref)) if ref.is_file() else None


def view_canon(table: Any, view: dict[str, Any]) -> Callable[[Action], Action] | None:
    """The table's action rewriting (token ids to slots) built from what `view` shows: the
    declarations' ``action_canon`` reads only the tokens in play (public) and the game."""
    pub = view.get("public", {})
    tokens = pub.get("tokens") if isinstance(pub, dict) else None
    if not tokens:
        return None
    shim = SimpleNamespace(tokens={int(k): None for k in tokens}, game=table.game)
    canon: Callable[[Action], Action] | None = table.canon(shim)
    return canon


class LearnedBot:
    """Plays the legal action the network values most, from ``view(player)`` only."""

    name = "learned"

    def __init__(self, game: Game, net: Net, table: Any = None) -> None:
        from ..adapters.driver import Table
        self.table = table if table is not None else Table(game)
        if net.spec != self.table.spec:
            raise OptionError("bot.weights_other_game", spec=net.spec, game=self.table.spec)
        if (net.obs_size, net.num_actions) != (self.table.obs_size, self.table.num_actions):
            raise OptionError("bot.bad_weights", path=net.spec, detail=(
                f"network {net.obs_size}->{net.num_actions}, game {self.table.obs_size}->{self.table.num_actions}"))
        self.net = net

    def indices(self, view: dict[str, Any], legal: list[Action]) -> list[int]:
        canon = view_canon(self.table, view)
        index = self.table.index
        return [index.index(a if canon is None else canon(a)) for a in legal]

    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        obs = self.table.encoder.encode(view, int(view["player"]), None)
        q = self.net.values(obs)
        idx = self.indices(view, legal)
        scores = q[idx]
        best = np.flatnonzero(scores == scores.max())
        return legal[min(best, key=lambda k: idx[k])]


def make_learned(name: str, game: Game) -> LearnedBot:
    """``learned`` (the weights shipped for the game) or ``learned:FILE.npz``."""
    _, sep, path = name.partition(":")
    if sep:
        if not path:
            raise OptionError("bot.bad_learned", name=name)
        return LearnedBot(game, load_net(path))
    shipped = shipped_weights(game)
    if shipped is None:
        raise OptionError("bot.no_weights", game=str(game))
    net = load_net(shipped)
    if net.spec != str(game):
        raise OptionError("bot.no_weights_config", game=str(game), spec=net.spec)
    return LearnedBot(game, net)
