"""ドラフト戦国大名: the action layout and the observation declaration.

Card domains are typed from the card set. ``play c [t]`` has one case per kind of target the
card's play declares (`takujo.games.draft_daimyo.effects.play_signature`, read through the
game's argument kinds): a 城 names a province, so does a neutral force's removal, a
subversion or 謀反の兆し a warlord card, and most cards nothing. ``march a b k`` has one case
per province a, with b among its neighbours only, k in 1..the most any march can move (2
plus every 街道's bonus in the set).
"""
from __future__ import annotations

from typing import Any

from ..core.game import Game
from ..core.targets import Target
from .actions import Dom, Slot, VerbShape, card_led_shape, target_dom
from .observe import (Bucket, Card, CardMap, Cards, Fixed, Flag, Frame, Ignore, ObsSpec, OneHot, PerSeat, Pool,
                      Positions, Scalar, Seat, Seats)

HIRE_MAX = 2
PHASES = ("order", "draft", "choose", "card", "basic", "basic_done", "tactic", "over")
PROMPTS = ("order", "draft", "choose", "card", "basic", "tactic")
DRAFT_KINDS = ("warlord", "development", "strategy")


def groups(game: Game) -> dict[str, list[int]]:
    cs = game.cards  # type: ignore[attr-defined]
    out: dict[str, list[int]] = {}
    for c, card in enumerate(cs.cards):
        out.setdefault(card.spec.type, []).append(c)
        if card.spec.type in DRAFT_KINDS:
            out.setdefault("draft", []).append(c)
        if card.spec.castle:
            out.setdefault("castle", []).append(c)
    return out


def action_shapes(game: Game) -> list[VerbShape]:
    g = groups(game)
    board = game.board  # type: ignore[attr-defined]
    p_count = len(board)
    most = game.march_actions.cols - 1  # type: ignore[attr-defined]
    draft = Dom(g["draft"], "draft card")

    def dom_of(target: Target) -> Dom:
        """A card target of a group by type ("warlord"), else any card; a place a province."""
        return target_dom(target, game.players, lambda of: g.get(of) or range(game.card_count), game.places)

    play = card_led_shape("play", g["draft"], lambda c: game.arg_table.tail_of(game, "play", c), dom_of,
                          note="with its target, if it names one")
    marches = tuple((Dom((a,), f"province {a}"), (Slot(Dom(sorted(board.adjacent[a]), "neighbour")),
                                                  Slot(Dom.ints(most, 1, name="soldiers"))))
                    for a in range(p_count) if board.adjacent[a])
    opts = game.options
    shapes = [
        VerbShape("rest"),
        VerbShape("pick", (Slot(draft),), note="draft pick, face down"),
        VerbShape("choose", (Slot(draft),), note="this turn's card, face down"),
        VerbShape("sell", (Slot(draft),)),
        play,
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
