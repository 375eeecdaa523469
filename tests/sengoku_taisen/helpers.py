"""Builders for precise 戦国大戦 双 situations in rule tests.

    s = table()                              # main phase of player 0, turn 3, all cards in decks
    w = put(s, "AK-02", 0, "camp")           # a card by number from p's deck into a zone
    give_koku(s, 0, "紅", 3)                 # three ready face-up 紅 kokuryoku
    act(s, "attack 12 castle")
    pass_battle(s)                           # both players pass the battle window
"""
from __future__ import annotations

import takujo
from takujo.core.action import Action
from takujo.core.decision import DecisionKind
from takujo.core.rng import Rng
from takujo.games.sengoku_taisen.state import MAIN, SengokuState


def table(deck1: str = "紅", deck2: str = "蒼", turn_player: int = 0, turn: int = 3, **options) -> SengokuState:
    """A state in `turn_player`'s main phase; every card of each player back in their deck,
    walls empty, the okugi face down, nothing placed."""
    s = takujo.load("sengoku_taisen", deck1=deck1, deck2=deck2, **options).new_state(0)
    g = s.game
    s.reset_fields()
    for p in (0, 1):
        s.deck[p] = list(g.deck_ids[p])
        s.ougi[p] = [g.ougi_ids[p]]
    s.turn, s.turn_player, s.phase = turn, turn_player, MAIN
    s.log = []
    return s


def ids(s: SengokuState, number: str, p: int) -> list[int]:
    """Instance ids of card `number` in player p's deck list (any zone)."""
    return [c for c in range(len(s.inst)) if s.owner[c] == p and s.inst[c].number == number]


def _take(s: SengokuState, c: int) -> None:
    for spec in s.ZONES:
        for zone in s.zone(spec.name):
            if c in zone:
                zone.remove(c)
                return
    raise AssertionError(f"card {c} is in no zone")


def put(s: SengokuState, what: str | int, p: int, zone: str, *, nth: int = 0, placed_turn: int | None = None) -> int:
    """Move a card (number of p's deck, or an instance id) into zone `zone` of player p.

    Units put in the camp count as placed on an earlier turn unless `placed_turn` is given."""
    c = what if isinstance(what, int) else ids(s, what, p)[nth]
    _take(s, c)
    getattr(s, zone)[p].append(c)
    if zone == "camp":
        s.placed[c] = s.turn - 1 if placed_turn is None else placed_turn
    return c


def find(s: SengokuState, p: int, *, type: str | None = None, color: str | None = None,
         predicate=None) -> list[int]:
    """Instance ids of player p's cards matching the filters, in id order."""
    out = []
    for c in range(len(s.inst)):
        card = s.inst[c]
        if s.owner[c] != p or c in s.ougi[p] or c in s.ougi_up[p]:
            continue
        if type and card.type != type:
            continue
        if color and card.spec.color != color:
            continue
        if predicate and not predicate(card):
            continue
        out.append(c)
    return out


def give_koku(s: SengokuState, p: int, color: str | None, n: int, up: bool = True) -> list[int]:
    """n kokuryoku for p: face up of `color` (warlords of that colour), or face down."""
    pool = find(s, p, type="warlord", color=color) if up else find(s, p)
    got = []
    for c in pool:
        if len(got) == n:
            break
        if c in s.deck[p]:
            put(s, c, p, "koku_up" if up else "koku_down")
            got.append(c)
    assert len(got) == n, f"not enough cards for {n} kokuryoku"
    return got


def act(s: SengokuState, text: str, player: int | None = None) -> None:
    s.apply(s.parse_action(text, player))


def legal(s: SengokuState, player: int | None = None) -> set[str]:
    if player is None:
        player = s.pending.players[0]
    return {str(a) for a in s.legal_actions(player)}


def pass_battle(s: SengokuState) -> None:
    """Both players pass the open battle window, the one asked now first and then the other.

    The window polls both players whatever they hold (SGT-STRAT-05; who is asked is fixed
    from public facts): each is asked, may pass, and the window closes once both have passed
    in succession, after which the battle resolves."""
    assert s.windows and s.windows[-1].kind == "battle", "no battle window is open"
    depth = len(s.windows)
    first = s.windows[-1].responder
    for p in (first, 1 - first):
        assert s.pending.kind is DecisionKind.RESPONSE and s.pending.players == (p,)
        assert "pass" in legal(s, p)
        act(s, "pass", p)
    assert len(s.windows) < depth, "the window stayed open after both passed"


def events(s: SengokuState, kind: str) -> list[dict]:
    return [e for e in s.log if e["e"] == kind]


__all__ = ["Action", "Rng", "act", "events", "find", "give_koku", "ids", "legal", "pass_battle", "put", "table"]
