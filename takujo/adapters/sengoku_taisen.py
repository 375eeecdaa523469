"""戦国大戦 双: the action layout and the observation declaration.

Card ids are the game's instance ids (both decks and the two okugi), fixed once the game is
loaded (a deck left ``random`` is dealt its undrawn starter). Units are the warlord
instances and the summoned soldiers (tokens). The engine gives each token a new id from
``TOKEN_BASE`` on, never reused, and some warlords summon every turn, so token ids have no
bound; the layout numbers the tokens *in play* instead: token slot k is the k-th live
token in id order (the order they were summoned; every player sees the summons zones).
``action_canon`` and ``prepare_view`` rewrite ids to slots before indexing and encoding.
There are T slots: the summon counts of the instances when only one-shot effects summon
(a stratagem's effect or its counter: each instance fires once, the deck is never
reshuffled), else ``TOKEN_CAP`` (40: 600 games of 黒 against 黒 by the heuristic bot reached 25
tokens in play at most, random play 13); a
token past the last slot is refused by index() with a clear error, never wrapped.
The attack's mode word and the card that pays for it are set by the state (derived): they
are not encoded, and ``attack u t`` is unique in any legal list.

The target slot of a stratagem, a counter-stratagem, an ability and the okugi is laid out
from the target kind each card's effect verb declares (`Game.arg_table`, from
`effects.VERBS`), optional (an effect may take none): the units for every verb of the shipped
cards, and for a card aimed at another kind (a player) a case of its own (the okugi's and
the abilities' slot then takes the union of their kinds). With no card naming a target the
slot is the units' still, so the layout does not depend on which effects the decks hold.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import numpy as np

from ..core.action import Action
from ..core.game import Game
from ..core.targets import Signature, Target
from .actions import ActionIndexError, Dom, Slot, VerbShape, target_dom
from .observe import (Card, CardValues, ObservationError, Cards, Ctx, Custom, Flag, Frame, Ignore, Last, ObsSpec, OneHot, PerSeat,
                      Pool, Scalar, Seat)

TOKEN_BASE = 10_000
#: token slots when warlords summon (repeatable, so no bound from the cards): the heuristic
#: bot reached 25 tokens in play once in 600 games of 黒 against 黒, random play 13
TOKEN_CAP = 40
PROMPTS = ("mulligan", "koku", "main", "intercept", "counter_target", "discard", "battle_stratagem")
PHASES = ("mulligan", "koku", "main", "intercept", "counter", "discard", "over")
TROOPS = ("cavalry", "infantry", "gunner", "spear", "archer")


def token_bound(game: Game) -> int:
    """Token slots: the summon counts of every stratagem effect and counter of the instances
    (each fires at most once); TOKEN_CAP when a warlord's ability summons (repeatable)."""
    key = str(game)
    if key not in _BOUNDS:
        _BOUNDS[key] = _token_bound(game)
    return _BOUNDS[key]


_BOUNDS: dict[str, int] = {}


def _token_bound(game: Game) -> int:
    total = 0
    for card in game.instances:  # type: ignore[attr-defined]
        if any(ab.do == "summon" for ab in card.spec.abilities):
            return TOKEN_CAP
        for eff in (card.effect, card.counter):
            if eff is not None and eff.do == "summon":
                total += int(eff.get("count", 1))
    return min(total, TOKEN_CAP)


def _slot_map(live: Any, cap: int) -> dict[int, int]:
    live = sorted(live)
    if len(live) > cap:
        raise ActionIndexError(f"{len(live)} summoned soldiers in play, more than the {cap} token slots "
                               "of the layout")
    return {t: TOKEN_BASE + k for k, t in enumerate(live)}


def action_canon(state: Any) -> Callable[[Action], Action] | None:
    """Actions with token ids rewritten to token slots (None: no token in play, nothing to do)."""
    if not state.tokens:
        return None
    cap = token_bound(state.game)
    slots = _slot_map(state.tokens, cap)

    def canon(a: Action) -> Action:
        args = a.args
        if not any(type(x) is int and x >= TOKEN_BASE for x in args):
            return a
        out = []
        for x in args:
            if type(x) is int and x >= TOKEN_BASE:
                if x not in slots:
                    raise ActionIndexError(f"{a}: token {x} is not in play")
                x = slots[x]
            out.append(x)
        return Action(a.player, a.verb, tuple(out))
    return canon


