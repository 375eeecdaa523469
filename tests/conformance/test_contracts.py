"""The conformance kit, part two: what no client may ever observe, and what no client may break.

- Non-interference: two states that differ only in cards hidden from an observer P (and from
  the player A about to act), after the same action of A, give P the same view (decision
  kind, whom it names, prompt, zones, public facts, events) unless the action revealed
  different cards to P. Whether a response window opens, whom a commit names and what an
  event carries must never depend on hidden cards (docs/architecture.md, contracts 6-8).
- No shared mutables: a state shares no list, dict, set or mutable object with its clone,
  its views or its JSON, so a bot that edits its view cannot corrupt the game.
- Every event kind a game logs renders as a sentence in the terminal.
- A view's size does not grow with the game's length.

Parametrized over `takujo.names()` (and each game's main option sets).
"""
from __future__ import annotations

import json
from typing import Any

import pytest

import takujo
from takujo.core import Rng, shuffle_unseen
from takujo.core.visibility import RECENT_EVENTS
from takujo.present import Renderer

from tests.checks import game_objects, reachable_mutables, shared_by_clones, vandalise

from .test_conformance import midgame_states, playout

GAMES = takujo.names()
#: Option sets that switch on each game's optional rules, beside the defaults.
WITH_OPTIONS = {
    "fuutei": ["fuutei(players=5,old_region_rule=true)", "fuutei(players=2)"],
    "sengoku_taisen": ["sengoku_taisen(deck1=黒,deck2=翠)", "sengoku_taisen(deck1=蒼,deck2=紅)"],
    "ibara": ["ibara(multi_card_combat=true,sp_cards_to_hand=true,gaiblitz_buff=true)", "ibara(players=3)"],
    "draft_daimyo": ["draft_daimyo(expansion=true,tactics=true,turn_order_choice=true)",
                     "draft_daimyo(players=3)"],
}


def variants(name: str) -> list[str]:
    return [name, *WITH_OPTIONS.get(name, [])]


# ----- non-interference ---------------------------------------------------------------------
def _diff(a: dict[str, Any], b: dict[str, Any]) -> str:
    keys = [k for k in a if a.get(k) != b.get(k)]
    parts = []
    for k in keys:
        if k == "log":
            la, lb = a["log"], b["log"]
            first = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
            parts.append(f"log[{first}]: {la[first:first + 1]} vs {lb[first:first + 1]}")
        else:
            parts.append(f"{k}: {a.get(k)!r:.300} vs {b.get(k)!r:.300}")
    return "; ".join(parts)


def _seen_where(view: dict[str, Any], zones: Any) -> set[tuple[Any, ...]]:
    """(zone, owner, card) for every card the view shows: where each card is, so that two
    worlds showing the same cards in different places (a card drawn here, another flipped
    there) count as showing different things."""
    seen: set[tuple[Any, ...]] = set()
    for spec in zones:
        if spec.tokens:
            continue
        data = view["zones"][spec.name]
        for owner, part in enumerate(data if spec.per_player else [data]):
            if isinstance(part, list):
                seen.update((spec.name, owner, c) for c in part)
    return seen


def _shown_by_events(state: Any, observer: int | None, since: int) -> set[tuple[str, int]]:
    """Cards named by the events the observer may see since `since` (fields whose name says
    card), e.g. a card flipped face up on its way into a hidden hand."""
    out: set[tuple[str, int]] = set()
    for event in state.events_for(observer, since):
        for key, value in event.items():
            if "card" in key:
                for v in (value if isinstance(value, list) else [value]):
                    if isinstance(v, int) and not isinstance(v, bool):
                        out.add((f"event:{key}", v))
    return out


def _committed_by_others(state: Any, viewers: set[int | None]) -> bool:
    """Whether someone outside `viewers` has a hidden commit naming cards: shuffling those
    cards would make the commit name a card its maker does not hold (not a state of the game)."""
    commits = getattr(state, "commits", None)
    return commits is not None and any(p not in viewers for p in commits.choices)


@pytest.mark.parametrize("spec", [v for name in GAMES for v in variants(name)])
def test_hidden_cards_never_change_what_a_player_observes(spec):
    game = takujo.load(spec)
    rng = Rng(2024)
    compared = 0
    for seed in range(3):
        for state in midgame_states(game, seed, every=3, limit=45):
            actor = state.pending.players[rng.below(len(state.pending.players))]
            legal = state.legal_actions(actor)
            picks = {legal[rng.below(len(legal))] for _ in range(2)}
            for observer in [*range(game.players), None]:
                if _committed_by_others(state, {observer, actor}):
                    continue
                twin = shuffle_unseen(state, {observer, actor}, rng)
                before = state.view(observer)
                assert twin.view(observer) == before
                assert twin.legal_actions(actor) == legal, "the actor's legal actions depend on cards it cannot see"
                known = _seen_where(before, state.ZONES)
                for action in picks:
                    a, b = state.clone(), twin.clone()
                    a.apply(action)
                    b.apply(action)
                    va, vb = a.view(observer), b.view(observer)
                    shown_a = _seen_where(va, a.ZONES) - known | _shown_by_events(a, observer, len(state.log))
                    shown_b = _seen_where(vb, b.ZONES) - known | _shown_by_events(b, observer, len(state.log))
                    if shown_a != shown_b:
                        continue           # the action showed the observer different cards
                    assert va == vb, (f"{spec} seed {seed} step {state.steps}: after {action} by player "
                                      f"{actor}, player {observer} sees a difference made by hidden "
                                      f"cards: {_diff(va, vb)}")
                    compared += 1
    assert compared > 100


