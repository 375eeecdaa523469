"""What the server sends one seat (or a spectator): derived from `state.view(seat)` and
`state.events_for(seat, since)` only, with texts rendered in the viewer's language.

The state object (the same over the API and the WebSocket)::

    {"match": ID, "game": "fuutei", "seat": 0 | null, "version": V, "lang": "en",
     "view": {...},                        # state.view(seat), as the game's view schema says
     "legal": ["play 23", ...],            # the seat's legal actions, in notation
     "actions": [{"notation", "label", "verb", "args"}],   # the same, labelled
     "prompt": "text" | null, "pending": {...} | null,
     "events": [{..., "seq", "text"}],     # the seat's events since the asked cursor
     "cursor": N, "outcome": {...} | null, "outcome_text": "text" | null,
     "seats": [...], "undo": bool, "status": "running" | "finished"}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.action import Action
from ..core.state import State
from ..core.visibility import events_between
from ..present import Renderer, outcome_text

if TYPE_CHECKING:
    from .match import Match


def _event_rows(r: Renderer, events: list[dict[str, Any]], viewer: int | None,
                view: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for event in events:
        text = r.event(event, viewer, view)
        if text is None:
            continue
        rows.append({**event, "text": text})
    return rows


def _action_rows(r: Renderer, legal: list[Action], view: dict[str, Any]) -> list[dict[str, Any]]:
    kinds = r.game.arg_kinds
    return [{"notation": str(action), "label": r.action(action, view), "verb": action.verb,
             "args": list(action.args), "kinds": [k.kind.value for k in kinds(action)]} for action in legal]


def view_payload(state: State, seat: int | None, r: Renderer, since: int | None = None,
                 view: dict[str, Any] | None = None, legal: list[Action] | None = None) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees of `state`, with texts from `r`; `events` holds
    the seat's events from `since` on (default: the view's recent ones). `view` and `legal`,
    when given, are the seat's view and legal actions already computed. ``always`` lists the
    actions open to the seat at any time (conceding), whoever is to act."""
    if view is None:
        view = state.view(seat)
    acting = seat is not None and bool(view.get("legal"))
    if legal is None:
        legal = state.legal_actions(seat) if acting else []
    elif not acting:
        legal = []
    events = view["log"] if since is None else state.events_for(seat, max(0, since))
    pending = view.get("pending")
    prompt = None
    if pending and seat is not None and seat in pending.get("players", ()) and pending.get("prompt"):
        pid = f"prompt.{pending['prompt']}"
        prompt = r.text(pid) if r.has(pid) else str(pending["prompt"])
    outcome = view.get("outcome")
    return {
        "game": state.game.name, "game_string": str(state.game), "title": r.title(), "players": state.game.players,
        "seat": seat, "version": state.version, "lang": r.lang,
        "view": view,
        "legal": list(view.get("legal") or []),
        "actions": _action_rows(r, legal, view),
        "always": _action_rows(r, state.always_actions(seat), view) if seat is not None and outcome is None else [],
        "prompt": prompt, "pending": pending,
        "events": _event_rows(r, events, seat, view),
        "cursor": view["cursor"],
        "outcome": outcome,
        "outcome_text": outcome_text(r, outcome, seat) if outcome else None,
    }


def state_payload(match: "Match", seat: int | None, lang: str, since: int | None = None) -> dict[str, Any]:
    """The state object of a match for `seat` in `lang` (see the module's docstring)."""
    view = match.view(seat)
    legal = match.legal(seat) if seat is not None and view["legal"] else []
    return {"match": match.id, **view_payload(match.state, seat, match.renderer(lang), since, view, legal),
            "seats": match.public_seats(), "undo": seat is not None and match.can_undo(seat),
            "status": match.status}


#: The most events one history page holds.
HISTORY_PAGE = 200


def history_payload(match: "Match", seat: int | None, lang: str, before: int, limit: int = HISTORY_PAGE) -> dict[str, Any]:
    """The seat's events among log entries ``start <= seq < before`` (`limit` entries at
    most), with texts: a page of the whole log for a client that joined late or reloaded.
    ``start`` is 0 once the page reaches the first event."""
    state = match.state
    stop = max(0, min(before, len(state.log)))
    start = max(0, stop - max(1, min(limit, HISTORY_PAGE)))
    view = match.view(seat)
    events = events_between(state.log, seat, start, stop)
    return {"match": match.id, "version": state.version, "lang": lang, "start": start, "before": stop,
            "events": _event_rows(match.renderer(lang), events, seat, view)}
