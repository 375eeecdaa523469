"""Builders for precise Fuutei situations in rule tests.

    s = table(players=3)                 # a game after setup, every card back in the deck
    c = put(s, "aoi_kaze", party=0)      # a card by catalogue id into a zone
    s.rng = Scripted([6, 6, 3])          # the next dice faces, in order
"""
from __future__ import annotations

import takujo
from takujo.core.action import Action
from takujo.core.rng import Rng
from takujo.games.fuutei.state import MAIN, FuuteiState


class Scripted(Rng):
    """An RNG that returns scripted die faces (1..6) or indices, in order."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def below(self, n: int) -> int:
        if not self.values:
            raise AssertionError("the scripted RNG ran out of values")
        v = self.values.pop(0)
        return v - 1 if n == 6 else v

    def clone(self) -> "Scripted":
        return Scripted(self.values)


def table(players: int = 3, turn_player: int = 0, turns_taken: int = 2, **options) -> FuuteiState:
    """A state in the main phase of `turn_player`, with every card back in the deck.

    Each player has had `turns_taken` turns, so invasion is allowed unless it is 1.
    """
    s = takujo.load("fuutei", players=players, **options).new_state(0)
    s.reset_fields()
    s.deck = list(range(len(s.cat)))
    s.turn_player, s.turn = turn_player, 10
    s.turns_taken = [turns_taken] * players
    s.log = []
    return s


def card(s: FuuteiState, card_id: str, nth: int = 0) -> int:
    """The instance id of the nth copy of catalogue card `card_id`."""
    ids = s.cat.by_id(card_id)
    assert ids, f"no card {card_id!r} in the catalogue"
    return ids[nth]


def of_type(s: FuuteiState, card_type: str, exclude: tuple[str, ...] = ()) -> list[int]:
    return [c for c in s.cat.of_type(card_type) if s.cat[c].id not in exclude]


def _take(s: FuuteiState, c: int) -> None:
    for zone in (s.deck, s.discard, s.center, s.stack, *s.hands, *s.regions, *s.party):
        if c in zone:
            zone.remove(c)
            return
    raise AssertionError(f"card {c} not found in any zone")


def put(s: FuuteiState, what: str | int, *, hand: int | None = None, party: int | None = None,
        region: int | None = None, center: bool = False, deck_top: bool = False,
        equip_to: int | None = None, guards: list[int] | None = None, nth: int = 0) -> int:
    """Move a card (catalogue id or instance id) into one place; return its instance id."""
    c = what if isinstance(what, int) else card(s, what, nth)
    _take(s, c)
    if hand is not None:
        s.hands[hand].append(c)
    elif party is not None:
        s.party[party].append(c)
        for r in guards or []:
            s.guard[r] = c
    elif region is not None:
        s.regions[region].append(c)
    elif center:
        s.center.append(c)
    elif deck_top:
        s.deck.append(c)
    elif equip_to is not None:
        s.host[c] = equip_to
    else:
        raise AssertionError("say where to put the card")
    return c


def act(s: FuuteiState, text: str, player: int | None = None) -> None:
    s.apply(s.parse_action(text, player))


def legal(s: FuuteiState, player: int | None = None) -> set[str]:
    if player is None:
        player = s.pending.players[0]
    return {str(a) for a in s.legal_actions(player)}


def weak(s: FuuteiState, nth: int = 0) -> int:
    """A plain character id (the nth character that is not ヴァル or 蒼い風)."""
    return of_type(s, "character", exclude=("val", "aoi_kaze"))[nth]


__all__ = ["Action", "Scripted", "act", "card", "legal", "of_type", "put", "table", "weak"]


# ----- added for the battle rule tests ------------------------------------------------------------
def events(s: FuuteiState, kind: str) -> list[dict]:
    """The logged events of one kind, in order."""
    return [e for e in s.log if e["e"] == kind]


def to_battle(s: FuuteiState, char: int, region: int, dice: list[int] | tuple[int, ...] = (),
              support: tuple[int | None, int | None] = (None, None)) -> None:
    """From the turn player's main phase: end it, invade `region` with `char`, script the next
    dice faces, and (for a defended region) commit the invader's and the defender's battle
    support (None = no card)."""
    act(s, "end")
    act(s, f"invade {char} {region}")
    s.rng = Scripted(list(dice))
    if s.battle is not None and s.phase == "support":
        for p, c in zip(s.battle.players, support):
            act(s, "nosupport" if c is None else f"support {c}", p)


__all__ += ["events", "to_battle"]
