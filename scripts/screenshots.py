#!/usr/bin/env python3
"""Refresh docs/screenshots/: the lobby with "Your games", and each game's board as a named
person at seat 0 sees it after a few moves, at 1280×900 and at phone width (390×844), in
English. Needs chromium (Debian: apt-get install chromium fonts-noto-cjk).

    python3 scripts/screenshots.py            # every picture
    python3 scripts/screenshots.py --only lobby,fuutei
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.browser import click_some_action, join, wait_my_turn_or_end  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.server import LiveServer  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
#: Each board's match: its game string, seats and seed, and how many of seat 0's moves to play first.
BOARDS = {
    "fuutei": ("fuutei(players=3)", ["human", "bot:heuristic", "bot:heuristic"], 4, 6),
    "sengoku_taisen": ("sengoku_taisen", ["human", "bot:heuristic"], 3, 8),
    "ibara": ("ibara", ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"], 2, 5),
    "draft_daimyo": ("draft_daimyo", ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"], 5, 6),
}
KEY = "screenshotsplayerkey0000000000"


def create(server: LiveServer, game: str, seats: list[str], seed: int) -> dict:
    status, body = server.call("POST", "/api/matches", {"game": game, "seats": seats, "seed": seed,
                                                        "name": "Hanako", "listed": True, "clock": "normal"},
                               headers={"X-Takujo-Player": KEY})
    assert status == 201, body
    return body


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="a comma list of: lobby, " + ", ".join(BOARDS))
    args = ap.parse_args()
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    from playwright.sync_api import sync_playwright
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "shots.db").start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                made = {name: create(server, *spec[:3]) for name, spec in BOARDS.items()}   # the lobby lists them all
                for name, body in made.items():
                    if only and name not in only:
                        continue
                    moves = BOARDS[name][3]
                    for width, height, suffix in ((1280, 900, ""), (390, 844, "-phone")):
                        context = browser.new_context(viewport={"width": width, "height": height})
                        context.add_init_script(f"localStorage.setItem('takujo.player', '{KEY}');"
                                                "localStorage.setItem('takujo.name', 'Hanako');")
                        page = context.new_page()
                        join(page, body["seats"][0]["join_url"])
                        rng = random.Random(1)
                        for _ in range(moves if not suffix else 0):
                            if wait_my_turn_or_end(page) == "over":
                                break
                            click_some_action(page, rng)
                        wait_my_turn_or_end(page)
                        page.wait_for_timeout(600)
                        page.screenshot(path=str(OUT / f"{name}{suffix}.png"), full_page=bool(suffix))
                        print(f"wrote {OUT / f'{name}{suffix}.png'}")
                        context.close()
                if not only or "lobby" in only:
                    for width, height, suffix in ((1280, 900, ""), (390, 844, "-phone")):
                        context = browser.new_context(viewport={"width": width, "height": height})
                        context.add_init_script(f"localStorage.setItem('takujo.player', '{KEY}');"
                                                "localStorage.setItem('takujo.name', 'Hanako');")
                        page = context.new_page()
                        page.goto(server.url + "/?lang=en")
                        page.locator("#mine .match-row").first.wait_for()
                        page.wait_for_timeout(400)
                        page.screenshot(path=str(OUT / f"lobby{suffix}.png"), full_page=True)
                        print(f"wrote {OUT / f'lobby{suffix}.png'}")
                        context.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