# ----- no shared mutable objects ------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_clones_views_and_json_share_no_mutable_object_with_the_state(name):
    game = takujo.load(name)
    skip = game_objects(game)
    checked = 0
    for state in midgame_states(game, 11, every=6, limit=20):
        live = reachable_mutables(state, skip)
        live.pop(id(state))
        assert len(live) > 10, "the walk must reach the state's own lists"
        others = {"clone": state.clone(), "json": state.to_json(),
                  **{f"view({p})": state.view(p) for p in [*range(game.players), None]}}
        for what, obj in others.items():
            shared = set(reachable_mutables(obj, skip)) & set(live)
            if what == "clone":
                shared -= shared_by_clones(state)
            assert not shared, (f"{name} step {state.steps}: {what} shares {len(shared)} mutable "
                                f"object(s) with the state, e.g. {live[next(iter(shared))]!r:.200}")
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_and_its_state_log_only_their_own_events(name):
    """The log a clone shares is copied when either side adds to it: an action played in a
    clone (or a clone of a clone) leaves the state's log as it was, and the other way round."""
    game = takujo.load(name)
    rng = Rng(5)
    for state in midgame_states(game, 13, every=7, limit=6):
        if state.outcome is not None:
            continue
        before = json.dumps(state.to_json(), sort_keys=True)
        clone = state.clone()
        grandchild = clone.clone()
        for s in (clone, grandchild):
            while len(s.log) == len(state.log) and s.outcome is None:
                player = next(p for p in range(game.players) if s.legal_actions(p))
                legal = s.legal_actions(player)
                s.apply(legal[rng.below(len(legal))], player)
        assert json.dumps(state.to_json(), sort_keys=True) == before
        assert clone.log is not state.log and grandchild.log is not clone.log
        n = len(state.log)
        mark = clone.log[n:]
        state.append_event({"e": "probe", "to": None})   # now the state's own list
        assert clone.log[n:] == mark and state.log[n:] == [{"e": "probe", "to": None}]
        untouched = state.clone()                         # shares it until one adds to it
        state.append_event({"e": "probe", "to": None})
        assert len(untouched.log) == n + 1 and len(state.log) == n + 2


@pytest.mark.parametrize("name", GAMES)
def test_editing_a_view_or_json_leaves_the_game_unchanged(name):
    game = takujo.load(name)
    for state in midgame_states(game, 12, every=9, limit=8):
        before = json.dumps(state.to_json(), sort_keys=True)


        for p in [*range(game.players), None]:
            vandalise(state.view(p))
        vandalise(state.to_json())
        assert json.dumps(state.to_json(), sort_keys=True) == before


# ----- views stay small ---------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_view_carries_recent_events_and_a_cursor_not_the_whole_log(name):
    game = takujo.load(name)
    state = playout(game, 3)
    for p in [*range(game.players), None]:
        view = state.view(p)
        assert view["cursor"] == len(state.log) and view["version"] == state.steps
        assert len(view["log"]) <= RECENT_EVENTS
        everything = state.events_for(p, 0)
        assert len(everything) > len(view["log"]) or len(state.log) <= RECENT_EVENTS
        assert everything[-len(view["log"]):] == view["log"] if view["log"] else True
        assert [e["seq"] for e in everything] == sorted(e["seq"] for e in everything)
        assert all(e["to"] is None or p in e["to"] for e in everything)
        tail = state.events_for(p, view["cursor"] - 5)
        assert all(e["seq"] >= view["cursor"] - 5 for e in tail)


# ----- every event renders ------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_event_kind_a_game_logs_renders_as_a_sentence(name):
    kinds: dict[str, tuple[str, dict[str, Any]]] = {}
    for spec in variants(name):
        game = takujo.load(spec)
        for seed in range(6):
            state = playout(game, seed)
            for event in state.log:
                if event["to"] != []:          # events nobody sees are for the record only
                    kinds.setdefault(event["e"], (spec, event))
    silent = takujo.load(name).silent_events()
    missing = []
    for kind, (spec, event) in sorted(kinds.items()):
        if kind in silent:
            continue
        game = takujo.load(spec)
        for lang in ("ja", "en"):
            text = Renderer(game, lang).event(dict(event), None)
            if not text or text.startswith(f"{kind}:") or text.strip() == kind or text.startswith(f"event.{kind}("):
                missing.append(f"{kind} ({lang})")
    assert not missing, f"{name}: event kinds without a rendering: {missing}"



# ----- versions -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_a_stale_action_is_refused_and_changes_nothing_in_every_game(name):
    from takujo.core.errors import StaleActionError
    game = takujo.load(name)
    for state in midgame_states(game, 1, every=7, limit=30):
        actor = state.pending.players[0]
        action = state.legal_actions(actor)[0]
        before = state.to_json()
        for stale in (state.version - 1, state.version + 1):
            with pytest.raises(StaleActionError):
                state.apply(action, expect_version=stale)
            with pytest.raises(StaleActionError):
                state.apply(str(action), actor, expect_version=stale)
            assert state.to_json() == before
        state.clone().apply(action, expect_version=state.version)  # the current version is accepted
