"""Builders for precise Draft Daimyo situations in rule tests.

    s = table(expansion=True, tactics=True)     # round 2, turn 1: seat 0's basic action
    c = card(s, "松永久秀")                      # a card id by Japanese name (in this set)
    c = choose(s, 0, "松永久秀")                  # seat 0 chose it this turn and plays it now
"""
from __future__ import annotations

import takujo
from takujo.core.action import Action
from takujo.games.draft_daimyo.state import BASIC, CARD, DaimyoState


def table(players: int = 4, **options) -> DaimyoState:
    """A fresh game with every card back in its deck (unshuffled), the starting map, nothing
    in hands, packets or domains, in the BASIC phase of seat 0 (turn order 0, 1, 2, 3), round 2
    turn 1, every player with 5 gold."""
    s = takujo.load("draft_daimyo", players=players, **options).new_state(0)
    s.reset_fields()
    s.lay_out()
    s.order = list(range(players))
    s.round, s.turn = 2, 1
    s.gold = [5] * players
    s.phase = BASIC
    s.log = []
    return s


def card(s: DaimyoState, name_ja: str, nth: int = 0) -> int:
    found = [c for c in range(len(s.cards.cards)) if s.cards[c].spec.name_ja == name_ja]
    assert len(found) > nth, f"no card {name_ja} #{nth} in this set"
    return found[nth]


def take(s: DaimyoState, c: int) -> int:
    for zone in (s.draft_deck, s.draft_discard, s.event_deck, s.event_discard, s.honours,
                 s.tactics_deck, s.tactics_discard, *s.hand, *s.packets, *s.chosen, *s.domain,
                 *s.tactics_hand, *s.tactics_played):
        if c in zone:
            zone.remove(c)
            return c
    raise AssertionError(f"card {c} is nowhere")


def to_domain(s: DaimyoState, p: int, name_ja: str, nth: int = 0) -> int:
    c = take(s, card(s, name_ja, nth))
    s.domain[p].append(c)
    return c


def choose(s: DaimyoState, p: int, name_ja: str, nth: int = 0) -> int:
    """Make `name_ja` the card p chose this turn, and p the player to play it now."""
    c = take(s, card(s, name_ja, nth))
    s.chosen[p] = [c]
    s.turn_index = s.order.index(p)
    s.phase = CARD
    return c


def province(s: DaimyoState, name_ja: str) -> int:
    return next(i for i, p in enumerate(s.board.provinces) if p.name_ja == name_ja)


def hold(s: DaimyoState, p: int, name_ja: str, soldiers: int) -> int:
    """Player p (or -1 neutral, -2 nobody) holds the province with that many soldiers."""
    i = province(s, name_ja)
    s.owner[i] = p
    s.soldiers[i] = soldiers
    return i


def act(s: DaimyoState, text: str, player: int | None = None) -> None:
    s.apply(s.parse_action(text, player))


def legal(s: DaimyoState, player: int | None = None) -> set[str]:
    if player is None:
        player = s.pending.players[0]
    return {str(a) for a in s.legal_actions(player)}


def events(s: DaimyoState, kind: str) -> list[dict]:
    return [e for e in s.log if e["e"] == kind]


__all__ = ["Action", "act", "card", "choose", "events", "hold", "legal", "province", "table",
           "take", "to_domain"]
