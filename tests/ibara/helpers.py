"""Builders for precise Ibara situations in rule tests.

    s = table(knights=["gaiblitz", "sion", "mireille", "ryan"])   # seat p plays knights[p]
    place(s, 0, 5); place(s, 1, 6)
    c = card(s, "剣", 8)             # an action card by suit and number (from the deck)
    give(s, 0, c)                    # into player 0's hand
    stack(s, [card(s, "拳", 3)])     # the next cards flipped/drawn, top last
"""
from __future__ import annotations

import takujo
from takujo.core.action import Action
from takujo.games.ibara import board
from takujo.games.ibara.state import IbaraState


def table(players: int = 4, knights: list[str] | None = None, **options) -> IbaraState:
    """A state in the action phase of seat 0's turn; all cards back in their decks, no whim
    face up, the princess in the keep, knights on squares 2, 5, 8, 11."""
    s = takujo.load("ibara", players=players, **options).new_state(0)
    s.reset_fields()
    c = s.content
    ids = {k.id: i for i, k in enumerate(c.knights)}
    order = knights or ["gaiblitz", "sion", "mireille", "ryan"][:players]
    s.knights = [ids[k] for k in order]
    s.order = list(range(players))
    s.deck = list(range(len(c.cards)))
    s.item_pool = list(s.game.item_ids)
    s.whim_deck = list(s.game.whim_ids)
    s.event_deck = list(s.game.event_ids)
    s.pos = [2, 5, 8, 11][:players]
    s.event_pos = 3
    s.turn, s.round = 5, 2
    s.log = []
    return s


def card(s: IbaraState, suit: str | None, number: int = 0, nth: int = 0, sp: str | None = None) -> int:
    """An action card id by suit and number (or an SP card by effect), wherever it is."""
    found = [i for i, c in enumerate(s.content.cards)
             if (sp is not None and c.sp == sp) or (sp is None and c.suit == suit and c.number == number)]
    assert len(found) > nth, f"no card {suit}{number} #{nth}"
    return found[nth]


def _take(s: IbaraState, c: int) -> None:
    for zone in (s.deck, s.discard, *s.hands, *s.played, *s.shown):
        if c in zone:
            zone.remove(c)
            return
    raise AssertionError(f"card {c} is nowhere")


def give(s: IbaraState, p: int, *cards: int) -> None:
    for c in cards:
        _take(s, c)
        s.hands[p].append(c)


def stack(s: IbaraState, cards: list[int]) -> None:
    """Put cards on top of the deck; the LAST one is flipped or drawn first."""
    for c in cards:
        _take(s, c)
        s.deck.append(c)


def place(s: IbaraState, p: int, square: int) -> None:
    s.pos[p] = square
    if s.escort == p:
        s.princess = square


def escort(s: IbaraState, p: int) -> None:
    s.escort = p
    s.princess = s.pos[p]


def item(s: IbaraState, item_id: str, nth: int = 0) -> int:
    return [i for i in s.item_pool if s.content.items[i].id == item_id][nth]


def give_item(s: IbaraState, p: int, item_id: str) -> int:
    i = item(s, item_id)
    s.item_pool.remove(i)
    s.items[p].append(i)
    return i


def whim(s: IbaraState, whim_id: str, nth: int = 0) -> int:
    return [w for w in range(len(s.content.whims)) if s.content.whims[w].id == whim_id][nth]


def show_whim(s: IbaraState, whim_id: str, irritation: int = 0) -> int:
    """Turn up a given whim card (from the whim deck)."""
    w = whim(s, whim_id)
    s.whim_deck.remove(w)
    s.whim_up = [w]
    s.irritation = irritation
    return w


def hold_whims(s: IbaraState, p: int, *whim_ids: str) -> list[int]:
    out = []
    for wid in whim_ids:
        w = next(x for x in s.whim_deck if s.content.whims[x].id == wid)
        s.whim_deck.remove(w)
        s.whims[p].append(w)
        out.append(w)
    return out


def event(s: IbaraState, event_id: str) -> int:
    """Put the given event card on top of the event deck."""
    e = next(x for x in s.event_deck if s.content.events[x].id == event_id)
    s.event_deck.remove(e)
    s.event_deck.append(e)
    return e


def act(s: IbaraState, text: str, player: int | None = None) -> None:
    s.apply(s.parse_action(text, player))


def legal(s: IbaraState, player: int | None = None) -> set[str]:
    if player is None:
        player = s.pending.players[0]
    return {str(a) for a in s.legal_actions(player)}


def events(s: IbaraState, kind: str) -> list[dict]:
    return [e for e in s.log if e["e"] == kind]


__all__ = ["Action", "act", "board", "card", "escort", "event", "events", "give", "give_item",
           "hold_whims", "item", "legal", "place", "show_whim", "stack", "table", "whim"]
