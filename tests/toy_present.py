"""Presentation of the toy dice race through messages (tests/toy_messages.toml)."""
from __future__ import annotations

from typing import Any

from takujo.core import Action
from takujo.present import Markup, Msg, Renderer


def event_message(game: Any, e: dict[str, Any], view: dict[str, Any] | None) -> tuple[str, dict[str, Any]] | None:
    kind = e["e"]
    if kind == "roll":
        return "event.roll", {"player": e.get("player"), "face": e["faces"][0]}
    if kind == "act":
        if not e["action"].startswith("bid"):
            return None
        return "event.secret", {"player": e["player"], "action": e["action"]}
    if kind == "bids":
        bids = [Msg("event.bid_of", player=p, bid=b) for p, b in enumerate(e["bids"])]
        gain = Msg("event.gain", gainer=e["gainer"]) if e["gainer"] is not None else Markup("")
        return "event.bids", {"bids": bids, "gain": gain}
    return f"event.{kind}", {k: v for k, v in e.items() if k not in ("e", "to", "seq", "chance")}


def action_message(game: Any, a: Action, view: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
    pot = (view or {}).get("public", {}).get("pot", 0)
    if a.verb == "bid":
        return "action.bid", {"bid": a.args[0]}
    return f"action.{a.verb}", {"pot": pot}


def render_view(game: Any, view: dict[str, Any], r: Renderer) -> str:
    pub, me = view["public"], view["player"]
    lines = [r.text("board.title", me, target=pub["target"], round=pub["round"], turn=pub["turn"])]
    for p, score in enumerate(pub["scores"]):
        bid = view["zones"]["committed"][p]
        note = ""
        if isinstance(bid, list) and bid:
            note = r.text("board.bid_shown", bid=bid[0] % 3)
        elif isinstance(bid, int) and bid:
            note = r.text("board.has_bid")
        lines.append(r.text("board.row", me, mark="▶" if p == pub["current"] else " ",
                            player=Markup(r.player(p, me)), score=score, note=Markup(note)))
    lines.append(r.text("board.pot", pot=pub["pot"]))
    return "\n".join(lines)


def card_info(game: Any, query: str, r: Renderer) -> list[str]:
    """The toy has one "card": its die."""
    return [r.text("card.die")] if query.lower() in ("die", "ダイス") else []