def prepare_view(view: dict[str, Any], cap: int) -> dict[str, Any]:
    """The view with token ids rewritten to token slots (in place: views are fresh copies)."""
    pub = view["public"]
    b = pub["battle"]
    if not pub["tokens"] and (b is None or b["attacker"] < TOKEN_BASE and b["interceptor"] < TOKEN_BASE
                              and not (type(b["target"]) is int and b["target"] >= TOKEN_BASE)):
        return view
    slots = _slot_map([int(k) for k in pub["tokens"]], cap)

    def m(x: Any) -> Any:
        return slots.get(x, x) if type(x) is int else x

    def keys(d: dict[str, Any]) -> dict[str, Any]:
        return {str(m(int(k))): v for k, v in d.items()}

    view["zones"]["summons"] = [[m(t) for t in z] if isinstance(z, list) else z for z in view["zones"]["summons"]]
    for key in ("strength", "siege", "damage", "tokens", "placed", "attacks", "buff", "siege_buff"):
        pub[key] = keys(pub[key])
    pub["exhausted"] = [m(u) for u in pub["exhausted"]]
    pub["extra_used"] = [m(u) for u in pub["extra_used"]]
    pub["once_used"] = [f"{m(int(u))}:{i}" for u, i in (x.split(":") for x in pub["once_used"])]
    if b is not None:
        # a token of the battle may have left play already (then shown as none)
        for key in ("attacker", "target", "interceptor"):
            x = b[key]
            if type(x) is int and x >= TOKEN_BASE:
                b[key] = slots.get(x, -1)
    return view


def groups(game: Game) -> dict[str, list[int]]:
    inst = game.instances  # type: ignore[attr-defined]
    out: dict[str, list[int]] = {"deck": [], "warlord": [], "stratagem": [], "ability": []}
    for c, card in enumerate(inst):
        if card.type != "ougi":
            out["deck"].append(c)
        if card.type == "warlord":
            out["warlord"].append(c)
            if card.main_abilities:
                out["ability"].append(c)
        elif card.type == "stratagem":
            out["stratagem"].append(c)
    t = token_bound(game)
    out["tokens"] = list(range(TOKEN_BASE, TOKEN_BASE + t))
    out["unit"] = out["warlord"] + out["tokens"]
    return out


#: The card group of each card target's `Target.of` (`groups`).
CARD_GROUPS = {"unit": "unit", "hand": "deck", "discard": "deck", "camp": "warlord"}


def _dom_of(game: Game, g: dict[str, list[int]]) -> Callable[[Target], Dom]:
    """The domain of a declared target: units, deck cards, warlords, seats (`target_dom`)."""
    def cards(of: str) -> list[int]:
        return g[CARD_GROUPS.get(of, "deck")]
    return lambda t: target_dom(t, game.players, cards, game.places)


def _kinds(tails: Iterable[Signature]) -> list[Signature]:
    """The distinct target kinds named (first seen first), the units' when none is."""
    out: list[Signature] = []
    for sig in tails:
        if sig and sig not in out:
            out.append(sig)
    return out or [(Target.card("unit"),)]


def _aimed_slot(doms: list[Dom]) -> Slot:
    """An optional target slot over the domains of the kinds a verb's effects name."""
    return Slot(doms[0] if len(doms) == 1 else Dom.union(*doms), optional=True)


def _card_led(game: Game, verb: str, cards: Dom, dom_of: Callable[[Target], Dom], note: str) -> VerbShape:
    """``verb c [t]``: one case per target kind the cards' effects name; cards naming none
    go with the first (one kind: the plain layout, card then optional target)."""
    tail = {c: game.arg_table.tail_of(game, verb, int(c)) for c in cards.values}
    kinds = _kinds(tail.values())
    if len(kinds) == 1:
        return VerbShape(verb, (Slot(cards), _aimed_slot([dom_of(kinds[0][0])])), note=note)
    members: dict[Signature, list[Any]] = {sig: [] for sig in kinds}
    for c, sig in tail.items():
        members[sig or kinds[0]].append(c)
    return VerbShape(verb, cases=tuple((Dom(members[sig], f"{cards.name} naming {sig[0]}"),
                                        (Slot(dom_of(sig[0]), optional=True),)) for sig in kinds), note=note)


def _effect_kinds(game: Game, g: dict[str, list[int]]) -> tuple[list[Signature], list[Signature]]:
    """The target kinds the abilities of warlords and the two okugi name."""
    from ..games.sengoku_taisen.effects import effect_target
    inst = game.instances  # type: ignore[attr-defined]
    abilities = [effect_target(ab) for c in g["ability"] for _, ab, _, _ in inst[c].main_abilities]
    ougi = [effect_target(inst[c].effect) for c in game.ougi_ids]  # type: ignore[attr-defined]
    return _kinds(abilities), _kinds(ougi)


def action_shapes(game: Game) -> list[VerbShape]:
    g = groups(game)
    slots = game.fixed_actions.ability_slots  # type: ignore[attr-defined]
    unit = Dom(g["unit"], "unit")
    deck = Dom(g["deck"], "deck card")
    strat = Dom(g["stratagem"], "stratagem")
    dom_of = _dom_of(game, g)
    abilities, ougi = _effect_kinds(game, g)
    return [
        VerbShape("keep"), VerbShape("mulligan"), VerbShape("skip"), VerbShape("end"), VerbShape("pass"),
        VerbShape("nointercept"),
        VerbShape("koku", (Slot(deck), Slot(Dom.words("up", "down"))), note="hand card as kokuryoku"),
        VerbShape("deploy", (Slot(Dom(g["warlord"], "warlord")),)),
        VerbShape("discard", (Slot(deck),)),
        _card_led(game, "stratagem", strat, dom_of, "with 0 or 1 target unit"),
        VerbShape("ability", (Slot(Dom(g["ability"], "warlord with a main ability")),
                              Slot(Dom.ints(slots, name="ability slot")),
                              _aimed_slot([dom_of(sig[0]) for sig in abilities]))),
        VerbShape("ougi", (_aimed_slot([dom_of(sig[0]) for sig in ougi]),)),
        _card_led(game, "counter", strat, dom_of, "the wall's stratagem, aimed"),
        VerbShape("intercept", (Slot(unit),)),
        VerbShape("attack", (Slot(unit), Slot(Dom.union(Dom.words("castle"), unit, name="castle|unit")),
                             Slot(Dom.words("shippu", "muso"), derived=True),
                             Slot(deck, derived=True)),
                  note="mode and paying card set by the state"),
    ]


