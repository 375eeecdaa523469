"""いばらの姫と4人の騎士: the action layout and the observation declaration.

Moves and explorations take numbered cards (and shields), ``sp`` the SP cards, each followed
by the targets its verb declares (`takujo.games.ibara.effects.SP`: a square, a player …, laid
out by kind); combat cards range over every card. With ``multi_card_combat`` a fight or a ring play is a sorted set of
cards of any size (the hand has no cap during a turn), which no fixed index can number
exactly: ``fight`` and ``ring`` become subset verbs, chosen card by card in a selection
sub-turn (``fight+ c`` … then ``fight.``; takujo.adapters.driver). ``declare k`` ranges over
0..C for the same reason.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.game import Game
from ..core.targets import Target
from .actions import Dom, Slot, VerbShape, card_led_shape, target_dom
from .observe import (Bucket, Cards, Ctx, Custom, Fixed, Flag, Frame, ObsSpec, OneHot, PerSeat, Pool, Positions,
                      Scalar, Seat, Seats)

PHASES = ("act", "discard", "penalty", "gabe_discard", "combat_declare", "combat_play", "combat_ring",
          "combat_choose", "combat_drop", "over")
PROMPTS = PHASES[:-1]
SUITS = ("剣", "巻物", "拳", "盾")


def _board() -> Any:
    from ..games.ibara import board
    return board


def action_shapes(game: Game) -> list[VerbShape]:
    content = game.content  # type: ignore[attr-defined]
    rules = game.rules  # type: ignore[attr-defined]
    board = _board()
    c = len(content.cards)
    cards = Dom.ints(c, name="card")
    numbered = Dom([x.iid for x in content.cards if x.sp is None], "numbered card")
    sp = [x.iid for x in content.cards if x.sp is not None]
    squares = Dom(board.SQUARES, "square")
    groups = {"whim": range(len(content.whims))}

    def dom_of(target: Target) -> Dom:
        return target_dom(target, game.players, lambda of: groups.get(of, range(c)), game.places)
    multi = rules.multi_card_combat
    shapes = [
        VerbShape("end"), VerbShape("satisfy"), VerbShape("noring"),
        VerbShape("move", (Slot(numbered), Slot(squares)), note="a card's move to a square"),
        card_led_shape("sp", sp, lambda card: game.arg_table.tail_of(game, "sp", card), dom_of,
                       note="an SP card, then the targets its verb declares"),
        VerbShape("explore", (Slot(numbered),)),
        VerbShape("discard", (Slot(cards),)),
        VerbShape("nofight", (Slot(cards),), note="a card that counts as none"),
        VerbShape("lose", (Slot(Dom.ints(len(content.whims), name="whim")),)),
    ]
    if multi:
        shapes += [
            VerbShape("fight", subset=cards, note="a set of cards, card by card"),
            VerbShape("ring", subset=cards, note="悪運の指輪's second play, card by card"),
            VerbShape("declare", (Slot(Dom.ints(c + 1, name="count")),)),
            VerbShape("choose", (Slot(Dom.words(*SUITS)),)),
            VerbShape("drop_suit", (Slot(Dom.words(*SUITS)),)),
            VerbShape("drop", (Slot(cards),)),
        ]
    else:
        shapes += [VerbShape("fight", (Slot(cards),)), VerbShape("ring", (Slot(cards),))]
    if rules.gaiblitz_buff:
        shapes.append(VerbShape("gaiblitz", (Slot(Dom.ints(game.players, name="player")),
                                             Slot(Dom.words("draw", "discard")))))
    return shapes


def obs_spec(game: Game) -> ObsSpec:
    content = game.content  # type: ignore[attr-defined]
    board = _board()
    c = len(content.cards)
    cards = Pool.range("cards", c)
    whims = Pool.range("whim", len(content.whims))
    square = OneHot(-1, *board.SQUARES)

    def whim_up(out: np.ndarray, value: Any, ctx: Ctx) -> None:
        # the face-up whim (one-hot), then every whim in the pile (multi-hot)
        for k, w in enumerate(value):
            if k == 0:
                out[whims.slot(w)] = 1.0
            out[whims.size + whims.slot(w)] = 1.0

    combat = Frame({
        "players": Fixed(2, Seat()),
        "came_from": square,
        "size": Fixed(2, Scalar(5)),
        "plays": Fixed(2, Cards(cards)),
        "chosen": Fixed(2, OneHot("", *SUITS)),
        "ring": Fixed(2, Flag()),
        "ring_turn": Bucket(0, 2),
        "declared": Bucket(0, 2),
        "choosing": OneHot(-1, 0, 1),
        "drops": Scalar(5),
    }, optional=True, name="combat")
    public = {
        "turn": Scalar(50),
        "round": Scalar(20),
        "turn_player": Seat(),
        "phase": OneHot(*PHASES),
        "order": Positions(None),
        "knights": PerSeat(OneHot(*range(len(content.knights)))),
        "pos": PerSeat(square),
        "princess": square,
        "escort": Seat(-1),
        "event_marker": square,
        "irritation": Scalar(10),
        "whims_needed": Scalar(3),
        "explored": Scalar(2),
        "combat": combat,
        "turn_index": Scalar(4),
        "gabe_used": Flag(),
        "gabe_target": Seat(-1),
        "gabe_left": Scalar(3),
        "moved": Flag(),
        "ending": Flag(),
        "penalty_player": Seat(-1),
        "committed": Seats(),
        "commit_players": Seats(),
    }
    multi = game.rules.multi_card_combat  # type: ignore[attr-defined]
    return ObsSpec(
        pools={"cards": cards, "whim": whims, "item": Pool.range("item", len(content.items)),
               "event": Pool.range("event", len(content.events))},
        zone_features={"whim_up": Custom(lambda n: 2 * whims.size, whim_up, "face-up whim, and the pile")},
        public=public, prompts=PROMPTS,
        selection_verbs=("fight", "ring") if multi else (), selection_pool=cards if multi else None)
