"""ドラフト戦国大名: the action layout and the observation declaration.

Card domains are typed from the card set. ``play c [t]`` has one case per kind of target:
a 城 names one of the player's provinces, a subversion or 謀反の兆し an enemy warlord card,
a neutral force's removal a province, and every other card nothing. ``march a b k`` has one
case per province a, with b among its neighbours only, k in 1..the most any march can
move (2 plus every 街道's bonus in the set).
"""
from __future__ import annotations

from typing import Any

from ..core.game import Game
from .actions import Dom, Slot, VerbShape
from .observe import (Bucket, Card, CardMap, Cards, Fixed, Flag, Frame, Ignore, ObsSpec, OneHot, PerSeat, Pool,
                      Positions, Scalar, Seat, Seats)

HIRE_MAX = 2
PHASES = ("order", "draft", "choose", "card", "basic", "basic_done", "tactic", "over")
PROMPTS = ("order", "draft", "choose", "card", "basic", "tactic")
DRAFT_KINDS = ("warlord", "development", "strategy")


def target_kind(spec: Any) -> str:
    """What playing the card names (as effects.play_targets decides): province, warlord or
    nothing."""
    if spec.castle:
        return "province"
    if spec.play is None:
        return "none"
    do = spec.play.do
    if do in ("subvert", "treason_mark"):
        return "warlord"
    if do == "remove_neutral":
        return "province"
    return "none"


def groups(game: Game) -> dict[str, list[int]]:
    cs = game.cards  # type: ignore[attr-defined]
    out: dict[str, list[int]] = {}
    for c, card in enumerate(cs.cards):
        out.setdefault(card.spec.type, []).append(c)
        if card.spec.type in DRAFT_KINDS:
            out.setdefault("draft", []).append(c)
            out.setdefault("play:" + target_kind(card.spec), []).append(c)
        if card.spec.castle:
            out.setdefault("castle", []).append(c)
    return out


def action_shapes(game: Game) -> list[VerbShape]:
    g = groups(game)
    board = game.board  # type: ignore[attr-defined]
    p_count = len(board)
    most = game.march_actions.cols - 1  # type: ignore[attr-defined]
    draft = Dom(g["draft"], "draft card")
    provinces = Dom.ints(p_count, name="province")
    warlords = Dom(g.get("warlord", []), "warlord")
    cases = []
    for kind, tail in (("none", ()), ("province", (Slot(provinces),)), ("warlord", (Slot(warlords),))):
        if g.get("play:" + kind):
            cases.append((Dom(g["play:" + kind], f"card naming {kind}"), tail))
    marches = tuple((Dom((a,), f"province {a}"), (Slot(Dom(sorted(board.adjacent[a]), "neighbour")),
                                                  Slot(Dom.ints(most, 1, name="soldiers"))))
                    for a in range(p_count) if board.adjacent[a])
    opts = game.options
    shapes = [
        VerbShape("rest"),
        VerbShape("pick", (Slot(draft),), note="draft pick, face down"),
        VerbShape("choose", (Slot(draft),), note="this turn's card, face down"),
        VerbShape("sell", (Slot(draft),)),
        VerbShape("play", cases=tuple(cases), note="with its target, if it names one"),
        VerbShape("hire", (Slot(Dom.ints(HIRE_MAX, 1, name="soldiers")),)),
        VerbShape("march", cases=marches, note="from a province to a neighbour"),
    ]
    if opts.turn_order_choice:  # type: ignore[attr-defined]
        shapes.append(VerbShape("order", (Slot(Dom.ints(game.players, 1, name="position")),)))
    if opts.tactics:  # type: ignore[attr-defined]
        shapes += [VerbShape("notactic"), VerbShape("tactic", (Slot(Dom(g["tactics"], "tactics")),))]
    return shapes


def obs_spec(game: Game) -> ObsSpec:
    g = groups(game)
    c = game.card_count
    p_count = len(game.board)  # type: ignore[attr-defined]
    cards = Pool.range("cards", c)
    draft = Pool("draft card", g["draft"])
    provinces = Pool.range("province", p_count)
    battle = Frame({
        "attacker": Seat(),
        "defender": Seat(-1),
        "from": Card(provinces),
        "to": Card(provinces),
        "k": Scalar(5),
        "cards": Fixed(2, Flag()),
    }, optional=True, name="battle")
    public = {
        "round": Bucket(1, 4),
        "turn": Scalar(16),
        "turn_of_round": Bucket(0, 4),
        "phase": OneHot(*PHASES),
        "order": Positions(None),
        "turn_player": Seat(),
        "owner": Fixed(p_count, Seat(-1, -2)),
        "soldiers": Fixed(p_count, Scalar(10)),
        "gold": PerSeat(Scalar(10)),
        "vp": PerSeat(Scalar(20)),
        "castles": CardMap(Pool("castle", g.get("castle", [])), provinces),
        "marked": Cards(Pool("warlord", g.get("warlord", []))),
        "battles_won": PerSeat(Scalar(5)),
        "battle": battle,
        "factions": Ignore("fixed by seat"),
        "turn_index": Scalar(4),
        "pick_no": Bucket(0, 5),
        "choosers": Positions(None),
        "new_order": Positions(None, -1),
        "committed": Seats(),
        "commit_players": Seats(),
    }
    tactics = Pool("tactics", g.get("tactics", []))
    return ObsSpec(
        pools={"cards": cards, "event": Pool("event", g.get("event", [])), "tactics": tactics},
        zone_pools={"draft_deck": draft, "draft_discard": draft, "packets": draft, "hand": draft, "chosen": draft,
                    "domain": draft, "event_discard": Pool("event", g.get("event", [])),
                    "honours": Pool("honour", g.get("honour", [])), "tactics_discard": tactics},
        public=public, prompts=PROMPTS)
