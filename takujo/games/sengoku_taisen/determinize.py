"""Sampling a full 戦国大戦 双 state that agrees with one player's view (for IS-MCTS).

Each player's unseen cards are their own deck's cards not shown anywhere; they are dealt at
random into that player's hidden deck, hand, walls and face-down kokuryoku. The okugi of each
deck is known from the (public) decklist.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.determinize import Filler, base_json, seen_cards
from ...core.rng import Rng
from .state import SengokuState

if TYPE_CHECKING:
    from .game import SengokuGame


def _as_pairs(d: dict[str, Any]) -> list[list[Any]]:
    """A view's map keyed by unit id (a JSON string) as the state's JSON: ``[[unit, value], ...]``."""
    return [[int(k), v] for k, v in d.items()]


def determinize(game: "SengokuGame", view: dict[str, Any], rng: Rng) -> SengokuState:
    z, pub = view["zones"], view["public"]
    seen = seen_cards(view, SengokuState.ZONES)
    data: dict[str, Any] = {spec.name: [None, None] for spec in SengokuState.ZONES}
    for q in (0, 1):
        own = [c for c in game.deck_ids[q] if c not in seen]
        fill = Filler(own, rng)
        for name in ("hand", "koku_down", "walls"):
            part = z[name][q]
            data[name][q] = list(part) if isinstance(part, list) else fill.take(part)
        ougi = z["ougi"][q]
        data["ougi"][q] = list(ougi) if isinstance(ougi, list) else ([game.ougi_ids[q]] if ougi else [])
        data["deck"][q] = fill.rest()
        for name in ("koku_up", "camp", "summons", "field", "ougi_up", "discard", "exile"):
            data[name][q] = list(z[name][q])
    # the step count and the outcome are public: a sampled world at game over stays over
    base = base_json(game, rng, steps=int(view.get("version", 0)))
    base["outcome"] = view["outcome"]
    data.update(
        damage=_as_pairs(pub["damage"]), buff=_as_pairs(pub["buff"]), siege_buff=_as_pairs(pub["siege_buff"]),
        placed=_as_pairs(pub["placed"]), attacks=_as_pairs(pub["attacks"]),
        down_exhausted=list(pub["koku_down_exhausted"]), exhausted=list(pub["exhausted"]),
        tokens=[[int(t), dict(v)] for t, v in pub["tokens"].items()], next_token=pub["next_token"],
        extra_used=list(pub["extra_used"]), once_used=list(pub["once_used"]), ougi_used=list(pub["ougi_used"]),
        turn=pub["turn"], turn_player=pub["turn_player"], phase=pub["phase"], first=pub["first_player"],
        battle=pub["battle"], windows=[dict(w) for w in pub["windows"]], counters=[list(x) for x in pub["counters"]],
        _base=base,
    )
    state = SengokuState.from_json(game, data)
    assert isinstance(state, SengokuState)
    return state
