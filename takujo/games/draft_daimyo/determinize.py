"""Sampling a full Draft Daimyo state that agrees with one player's view (for IS-MCTS).

Unseen draft cards go to the hidden packets, hands and chosen cards and the draft deck; unseen
events to the event deck; unseen tactics cards to hidden tactics hands and the tactics deck."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.determinize import Filler, base_json, seen_cards
from ...core.rng import Rng
from ...core.simultaneous import rebuild_commits
from .phases import CHOOSE, DRAFT, TACTIC
from .state import DaimyoState

if TYPE_CHECKING:
    from .game import DaimyoGame

DRAFT_TYPES = ("warlord", "development", "strategy")


def determinize(game: "DaimyoGame", view: dict[str, Any], rng: Rng) -> DaimyoState:
    z, pub, me = view["zones"], view["public"], view["player"]
    n = game.players
    cs = game.cards
    seen = seen_cards(view, DaimyoState.ZONES)
    unseen = [c for c in range(len(cs.cards)) if c not in seen]
    fill = Filler(unseen, rng)

    def kind(c: int) -> str:
        return cs[c].type

    per: dict[str, list[list[int]]] = {}
    for name, types in (("tactics_played", ("tactics",)), ("tactics_hand", ("tactics",)),
                        ("chosen", DRAFT_TYPES), ("packets", DRAFT_TYPES), ("hand", DRAFT_TYPES)):
        def fits(c: int, types: tuple[str, ...] = types) -> bool:
            return kind(c) in types
        per[name] = [z[name][p] if isinstance(z[name][p], list) else fill.take(z[name][p], fits)
                     for p in range(n)]
    rest = fill.rest()
    draft_deck = [c for c in rest if kind(c) in DRAFT_TYPES]
    event_deck = [c for c in rest if kind(c) == "event"]
    tactics_deck = [c for c in rest if kind(c) == "tactics"]
    commits = None
    if pub["commit_players"]:
        # The commits are rebuilt from zones, never from the log (a view holds only recent
        # events): a committed pick already lies in its picker's hand (the last card), a
        # chosen card in `chosen`, a tactics card in `tactics_played`; whether a tactics card
        # was placed is public.
        phase, fight = pub["phase"], pub["battle"]

        def choice(p: int) -> Action:
            if phase == DRAFT:
                return Action(p, "pick", (per["hand"][p][-1],))
            if phase == CHOOSE:
                return Action(p, "choose", (per["chosen"][p][0],))
            placed = fight["cards"][0 if p == fight["attacker"] else 1]
            return Action(p, "tactic", (per["tactics_played"][p][0],)) if placed else Action(p, "notactic")

        commits = rebuild_commits(pub["commit_players"], pub["committed"], choice,
                                  ordered=phase == TACTIC).to_json()
    battle = None
    if pub["battle"]:
        battle = dict(pub["battle"])
        cards = []
        for i, p in enumerate((battle["attacker"], battle["defender"])):
            placed = per["tactics_played"][p] if p >= 0 and battle["cards"][i] else []
            cards.append(placed[0] if placed else -1)
        battle["cards"] = cards
    data = {
        **per, "domain": [list(x) for x in z["domain"]],
        "draft_deck": draft_deck, "draft_discard": list(z["draft_discard"]), "event_deck": event_deck,
        "event_discard": list(z["event_discard"]), "honours": list(z["honours"]),
        "tactics_deck": tactics_deck, "tactics_discard": list(z["tactics_discard"]),
        "order": list(pub["order"]), "owner": list(pub["owner"]), "soldiers": list(pub["soldiers"]),
        "gold": list(pub["gold"]), "vp": list(pub["vp"]), "battles_won": list(pub["battles_won"]),
        "marked": list(pub["marked"]), "active": [0 if (n == 3 and pr.three_player_out) else 1 for pr in game.board.provinces],
        "round": pub["round"], "turn": pub["turn_of_round"], "turn_index": pub["turn_index"],
        "pick_no": pub["pick_no"], "phase": pub["phase"],
        "castles": [[int(c), pr] for c, pr in pub["castles"].items()], "commits": commits,
        "battle": battle, "choosers": list(pub["choosers"]), "new_order": list(pub["new_order"]),
        "_base": base_json(game, rng, view["version"]),
    }
    data["_base"]["outcome"] = view["outcome"]                      # a finished game stays finished
    state = DaimyoState.from_json(game, data)
    assert isinstance(state, DaimyoState)
    return state
