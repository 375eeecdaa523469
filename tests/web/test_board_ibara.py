"""The board of いばらの姫と4人の騎士 in a real browser: seat 0 plays a few turns against two
bots by clicking the board itself (a card, then the square it moves to), and the board shows
what the API's view of that seat says — the named hand, the knights on their squares, the
others' hands as backs with their counts."""
from __future__ import annotations

import random
import time
from typing import Any

import pytest

from .browser import create_match, join, version, wait_my_turn_or_end

GAME = "ibara(players=3)"


def _state(server: Any, match: str, token: str | None = None, since: int | None = None) -> dict[str, Any]:
    query = "" if since is None else f"?since={since}"
    status, body = server.call("GET", f"/api/matches/{match}/state{query}", token=token)
    assert status == 200, body
    return body


def _settled(page: Any, server: Any, match: str, token: str) -> dict[str, Any]:
    """The API's state of the seat at the version the page shows (bots may still be playing
    their simultaneous part of a combat: wait until the page and the API agree)."""
    deadline = time.time() + 60
    while True:
        shown = version(page)
        state = _state(server, match, token)
        if state["version"] == shown:
            return state
        assert time.time() < deadline, f"the page stays at version {shown}, the API is at {state['version']}"
        page.wait_for_function(f"Number(document.body.dataset.version) >= {state['version']}", timeout=60_000)


def _check_table(page: Any, server: Any, match: str, token: str, cards: dict[int, dict[str, Any]]) -> dict[str, Any]:
    state = _settled(page, server, match, token)
    view = state["view"]
    zones, pub = view["zones"], view["public"]
    # my hand: named cards, in the viewer's language, the other language beside
    mine = sorted(zones["hand"][0])
    names = page.locator(".ibr-seat.mine .ibr-hand-cards .card .card-name").all_inner_texts()
    assert names == [cards[c]["name_en"] for c in mine]
    others = page.locator(".ibr-seat.mine .ibr-hand-cards .card .card-other").all_inner_texts()
    assert others == [cards[c]["name_ja"] for c in mine]
    assert page.locator(".ibr-seat.mine .ibr-hand .card.back").count() == 0
    # the knights stand on the squares the view says, once each
    for p, square in enumerate(pub["pos"]):
        assert page.locator(f".ibr-map .ibr-knight[data-seat='{p}']").count() == 1
        assert page.locator(f".ibr-square[data-square='{square}'] .ibr-knight[data-seat='{p}']").count() == 1
    assert page.locator(f".ibr-square[data-square='{pub['princess']}'] .ibr-princess").count() == 1
    assert page.locator(f".ibr-square[data-square='{pub['event_marker']}'] .ibr-marker").count() == 1
    # the others' hands: backs only, as many as everyone sees they hold
    public = _state(server, match)["view"]["zones"]
    for p in (1, 2):
        n = zones["hand"][p]
        assert isinstance(n, int) and n == public["hand"][p]
        seat = page.locator(f".ibr-seat[data-seat='{p}']")
        assert seat.locator(".ibr-hand").get_attribute("data-count") == str(n)
        assert seat.locator(".ibr-hand .card.back").count() == min(n, 10)
        assert seat.locator(".ibr-hand .card:not(.back)").count() == 0
        assert seat.locator(".ibr-hand .ibr-row-title").inner_text() == f"Hand: {n}"
        assert seat.locator(".ibr-items .card").count() == len(zones["items"][p])
        assert seat.locator(".ibr-whims .card").count() == len(zones["whims"][p])
    return state


