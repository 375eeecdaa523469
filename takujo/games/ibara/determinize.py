"""Sampling a full Ibara state that agrees with one player's view (for IS-MCTS).

Action cards, item chips, whims and events are separate id spaces; unseen ones of each go back
to their own face-down pile (and action cards into the hidden hands and combat commits)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.determinize import Filler, base_json
from ...core.rng import Rng
from ...core.simultaneous import rebuild_commits
from .content import SHIELD, SUITS
from .phases import COMBAT_DROP, COMBAT_PLAY
from .state import IbaraState

if TYPE_CHECKING:
    from .game import IbaraGame


def _flat(data: Any) -> set[int]:
    if isinstance(data, int):
        return set()
    out: set[int] = set()
    for x in data:
        if isinstance(x, list):
            out.update(x)
        elif isinstance(x, int):
            out.add(x)
    return out


def _sample_play(c: Any, cards: Filler, k: int, rng: Rng) -> list[int]:
    """A hidden combat commit of k cards, sampled as a legal play: one suited card, or k
    cards of one suit (IBR-COMBAT-MULTI-05)."""
    if k == 0:
        return []
    suits = list(SUITS)
    rng.shuffle(suits)
    for suit in suits:
        if sum(1 for x in cards.pool if c.cards[x].suit == suit) >= k:
            return cards.take(k, lambda x: c.cards[x].suit == suit)   # used at once: no late binding
    return cards.take(k)                      # too few left of any suit: any cards


#: sampled worlds tried before one in which the players to act can act is given up on
RESAMPLES = 50


def determinize(game: "IbaraGame", view: dict[str, Any], rng: Rng) -> IbaraState:
    """A world that agrees with the view. The real one always lets the players it waits for
    act, so a sample in which one of them has no legal action (a hand dealt no play of the
    size declared for a multi-card combat, IBR-COMBAT-MULTI-03/05) is drawn again."""
    state = _sample(game, view, rng)
    for _ in range(RESAMPLES):
        pend = state.pending
        if pend is None or all(state.legal_actions(p) for p in pend.players):
            break
        state = _sample(game, view, rng)
    return state


def _sample(game: "IbaraGame", view: dict[str, Any], rng: Rng) -> IbaraState:
    z, pub = view["zones"], view["public"]
    n = game.players
    c = game.content
    per = {name: z[name] for name in ("hand", "played", "shown", "items", "whims")}
    seen_cards = _flat(z["discard"]) | set().union(*(set(h) for k in ("hand", "played", "shown")
                                                    for h in per[k] if isinstance(h, list)))
    cards = Filler([i for i in range(len(c.cards)) if i not in seen_cards], rng)
    played = [per["played"][p] if isinstance(per["played"][p], list) else _sample_play(c, cards, per["played"][p], rng)
              for p in range(n)]
    hands = [per["hand"][p] if isinstance(per["hand"][p], list) else cards.take(per["hand"][p]) for p in range(n)]
    deck = cards.rest()
    seen_items = _flat(z["item_discard"]) | set().union(*(set(x) for x in per["items"]))
    seen_whims = _flat(z["whim_up"]) | _flat(z["whim_discard"]) | set().union(*(set(x) for x in per["whims"]))
    item_pool = Filler([i for i in game.item_ids if i not in seen_items], rng).rest()
    whim_deck = Filler([w for w in game.whim_ids if w not in seen_whims], rng).rest()
    event_deck = Filler([e for e in game.event_ids if e not in _flat(z["event_discard"])], rng).rest()
    commits = None
    if pub["phase"] in (COMBAT_PLAY, COMBAT_DROP) and pub["commit_players"]:
        b = pub["combat"]

        def choice(p: int) -> Action:
            """A committed play: the sampled face-down cards; a drop: the play's first card."""
            if pub["phase"] == COMBAT_PLAY:
                return Action(p, _commit_verb(game, pub, p, played[p]), tuple(sorted(played[p])))
            return Action(p, "drop", (b["plays"][b["players"].index(p)][0],))

        commits = rebuild_commits(pub["commit_players"], pub["committed"], choice).to_json()
    data = {
        "hands": hands, "played": played, "shown": [list(x) for x in per["shown"]],
        "items": [list(x) for x in per["items"]], "whims": [list(x) for x in per["whims"]],
        "deck": deck, "discard": list(z["discard"]), "item_pool": item_pool,
        "item_discard": list(z["item_discard"]), "whim_deck": whim_deck, "whim_up": list(z["whim_up"]),
        "whim_discard": list(z["whim_discard"]), "event_deck": event_deck,
        "event_discard": list(z["event_discard"]), "pos": list(pub["pos"]), "order": list(pub["order"]),
        "knights": list(pub["knights"]), "irritation": pub["irritation"], "turn": pub["turn"],
        "round": pub["round"], "turn_index": pub["turn_index"], "phase": pub["phase"],
        "explored": pub["explored"], "gabe_used": pub["gabe_used"], "moved": pub["moved"],
        "gabe_target": pub["gabe_target"], "gabe_left": pub["gabe_left"], "ending": pub["ending"],
        "penalty_player": pub["penalty_player"], "princess": pub["princess"], "escort": pub["escort"],
        "event_pos": pub["event_marker"], "combat": pub["combat"], "commits": commits,
        "_base": {**base_json(game, rng, view.get("version", 0)), "outcome": view["outcome"]},
    }
    state = IbaraState.from_json(game, data)
    assert isinstance(state, IbaraState)
    return state


def _commit_verb(game: "IbaraGame", pub: dict[str, Any], p: int, cards: list[int]) -> str:
    """"fight", or "nofight" for one card that no play allows (a card laid face down by a side
    with no card that can fight)."""
    if len(cards) != 1:
        return "fight"
    card = game.content.cards[cards[0]]
    defender = pub["combat"]["players"].index(p) == 1
    playable = card.sp is None and (card.suit != SHIELD or defender)
    return "fight" if playable else "nofight"
