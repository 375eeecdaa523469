"""Cards moving between piles and hands: drawing, refilling a pile, discarding down to a limit.

Piles and hands are the plain lists of card ids a state holds; the top of a pile is its end.
Games differ in how they log a draw (the event shapes are part of each game's record), so a
game names its shape once, as a `DrawLog`, and every draw of that game goes through
`draw_cards`::

    DRAW = DrawLog(count="if_any")                      # the game's one draw shape
    got = draw_cards(state, p, 2, state.deck, state.hands[p], DRAW)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Literal, Sequence

from .action import Action

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True, slots=True)
class DrawLog:
    """How a game logs a draw. Each card drawn into a hand is logged to the drawer alone as
    `card` ``{player, card}``; then everyone sees a count event:

    - ``count="each"``: `count_event` ``{player}`` after every card, as it is drawn;
    - ``count="total"``: `count_event` ``{player, n}`` once, even for no card;
    - ``count="if_any"``: the same, only when a card was drawn;
    - ``count="none"``: no count event.

    With `sort`, the cards drawn together join the hand (and the log) in id order."""

    card: str = "draw"
    count_event: str = "draw_count"
    count: Literal["each", "total", "if_any", "none"] = "if_any"
    sort: bool = False


def draw_cards(state: "State", player: int, n: int, pile: list[int], hand: list[int], log: DrawLog, *,
               refill: tuple[list[int], str] | None = None,
               route: Callable[[int], bool] | None = None) -> list[int]:
    """Draw up to `n` cards from the top of `pile` into `hand`; the cards that reached the
    hand. Stops early when the pile runs out: with ``refill=(discard, what)`` the discard
    pile, if it holds cards, is shuffled (`refill_pile`) to become the pile first.

    ``route(card)`` sees each card as it is drawn and returns True when the game has put it
    somewhere itself (an open card resolved on the spot); such a card is neither added to the
    hand nor logged as drawn."""
    got: list[int] = []
    each = log.count == "each"
    for _ in range(n):
        if not pile:
            if refill is None or not refill[0]:
                break
            refill_pile(state, pile, refill[0], refill[1])
        card = pile.pop()
        if route is not None and route(card):
            continue
        got.append(card)
        if each:
            hand.append(card)
            state.say(log.card, [player], player=player, card=card)
            state.say(log.count_event, player=player)
    if each:
        return got
    if log.sort:
        got.sort()
    hand.extend(got)
    for card in got:
        state.say(log.card, [player], player=player, card=card)
    if log.count == "total" or (log.count == "if_any" and got):
        state.say(log.count_event, player=player, n=len(got))
    return got


def refill_pile(state: "State", pile: list[int], discard: list[int], what: str) -> None:
    """The discard pile goes under `pile` (after the cards it still holds) and the whole is
    shuffled (`State.shuffle`, logged as `what`); the discard pile is left empty."""
    pile.extend(discard)
    discard.clear()
    state.shuffle(pile, what)


def take_top(pile: list[int], n: int) -> list[int]:
    """Up to `n` cards off the top of `pile`, in the order taken, logging nothing (a deal to
    a zone whose own view says what it holds)."""
    return [pile.pop() for _ in range(min(n, len(pile)))]


def discard_actions(row: Sequence[Action], hand: Sequence[int], sort: bool = False) -> list[Action]:
    """The legal discards of a hand over its limit: ``row[card]`` (a one-card action row,
    ``ActionTable.unary(...).row(p, 0)``) for each card of `hand`, in hand order, or in id
    order without repeats with `sort`."""
    return [row[c] for c in (sorted(set(hand)) if sort else hand)]


def discard_card(state: "State", player: int, card: int, hand: list[int], pile: list[int],
                 event: str = "discard") -> None:
    """`card` goes from `hand` to the top of the discard `pile`, face up: everyone sees
    `event` ``{player, card}``."""
    hand.remove(card)
    pile.append(card)
    state.say(event, player=player, card=card)
