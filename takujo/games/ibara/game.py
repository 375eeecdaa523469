"""いばらの姫と4人の騎士 as a takujo Game: options and the content in play."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import Field

from ...core.action import Action, ActionTable
from ...core.cards import card_file_option
from ...core.effects import Verb
from ...core.game import Game, GameOptions
from ...core.plain import copy_plain
from ...core.targets import ArgKinds, Kind, Signature, Target
from . import board
from .content import CONTENT_FILE, SHIELD, SUIT_EN, SUITS, Content, check_for_game, content
from .effects import SP
from .schema import IbaraPublicView
from .state import IbaraState


class IbaraOptions(GameOptions):
    players: int = Field(4, ge=3, le=4, description="number of players (3-4)")
    mode: Literal["standard", "short"] = Field(
        "standard", description="short: 2 whims to win; fewer whims, events and jewels (IBR-SHORT)")
    multi_card_combat: bool = Field(False, description="the addendum's multi-card combat (IBR-COMBAT-MULTI)")
    anger_penalty: Literal["discard_one", "discard_all", "hybrid_event_one"] = Field(
        "discard_one", description="penalty of an anger explosion (IBR-ANGER)")
    sp_cards_to_hand: bool = Field(False, description="SP cards turned up at random go to a hand (IBR-SP)")
    gaiblitz_buff: bool = Field(False, description="ゲイブリッツ's revised ability (IBR-GABE)")
    ryan_last: bool = Field(False, description="ライアン's player takes the last turn (IBR-RYAN-02)")
    content: str = card_file_option("path of a content.toml instead of the built-in stand-in")


@dataclass(frozen=True, slots=True)
class Rules:
    """The options read during play, as plain attributes (quicker to read than a model's)."""

    gaiblitz_buff: bool
    multi_card_combat: bool
    sp_cards_to_hand: bool
    whims_needed: int         # whims held to leave by the gate


class IbaraGame(Game):
    name = "ibara"
    title = "いばらの姫と4人の騎士"
    Options = IbaraOptions
    State = IbaraState
    presentation = "takujo.games.ibara.render"
    heuristic = "takujo.games.ibara.heuristic:IbaraHeuristic"
    estimator = "takujo.games.ibara.heuristic:estimate"
    play_bot = "ismcts:1000"     # beats the heuristic at under 0.5 s a move (docs/bots.md)
    options: IbaraOptions
    PublicView = IbaraPublicView

    def _check_options(self, options: GameOptions) -> None:
        """Load the content and check it holds what this game needs (CardDataError)."""
        check_for_game(self.content, self.players, self.rules.whims_needed, len(self.whim_ids))

    @cached_property
    def content(self) -> Content:
        return content(self.options.content or str(CONTENT_FILE))

    @cached_property
    def rules(self) -> Rules:
        """The options read during play (options are frozen: read once)."""
        o = self.options
        whims_needed = 2 if o.mode == "short" else 3       # IBR-WIN-01, IBR-SHORT-03
        return Rules(o.gaiblitz_buff, o.multi_card_combat, o.sp_cards_to_hand, whims_needed)

    @cached_property
    def move_actions(self) -> ActionTable:
        """``move_actions.row(p, card)[square]``: move actions built once (move generation is
        the hottest part of a turn)."""
        return ActionTable("move", self.players, len(self.content.cards), board.GATE + 1)

    @cached_property
    def reach_cache(self) -> dict[int, tuple[int, ...]]:
        """This game's cache of reachable squares (`board.reachable`), bounded in size."""
        return {}

    @cached_property
    def plays_cache(self) -> dict[tuple[tuple[int, ...], int, bool, bool], tuple[tuple[int, ...], ...]]:
        """This game's cache of multi-card plays (`combat.legal_plays`), bounded in size."""
        return {}

    @cached_property
    def knight_kinds(self) -> tuple[str, ...]:
        """``knight_kinds[k]``: the kind of knight k."""
        return tuple(k.kind for k in self.content.knights)

    @cached_property
    def sp_actions(self) -> ActionTable:
        """``sp_actions.row(p, card)[square]``: SP cards played on a square, built once."""
        return ActionTable("sp", self.players, len(self.content.cards), board.GATE + 1)

    def sp_choices(self, p: int, c: int, verb: Verb, targets: list[tuple[Any, ...]]) -> list[Action]:
        """The actions ``sp c t…`` of player p for each of `targets` (what `verb.targets`
        gave): from the tables for none or one square or player, built otherwise."""
        sig = verb.target
        if not sig:
            return [self.card_actions["sp"].row(p, 0)[c]] if targets else []
        if len(sig) == 1 and sig[0].kind in TABLED:
            row = self.sp_actions.row(p, c)
            return [row[t] for (t,) in targets]
        return [Action(p, "sp", (c, *t)) for t in targets]

    @property
    def card_count(self) -> int:
        """Action cards, for ``card_actions[verb].row(p, 0)[card]`` (explore, sp, discard, fight)."""
        return len(self.content.cards)

    @cached_property
    def card_sp(self) -> tuple[str | None, ...]:
        """``card_sp[c]``: the SP effect of card c, None for a numbered card (or a shield)."""
        return tuple(card.sp for card in self.content.cards)

    @cached_property
    def card_move(self) -> tuple[int, ...]:
        """``card_move[c]``: how far card c moves the knight."""
        return tuple(card.move for card in self.content.cards)

    @cached_property
    def twins(self) -> tuple[int, ...]:
        """``twins[c]``: the first card identical to card c (same suit and number)."""
        first: dict[tuple[str | None, int], int] = {}
        return tuple(first.setdefault((card.suit, card.number), c) for c, card in enumerate(self.content.cards))

    @cached_property
    def _ids(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """Whims, events and item chips in play; short mode removes some (IBR-SHORT-04..06)."""
        c = self.content
        short = self.options.mode == "short"
        whims = [i for i, w in enumerate(c.whims) if not (short and w.short_remove)]
        events, items = [], []
        removed: dict[str, int] = {}
        for i, e in enumerate(c.events):
            if short and removed.get(e.id, 0) < e.short_remove:
                removed[e.id] = removed.get(e.id, 0) + 1
                continue
            events.append(i)
        for i, it in enumerate(c.items):
            if short and removed.get(it.id, 0) < it.short_remove:
                removed[it.id] = removed.get(it.id, 0) + 1
                continue
            items.append(i)
        return tuple(whims), tuple(events), tuple(items)

    @property
    def whim_ids(self) -> tuple[int, ...]:
        return self._ids[0]

    @property
    def event_ids(self) -> tuple[int, ...]:
        return self._ids[1]

    @property
    def item_ids(self) -> tuple[int, ...]:
        return self._ids[2]

    def parse_action(self, text: str, player: int) -> Action:
        """As usual; the cards of a combat play may be typed in any order."""
        action = super().parse_action(text, player)
        if action.verb in ("fight", "ring") and all(isinstance(a, int) for a in action.args):
            action = Action(player, action.verb, tuple(sorted(action.args)))
        return action

    def new_state(self, seed: int = 0) -> IbaraState:
        return IbaraState.new(self, seed)

    def determinize(self, view: dict[str, Any], rng: Any) -> IbaraState:
        from .determinize import determinize
        return determinize(self, view, rng)

    def seat_labels(self) -> list[str]:
        return []

    # ----- what action arguments name ------------------------------------------------------
    def _arg_kinds(self) -> ArgKinds:
        """Every verb Ibara offers: cards are action cards (a whim card for ``lose``), squares
        are places; an SP card is followed by the targets its verb declares (`effects.SP`)."""
        hand, square = Target.card("hand"), Target.place("square")
        return ArgKinds(fixed={
            **{verb: () for verb in ("end", "satisfy", "noring")},
            "move": (hand, square), "explore": (hand,), "discard": (hand,),
            "nofight": (hand,), "drop": (Target.card("play"),),
            "lose": (Target.card("whim"),),
            "gaiblitz": (Target.player(), Target.word("draw", "discard")),          # IBR-GABE-01
            "declare": (Target.number("cards"),),                                   # IBR-COMBAT-MULTI-03
            "choose": (Target.word(*SUITS, SHIELD),), "drop_suit": (Target.word(*SUITS, SHIELD),),
        }, by_card={"sp": (hand, _sp_tail)},
            repeated={"fight": hand, "ring": hand})                                # IBR-COMBAT-MULTI

    def places(self, of: str) -> list[int]:
        """The board's squares (0 the keep, 1..12 the ring, 13 the gate)."""
        return list(board.SQUARES) if of == "square" else []

    def place_names(self, of: str, place: Any) -> tuple[str, str]:
        """A square's (Japanese, English) names, as the log words it."""
        if of != "square":
            raise KeyError(place)
        return self._square_names[place]

    @cached_property
    def _square_names(self) -> dict[int, tuple[str, str]]:
        from .render import square_names
        return dict(square_names(self))

    # ----- the catalogue for clients and messages -----------------------------------------
    def card_names(self, card: Any) -> tuple[str, str]:
        """(Japanese, English) names of an action card id, or of a chip, whim, event or
        knight given as ``"item:3"``, ``"whim:5"``, ``"event:2"``, ``"knight:1"``."""
        c = self.content
        if isinstance(card, str) and ":" in card:
            kind, _, index = card.partition(":")
            table = {"item": c.items, "whim": c.whims, "event": c.events, "knight": c.knights}[kind]
            entry = table[int(index)]
            return entry.name_ja, entry.name_en
        a = c.cards[card]
        if a.sp is not None:
            sp = next(x for x in c.sps if x.effect == a.sp and x.name_ja == a.name)
            return sp.name_ja, sp.name_en
        return f"{a.suit}{a.number}", f"{SUIT_EN[a.suit]} {a.number}"

    def export_catalogue(self) -> dict[str, Any]:
        """Every action card, knight, item chip, whim and event (one entry a physical card),
        and the board's squares, with names and rules texts in both languages: a card's own
        text, or what its data says it does (a suit's rule, a whim's need, an event's effect)."""
        from ...present import LANGS, Renderer
        from . import render
        c = self.content
        say = [(lang, Renderer(self, lang, markup=False)) for lang in LANGS]

        def texts(kind: str, x: Any) -> dict[str, str]:
            return {f"text_{lang}": "\n".join(render.rules_text(self, kind, x, r)) for lang, r in say}

        sps = {(x.effect, x.name_ja): x for x in c.sps}
        cards = []
        for a in c.cards:
            ja, en = self.card_names(a.iid)
            entry: dict[str, Any] = {"id": a.iid, "type": "sp" if a.sp else "action", "name_ja": ja,
                                     "name_en": en, "suit": a.suit, "number": a.number, "move": a.move}
            if a.sp:
                entry.update(sp=a.sp, **texts("sp", sps[a.sp, a.name]))
            else:
                entry.update(texts("action", a))
            cards.append(entry)

        def entries(kind: str, table: tuple[Any, ...], fields: tuple[str, ...] = ()) -> list[dict[str, Any]]:
            return [{"id": i, "type": kind, "key": x.id, "name_ja": x.name_ja, "name_en": x.name_en,
                     **texts(kind, x), **{k: copy_plain(getattr(x, k)) for k in fields}}
                    for i, x in enumerate(table)]

        names = dict(render.square_names(self))
        return {
            "game": self.name, "title": self.title, "set": c.meta.get("set", ""),
            "stand_in": bool(c.meta.get("stand_in", False)),
            "note_ja": c.meta.get("note_ja", ""), "note_en": c.meta.get("note_en", ""), "cards": cards,
            "knights": entries("knight", c.knights, ("kind",)),
            "items": entries("item", c.items),
            "whims": entries("whim", c.whims, ("limit", "items", "deed", "square")),
            "events": entries("event", c.events, ("effect",)),
            "board": [{"id": sq, "name_ja": names[sq][0], "name_en": names[sq][1],
                       "links": list(board.ADJ[sq]), "explore": sq in board.CORNERS} for sq in board.SQUARES],
        }


#: target kinds whose values are small ints: an SP card's actions on one come from a table
TABLED = frozenset({Kind.PLACE, Kind.PLAYER})


def _sp_tail(game: Game, card: int) -> Signature:
    """The targets an SP card's verb declares (none for any other card)."""
    sp = game.card_sp[card] if 0 <= card < game.card_count else None  # type: ignore[attr-defined]
    verb = SP.get(sp) if sp is not None else None
    return verb.target if verb is not None else ()