def _click_on_board(page: Any, rng: random.Random, want_move: bool) -> str:
    """Play one action by clicking the board: a bound element (its only action, or one of
    its menu's or one of the squares it lights up). With `want_move`, a card of the hand
    that moves the knight, then a lit square. Returns what was clicked."""
    before = version(page)
    bound = page.locator("#board [data-actions]")
    assert bound.count(), "nothing on the board to click"
    node = None
    if want_move:
        movers = page.locator(".ibr-seat.mine .ibr-hand-cards .card[data-actions*='move ']")
        if movers.count():
            node = movers.nth(rng.randrange(movers.count()))
    if node is None:
        node = bound.nth(rng.randrange(bound.count()))
    notations = node.get_attribute("data-actions").split("|")
    node.click()
    what = notations[0]
    if len(notations) > 1:
        targets = page.locator("#board .target")
        if targets.count() and (want_move or rng.random() < 0.6):
            target = targets.nth(rng.randrange(targets.count()))
            what = f"square {target.get_attribute('data-square')}" if target.get_attribute("data-square") else "target"
            target.click()
        else:
            items = page.locator(".popover.menu .menu-item")
            items.first.wait_for()
            pick = items.nth(rng.randrange(items.count()))
            what = pick.get_attribute("data-notation")
            pick.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before} || document.body.dataset.status === 'finished'",
                           timeout=60_000)
    return what


def test_a_person_plays_ibara_on_the_castle_board(module_server, page):
    match = create_match(module_server, GAME, ["human", "bot:random", "bot:random"], seed=12)
    token = match["seats"][0]["token"]
    status, catalogue = module_server.call("GET", "/api/games/ibara/catalogue")
    assert status == 200
    cards = {c["id"]: c for c in catalogue["cards"]}
    join(page, match["seats"][0]["join_url"], lang="en")
    assert page.locator(".ibara .ibr-map .ibr-square").count() == len(catalogue["board"])
    assert page.locator(".ibr-square.keep").inner_text().startswith("the keep")

    rng = random.Random(4)
    played, moves_by_square = 0, 0
    for _ in range(40):
        if wait_my_turn_or_end(page) == "over":
            break
        state = _check_table(page, module_server, match["match"], token, cards)
        moving = any(a["verb"] == "move" for a in state["actions"])
        want_move = moving and moves_by_square < 2
        before, cursor = state["version"], state["cursor"]
        what = _click_on_board(page, rng, want_move)
        played += 1
        if want_move:
            assert what.startswith("square "), what
            square = int(what.split()[1])
            after = _state(module_server, match["match"], token, since=cursor)
            moved = [e for e in after["events"] if e["e"] == "move" and e["player"] == 0]
            assert after["version"] > before and moved and moved[0]["square"] == square
            moves_by_square += 1
        if played >= 10:
            break
    assert played >= 8 and moves_by_square >= 1


def test_a_spectator_sees_every_hand_as_backs_in_japanese(module_server, page):
    match = create_match(module_server, GAME, ["human", "bot:random", "bot:random"], seed=3)
    join(page, match["spectate_url"], lang="ja")
    view = _state(module_server, match["match"])["view"]
    page.wait_for_function("document.querySelector('.ibr-status') !== null")
    assert "ラウンド" in page.locator(".ibr-status").inner_text()
    assert page.locator(".ibr-seat.mine").count() == 0
    assert page.locator(".ibr-hand .card:not(.back)").count() == 0
    for p, n in enumerate(view["zones"]["hand"]):
        assert page.locator(f".ibr-seat[data-seat='{p}'] .ibr-hand .card.back").count() == min(n, 10)
    assert page.locator("#board [data-actions]").count() == 0
    assert page.locator(".ibr-square[data-square='0']").inner_text().startswith("城")


# ----- the rarer decisions, rendered from the engine's own states ------------------------------
RENDER = """async (state) => {
  const c = await import('/static/common.js'), kit = await import('/static/board-kit.js');
  const board = await import('/static/boards/ibara.js');
  await c.loadTexts(state.lang);
  const book = new c.CardBook(await c.api('/api/games/ibara/catalogue'));
  window.__acted = [];
  const ctx = new kit.BoardContext({ lang: state.lang, book, state, act: (n) => window.__acted.push(n) });
  let root = document.getElementById('ibr-probe');
  if (!root) { root = document.createElement('div'); root.id = 'ibr-probe'; root.className = 'board'; document.body.append(root); }
  board.render(root, state, ctx);
  return [...root.querySelectorAll('[data-actions]')].flatMap((n) => n.dataset.actions.split('|'));
}"""


