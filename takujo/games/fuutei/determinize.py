"""Sampling a full Fuutei state that agrees with one player's view (for IS-MCTS)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.determinize import Filler, base_json, seen_cards
from ...core.plain import copy_plain
from ...core.rng import Rng
from ...core.simultaneous import rebuild_commits
from .constants import SUPPORT
from .state import FuuteiState

if TYPE_CHECKING:
    from .game import FuuteiGame


def determinize(game: "FuuteiGame", view: dict[str, Any], rng: Rng) -> FuuteiState:
    """A state the viewer cannot tell from the real one: hands hold no open card, face-down
    supports only battle support cards, everything else unseen goes to the pile in a random
    order. Everything public is rebuilt from the view as it is: the たわけ！ windows with whom
    they poll and who is asked now (so a sample for a player not being asked agrees too), the
    ordered battle-support commits, the guard-change count, the step count and the outcome."""
    z, pub = view["zones"], view["public"]
    cat = game.catalogue
    n = game.players
    seen = seen_cards(view, FuuteiState.ZONES)
    fill = Filler((c for c in range(len(cat)) if c not in seen), rng)
    supports = [list(z["support"][p]) if isinstance(z["support"][p], list)
                else fill.take(z["support"][p], lambda c: cat[c].type == "battle_support") for p in range(n)]
    hands = [list(z["hand"][p]) if isinstance(z["hand"][p], list)
             else fill.take(z["hand"][p], lambda c: cat[c].type not in ("event", "region")) for p in range(n)]
    deck = fill.rest()
    commits = None
    if pub["phase"] == SUPPORT and pub["battle"] and not pub["windows"]:
        # FTR-COMBAT-04/05: the invader commits, then the defender; a committed player's
        # support zone shows whether a card lies there. (Once both are turned up the commits
        # are gone; the phase lasts while たわけ！ windows answer the revealed cards.)
        commits = rebuild_commits(pub["battle"]["players"], pub["committed"], ordered=True, choice=lambda p: (
            Action(p, "support", (supports[p][0],)) if supports[p] else Action(p, "nosupport"))).to_json()
    base = base_json(game, rng, steps=int(view.get("version", 0)))
    base["outcome"] = copy_plain(view["outcome"])   # a sampled world at game over stays over
    data = {
        "deck": deck, "discard": list(z["discard"]), "center": list(z["center"]), "stack": list(z["stack"]),
        "temp": list(pub["temporary"]), "sealed": list(pub["sealed"]), "turns_taken": list(pub["turns_taken"]),
        "hands": hands, "supports": supports, "regions": [list(r) for r in z["regions"]],
        "party": [list(p) for p in z["party"]],
        "guard": [[int(r), c] for r, c in pub["guard"].items()],
        "host": [[int(e), c] for e, c in pub["host"].items()],
        "turn_player": pub["turn_player"], "turn": pub["turn"], "phase": pub["phase"],
        "pile_emptied": pub["pile_emptied"], "failed_draw": pub["failed_draw"],
        "battle": copy_plain(pub["battle"]), "commits": commits,
        "windows": copy_plain(pub["windows"]), "guard_changes": pub["guard_changes"],
        "_base": base,
    }
    return FuuteiState.from_json(game, data)
