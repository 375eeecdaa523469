"""How a game ended, as one sentence in the viewer's language (terminal, web and replays)."""
from __future__ import annotations

from typing import Any

from .render import Markup, Renderer


def outcome_text(r: Renderer, outcome: dict[str, Any] | None, viewer: int | None = None) -> str:
    """How a game ended (an `Outcome.to_json()`), in the renderer's language; "" while it runs."""
    if outcome is None:
        return ""
    winners, reason = outcome["winners"], outcome["reason"]
    scores = (r.text("ui.outcome.scores", scores=", ".join(map(str, outcome["scores"])))
              if outcome.get("scores") else "")
    if not winners:
        return r.text("ui.outcome.none", reason=reason, scores=Markup(scores))
    if len(winners) == 1:
        return r.text("ui.outcome.winner", viewer, winner=winners[0], reason=reason, scores=Markup(scores))
    return r.text("ui.outcome.shared", viewer, winners=winners, reason=reason, scores=Markup(scores))
