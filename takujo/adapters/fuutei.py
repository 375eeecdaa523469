"""風帝伝説FIGHTER: the action layout and the observation declaration.

Card domains are typed from the catalogue (a card's type never changes). A party holds
characters and the hold cards that join as temporary characters (``temporary_character``),
so "party" is the union of both.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.game import Game
from .actions import Dom, Slot, VerbShape, card_led_shape, target_dom
from .observe import (Bucket, Card, CardMap, Cards, Ctx, Custom, Fixed, Flag, Frame, Ignore, Last, ObsSpec,
                      OneHot, PerSeat, Pool, Scalar, Seat, Seats)

PROMPTS = ("main", "battle", "hand", "battle_support", "attack", "persuade", "reassign", "tawake")
PHASES = ("main", "battle", "hand", "support", "attack", "persuade", "reassign", "over")


def card_groups(game: Game) -> dict[str, list[int]]:
    cat = game.catalogue  # type: ignore[attr-defined]
    types = cat.types
    groups: dict[str, list[int]] = {}
    for c in range(len(cat)):
        groups.setdefault(types[c], []).append(c)
    groups["party"] = sorted(groups.get("character", []) + [
        c.iid for c in cat.cards if c.type == "hold" and c.effect is not None and c.effect.do == "temporary_character"])
    groups["hand"] = [c for c in range(len(cat)) if types[c] not in ("region", "event")]
    return groups


def action_shapes(game: Game) -> list[VerbShape]:
    g = card_groups(game)
    dom = {k: Dom(v, k) for k, v in g.items()}
    return [
        VerbShape("end"), VerbShape("pass"), VerbShape("persuade"), VerbShape("decline"), VerbShape("done"),
        VerbShape("nosupport"), VerbShape("allow"),
        VerbShape("attack", (Slot(Dom.words("phys", "mag")),)),
        VerbShape("play", (Slot(dom["character"]),), note="a character from the hand"),
        VerbShape("equip", (Slot(dom["equipment"]), Slot(dom["party"])), note="equipment on an own character"),
        card_led_shape("hold", g.get("hold", []), lambda c: game.arg_table.tail_of(game, "hold", c),
                       lambda t: target_dom(t, game.players, g.__getitem__, lambda of: []),
                       note="a hold card, with the targets its effect declares"),
        VerbShape("guard", (Slot(dom["region"]), Slot(dom["party"])), note="own region, defender"),
        VerbShape("unguard", (Slot(dom["region"]),)),
        VerbShape("invade", (Slot(dom["party"]), Slot(dom["region"])), note="free character, target region"),
        VerbShape("discard", (Slot(dom["hand"]),), note="hand card (hand phase)"),
        VerbShape("support", (Slot(dom["battle_support"]),), note="battle support, face down"),
        VerbShape("tawake", (Slot(dom["tawake"]),), note="negate with たわけ！"),
    ]


def _queue(out: np.ndarray, value: Any, ctx: Ctx, pool: Pool) -> None:
    # revealed battle support cards still to resolve: [side, card], per side a multi-hot
    for side, card in value or ():
        out[side * pool.size + pool.slot(card)] = 1.0


def _dice(out: np.ndarray, value: Any, ctx: Ctx) -> None:
    # per side: how many extra dice and their sum / 6
    for side, faces in enumerate(value or ()):
        out[2 * side] = len(faces)
        out[2 * side + 1] = sum(faces) / 6.0


def _gains(out: np.ndarray, value: Any, ctx: Ctx) -> None:
    # reassignments still to make: how many per relative seat
    for player, cards in value or ():
        out[ctx.rel(player)] += 1.0


def obs_spec(game: Game) -> ObsSpec:
    g = card_groups(game)
    c = len(game.catalogue)  # type: ignore[attr-defined]
    cards = Pool.range("cards", c)
    party, region, equipment = Pool("party", g["party"]), Pool("region", g["region"]), Pool("equipment", g["equipment"])
    support = Pool("battle_support", g.get("battle_support", []))
    battle = Frame({
        "players": Fixed(2, Seat(-1)),                   # invader, owner (-1: the centre)
        "chars": Fixed(2, Card(party)),                  # -1: undefended
        "regions": Cards(region),
        "mods": Fixed(2, Fixed(6, Scalar(6))),
        "queue": Custom(lambda n: 2 * support.size, lambda o, v, x: _queue(o, v, x, support), "per side"),
        "order": Custom(lambda n: 1, _order, "1 if the defender strikes first"),
        "strike": Bucket(0, 2),
        "actor": Seat(),
        "defeated": OneHot(-1, 0, 1),
        "persuade": Card(party),
        "gains": Custom(lambda n: n, _gains, "per seat"),
        "gained": Cards(cards),
        "extra_dice": Custom(lambda n: 4, _dice, "per side: count, sum/6"),
    }, optional=True, name="battle")
    window = Frame({
        "kind": Ignore("always tawake"),
        "order": Seats(),
        "pos": Ignore("the responder is the pending decision's player"),
        "data": Frame({
            "for": OneHot("hold", "support"),
            "card": Card(cards),
            "user": Seat(),
            "targets": Cards(cards),
            "side": OneHot(None, 0, 1),
            "roll": Scalar(6),
            "faces": Custom(lambda n: 2, lambda o, v, x: _faces(o, v), "count, sum/6"),
        }, name="data"),
        "cycle": Ignore("never in 風帝伝説"),
        "passes": Scalar(6),
    }, name="window")
    public = {
        "turn": Scalar(100),
        "turn_player": Seat(),
        "phase": OneHot(*PHASES),
        "points": PerSeat(Scalar(40)),
        "threshold": Scalar(40),
        "guard": CardMap(region, party),
        "host": CardMap(equipment, party),
        "temporary": Cards(party),
        "sealed": Cards(party),
        "turns_taken": PerSeat(Scalar(50)),
        "pile_emptied": Flag(),
        "failed_draw": Flag(),
        "battle": battle,
        "windows": Last(window),
        "committed": Seats(),
        "guard_changes": Scalar(40),
    }
    stack = Pool("hold|battle_support", sorted(g.get("hold", []) + g.get("battle_support", [])))
    return ObsSpec(pools={"cards": cards}, public=public, prompts=PROMPTS,
                   zone_pools={"center": region, "regions": region, "party": party, "equipment": equipment,
                               "stack": stack})


def _order(out: np.ndarray, value: Any, ctx: Ctx) -> None:
    if value and value[0] == 1:
        out[0] = 1.0


def _faces(out: np.ndarray, value: Any) -> None:
    if value:
        out[0] = len(value)
        out[1] = sum(value) / 6.0