def obs_spec(game: Game) -> ObsSpec:
    g = groups(game)
    c = game.card_count
    slots = game.fixed_actions.ability_slots  # type: ignore[attr-defined]
    cards = Pool.range("cards", c)
    units = Pool("unit", g["unit"])
    tokens = Pool("tokens", g["tokens"])
    strat = Pool("stratagem", g["stratagem"])
    anything = Pool("card or token", list(range(c)) + g["tokens"])
    t = len(g["tokens"])

    def token_frames(out: np.ndarray, value: Any, ctx: Ctx) -> None:
        # per token slot: present, owner (relative, 2), strength/1000, siege/3, troop (5)
        for key, tok in value.items():
            at = tokens.slot(int(key)) * 10
            if set(tok) - {"owner", "strength", "siege", "unit"}:
                raise ObservationError(f"token keys {sorted(tok)}")
            out[at] = 1.0
            out[at + 1 + ctx.rel(tok["owner"])] = 1.0
            out[at + 3] = tok["strength"] / 1000.0
            out[at + 4] = tok["siege"] / 3.0
            out[at + 5 + TROOPS.index(tok["unit"])] = 1.0

    def once(out: np.ndarray, value: Any, ctx: Ctx) -> None:
        for key in value:
            u, i = key.split(":")
            out[units.slot(int(u)) * slots + int(i)] = 1.0

    def target(out: np.ndarray, value: Any, ctx: Ctx) -> None:
        if value == "castle":
            out[0] = 1.0
        elif value is not None and value != -1:
            out[1 + units.slot(value)] = 1.0

    def counters(out: np.ndarray, value: Any, ctx: Ctx) -> None:
        # the one to resolve first (one-hot), then every waiting one by owner (relative)
        for k, (owner, card) in enumerate(value):
            if k == 0:
                out[strat.slot(card)] = 1.0
            out[(1 + ctx.rel(owner)) * strat.size + strat.slot(card)] = 1.0

    def window_data(out: np.ndarray, value: Any, ctx: Ctx) -> None:
        if value:
            raise ObservationError(f"a battle window's data is empty in this game, not {value!r}")

    battle = Frame({
        "attacker": Card(units),
        "player": Seat(),
        "target": Custom(lambda n: 1 + units.size, target, "castle, or the unit"),
        "interceptor": Card(units),
    }, optional=True, name="battle")
    window = Frame({
        "kind": Ignore("always battle"), "order": Ignore("both players, the turn player first"),
        "pos": Ignore("the responder is the pending decision's player"),
        "data": Custom(lambda n: 0, window_data, "empty"), "cycle": Ignore("always true"),
        "passes": Scalar(2),
    }, name="window")
    public = {
        "turn": Scalar(30),
        "turn_player": Seat(),
        "first_player": Seat(),
        "phase": OneHot(*PHASES),
        "exhausted": Cards(anything),
        "koku_down_exhausted": PerSeat(Scalar(10)),
        "strength": CardValues(units, 1000),
        "siege": CardValues(units, 3),
        "damage": CardValues(units, 1000),
        "tokens": Custom(lambda n: 10 * t, token_frames, "per token: present, owner, strength, siege, troop"),
        "placed": CardValues(units, 30),
        "attacks": CardValues(units, 2),
        "ougi_used": PerSeat(Flag()),
        "battle": battle,
        "counters": Custom(lambda n: (1 + n) * strat.size, counters, "first, and all by owner"),
        "buff": CardValues(units, 1000),
        "siege_buff": CardValues(units, 3),
        "extra_used": Cards(units),
        "once_used": Custom(lambda n: units.size * slots, once, "unit x ability slot"),
        "next_token": Custom(lambda n: 1, lambda o, v, x: o.__setitem__(0, (v - TOKEN_BASE) / max(1, t)),
                             "tokens made so far / T"),
        "windows": Last(window),
    }
    return ObsSpec(pools={"cards": cards, "ougi": Pool("ougi", game.ougi_ids)},  # type: ignore[attr-defined]
                   zone_pools={"summons": tokens, "camp": Pool("warlord", g["warlord"]), "field": strat,
                               "ougi_up": Pool("ougi", game.ougi_ids),  # type: ignore[attr-defined]
                               "hand": Pool("deck card", g["deck"]), "koku_up": Pool("deck card", g["deck"]),
                               "koku_down": Pool("deck card", g["deck"])},
                   public=public, prompts=PROMPTS,
                   prepare=lambda view: prepare_view(view, t))
