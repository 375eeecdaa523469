"""The effect vocabulary of いばらの姫と4人の騎士: what event cards and SP cards do.

Content names an effect (an event's ``effect = {do = "draw", n = 2}``, an SP card's
``effect = "teleport"``); `EVENTS` and `SP` hold one entry per verb: its parameters, its
targets and their kinds, whom it is for and what it does. The content loader takes its
vocabulary from them and refuses any other verb or parameter (`content.py`).

Every ``resolve(state, player, effect, targets)`` carries the effect out for `player`:
`effect` is the event's effect table (an SP card names a verb only: an empty one), `targets`
the target chosen (an event takes none). An SP verb's ``targets(state, player, card)`` lists
its legal choices (``[()]``: used with no target; ``[]``: not usable now).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ...core.effects import Verbs
from ...core.piles import discard_card
from ...core.targets import Target
from . import board

if TYPE_CHECKING:
    from .state import IbaraState

Targets = tuple[int, ...]
#: the one choice of a card used with no target
NO_TARGET: list[Targets] = [()]
#: an SP card's effect: it names a verb, with no parameters
NO_PARAMS: Mapping[str, Any] = {}
#: ``ONE[sq]`` is the target choice ``(sq,)``, made once
ONE = tuple((sq,) for sq in board.SQUARES)
SQUARE = Target.place("square")

#: Event cards: what stepping onto the event marker does (IBR-ANGER-04 for irritation).
EVENTS = Verbs()
#: SP cards: played in the action step, with their targets.
SP = Verbs()


# ----- events -------------------------------------------------------------------------------
@EVENTS.verb("gain_item", types={"event"}, params={"item"}, required={"item"}, aim="own", worth=2)
def _gain_item(s: "IbaraState", p: int, eff: Mapping[str, Any], targets: Targets) -> bool:
    s.gain_item(p, eff["item"])
    return True


@EVENTS.verb("random_item", types={"event"}, aim="own", worth=2)
def _random_item(s: "IbaraState", p: int, eff: Mapping[str, Any], targets: Targets) -> bool:
    s.gain_item(p, None)
    return True


@EVENTS.verb("draw", types={"event"}, params={"n"}, aim="own", worth=1)
def _draw(s: "IbaraState", p: int, eff: Mapping[str, Any], targets: Targets) -> bool:
    s.draw(p, int(eff.get("n", 1)))
    return True


@EVENTS.verb("discard_random", types={"event"}, params={"n"}, aim="foe", worth=1)
def _discard_random(s: "IbaraState", p: int, eff: Mapping[str, Any], targets: Targets) -> bool:
    hand = s.hands[p]
    for _ in range(int(eff.get("n", 1))):
        if hand:
            discard_card(s, p, hand[s.pick(len(hand), "discard_random", player=p)], hand, s.discard)
    return True


@EVENTS.verb("random_placement", types={"event"}, aim="foe", worth=1)
def _random_placement(s: "IbaraState", p: int, eff: Mapping[str, Any], targets: Targets) -> bool:
    s.random_place_knight(p, "event")
    return True


@EVENTS.verb("irritation", types={"event"}, params={"n"}, aim="foe", worth=1)
def _irritation(s: "IbaraState", p: int, eff: Mapping[str, Any], targets: Targets) -> bool:
    s.raise_irritation(s.escort, int(eff.get("n", 1)), by_event=True)   # IBR-ANGER-04
    return True


# ----- SP cards -----------------------------------------------------------------------------
#: ``_FREE[mask]``: the numbered squares outside the bitmask `mask`, as target choices (at
#: most one entry per set of squares: this runs for every SP card in hand at every step of
#: the action phase)
_FREE: dict[int, list[Targets]] = {}


def _free(taken: int) -> list[Targets]:
    """The numbered squares not in the bitmask `taken`, in order (a shared list: read only)."""
    found = _FREE.get(taken)
    if found is None:
        found = _FREE[taken] = [ONE[sq] for sq in board.NUMBERED if not board.BIT[sq] & taken]
    return found


def _teleport_squares(s: "IbaraState", p: int, card: int) -> list[Targets]:
    """A numbered square with no other piece (`IbaraState._blocked`: the other knights, the
    event marker, the princess unless p escorts her), and not the knight's own."""
    return _free(s._blocked(p) | board.BIT[s.pos[p]])


def _marker_squares(s: "IbaraState", p: int, card: int) -> list[Targets]:
    """A numbered square with no other piece, and not the marker's own."""
    return _free(s._blocked(p))


@SP.verb("teleport", types={"sp"}, targets=_teleport_squares, target=(SQUARE,), aim="own", worth=2)
def _teleport(s: "IbaraState", p: int, eff: Mapping[str, Any], targets: Targets) -> bool:
    s.moved = True
    s.move_knight(p, targets[0])
    s.whim_deed(p, "visit")
    return True


@SP.verb("draw", types={"sp"}, targets=lambda s, p, card: NO_TARGET, aim="own", worth=2)
def _sp_draw(s: "IbaraState", p: int, eff: Mapping[str, Any], targets: Targets) -> bool:
    s.draw(p, 2)
    return True


@SP.verb("move_event", types={"sp"}, targets=_marker_squares, target=(SQUARE,), worth=1)
def _move_event(s: "IbaraState", p: int, eff: Mapping[str, Any], targets: Targets) -> bool:
    s.event_pos = targets[0]
    return True
