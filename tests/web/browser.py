"""Driving the match page in a browser like a person: create a match over the API, open a
seat's join link, and click actions (on the board first, the list as a fallback)."""
from __future__ import annotations

import random
import time
from typing import Any

from .server import LiveServer


def create_match(server: LiveServer, game: str, seats: list[str], seed: int = 1, **extra: Any) -> dict[str, Any]:
    status, body = server.call("POST", "/api/matches", {"game": game, "seats": seats, "seed": seed, **extra})
    assert status == 201, body
    return body


def join(page: Any, url: str, lang: str = "en") -> None:
    """Open a join (or spectate) link and wait for the first state."""
    page.goto(url + ("&" if "?" in url else "?") + f"lang={lang}")
    page.wait_for_function("document.body.dataset.version !== undefined")


def version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def wait_my_turn_or_end(page: Any, timeout: float = 60_000) -> str:
    """Wait until this seat has something to do ("me") or the game is over ("over")."""
    page.wait_for_function("document.body.dataset.status === 'finished' || document.body.dataset.toAct === 'me'",
                           timeout=timeout)
    return "over" if page.evaluate("document.body.dataset.status") == "finished" else "me"


def click_some_action(page: Any, rng: random.Random, prefer_board: bool = True) -> str:
    """Play one legal action by clicking, and return its notation. On the board a bound
    element plays its only action, or opens a menu (or targets) for several; otherwise a
    button of the action list is clicked."""
    before = version(page)
    board = page.locator("#board [data-actions]")
    if prefer_board and board.count() and rng.random() < 0.8:
        node = board.nth(rng.randrange(board.count()))
        notations = node.get_attribute("data-actions").split("|")
        node.click()
        if len(notations) > 1:
            item = page.locator(".popover.menu .menu-item")
            item.first.wait_for()
            pick = item.nth(rng.randrange(item.count()))
            notation = pick.get_attribute("data-notation")
            pick.click()
        else:
            notation = notations[0]
    else:
        buttons = page.locator("#decision button.action")
        pick = buttons.nth(rng.randrange(buttons.count()))
        notation = pick.get_attribute("data-notation")
        pick.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before} || document.body.dataset.status === 'finished'",
                           timeout=60_000)
    return notation


# ----- the same seat over the API (to bring a match to the state a test needs) ---------------------
def state_of(server: LiveServer, match: str, token: str | None = None) -> dict[str, Any]:
    status, body = server.call("GET", f"/api/matches/{match}/state", token=token)
    assert status == 200, body
    return body


def act_api(server: LiveServer, match: str, token: str, state: dict[str, Any], notation: str) -> dict[str, Any]:
    status, body = server.call("POST", f"/api/matches/{match}/actions", {"version": state["version"], "action": notation}, token=token)
    assert status in (200, 409), body       # 409: a bot moved first; the caller reads the state again
    return body


def wait_api(server: LiveServer, match: str, token: str | None, until: Any, timeout: float = 60.0) -> dict[str, Any]:
    """The seat's state once `until(state)` holds (bots move on their own)."""
    deadline = time.monotonic() + timeout
    while True:
        st = state_of(server, match, token)
        if until(st):
            return st
        if time.monotonic() > deadline:
            raise AssertionError(f"the match never reached the state waited for (version {st['version']})")
        time.sleep(0.03)


def wait_turn_api(server: LiveServer, match: str, token: str) -> dict[str, Any]:
    return wait_api(server, match, token, lambda st: bool(st["actions"]) or st["status"] == "finished")


def wait_finished(server: LiveServer, match: str, timeout: float = 120.0) -> dict[str, Any]:
    return wait_api(server, match, None, lambda st: st["status"] == "finished", timeout)