def _seat0_states(wanted: set[str]) -> dict[str, Any]:
    """Payloads of seat 0 deciding in each of the `wanted` phases ("twin": acting with two
    copies of one card in hand), found by random play of the engine."""
    from takujo import load
    from takujo.present import Renderer
    from takujo.web.payload import view_payload
    found: dict[str, Any] = {}
    for options in ({"players": 3, "gaiblitz_buff": True}, {"players": 4, "multi_card_combat": True}):
        game = load("ibara", **options)
        for seed in range(1, 40):
            s, rng = game.new_state(seed), random.Random(seed)
            while s.view(None).get("outcome") is None and not wanted <= set(found):
                pub = s.view(None)
                p, phase = pub["pending"]["players"][0], pub["public"]["phase"]
                legal = s.legal_actions(p)
                if p == 0:
                    hand = s.view(0)["zones"]["hand"][0]
                    named = [game.card_names(c) for c in hand]
                    kinds = [phase] + (["twin"] if phase == "act" and len(set(named)) < len(named)
                                       and any(a.verb == "move" for a in legal) else [])
                    for kind in kinds:
                        if kind in wanted and kind not in found:
                            found[kind] = {**view_payload(s, 0, Renderer(game, "en", markup=False)),
                                           "seats": [], "undo": False, "status": "running", "match": "probe"}
                s.apply(rng.choice([a for a in legal if a.verb != "end"] or legal) if rng.random() < .8 else rng.choice(legal))
            if wanted <= set(found):
                return found
    return found


@pytest.mark.slow
def test_every_decision_is_made_on_the_board(module_server, page):
    wanted = {"twin", "penalty", "discard", "combat_play", "combat_ring", "combat_declare"}
    states = _seat0_states(wanted)
    assert set(states) == wanted
    match = create_match(module_server, GAME, ["human"] * 3, seed=2)      # a still page to render probes on
    join(page, match["spectate_url"], lang="en")
    probe = page.locator("#ibr-probe")
    for kind, state in states.items():
        bound = page.evaluate(RENDER, state)
        assert set(state["legal"]) <= set(bound), (kind, sorted(set(state["legal"]) - set(bound)))
        if kind == "penalty":       # the whim cards you hold: choose the one to lose
            assert probe.locator(".ibr-seat.mine .ibr-whims .card[data-actions*='lose ']").count() >= 1
        if kind == "combat_ring":   # the ring chip: keep it, or play again
            assert "noring" in probe.locator(".ibr-seat.mine .card[data-item='akuun_no_yubiwa']").get_attribute("data-actions")
        if kind == "twin":
            # the second copy of a card offers the first one's moves, and lights their squares
            hand = sorted(state["view"]["zones"]["hand"][0])
            moves: dict[int, set[int]] = {}
            for a in state["actions"]:
                if a["verb"] == "move":
                    moves.setdefault(a["args"][0], set()).add(a["args"][1])
            cards = probe.locator(".ibr-seat.mine .ibr-hand-cards .card")
            names = cards.locator(".card-name").all_inner_texts()
            twin = next(i for i, c in enumerate(hand) if c not in moves and names.count(names[i]) > 1
                        and any(names[hand.index(m)] == names[i] for m in moves))
            first = next(m for m in moves if names[hand.index(m)] == names[twin])
            cards.nth(twin).click()
            lit = {int(x) for x in probe.locator(".ibr-square.target").evaluate_all("ns => ns.map(n => n.dataset.square)")}
            assert lit == moves[first]
            square = sorted(lit)[0]
            probe.locator(f".ibr-square[data-square='{square}']").click()
            assert page.evaluate("window.__acted") == [f"move {first} {square}"]
