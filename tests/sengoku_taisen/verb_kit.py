"""A verb the shipped cards do not have, for the tests that prove a new verb needs nothing but
its registry entry and its messages: 破城 (``raze``), a stratagem aimed at a *player* (not a
unit, as every shipped verb is) whose castle loses ``n`` walls to the discard pile.

    with raze_registered():
        game = raze_game(tmp_path)      # 蒼 against 紅, 軍師の献策 (AO-11) razing instead of drawing
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import takujo
from takujo.core.targets import Target
from takujo.games.sengoku_taisen.cards import CARD_FILE
from takujo.games.sengoku_taisen.effects import ONE_SHOT, VERBS
from takujo.present import render as present_render
from takujo.present.catalogue import Catalogue

from .helpers import give_koku, put, table

VERB = "raze"
CARD = "AO-11"
DRAW_TWO = 'effect = { do = "draw", n = 2 }'
#: The verb's messages: what it does (``fx.raze``) and the line of its effect (``event.effect.raze``,
#: with the viewer's own form).
MESSAGES = {
    "fx.raze": {"ja": "プレイヤー1人の城壁を{n}枚破る", "en": "a player loses {n} castle walls"},
    "event.effect.raze": {"ja": "{player} の{why}: {unit} の城壁が{n}枚破られた",
                          "en": "{player}'s {why}: {unit} loses {n} castle walls."},
    "event.effect.raze.you": {"ja": "あなた の{why}: {unit} の城壁が{n}枚破られた",
                              "en": "Your {why}: {unit} loses {n} castle walls."},
}


def _either_player(s: Any, p: int, eff: Any, source: int | None = None) -> list[int]:
    return [0, 1]


def _raze(s: Any, p: int, eff: Any, t: int | None, why: str) -> bool:
    assert t is not None
    walls = s.walls[t]
    n = min(int(eff.get("n", 1)), len(walls))
    for _ in range(n):
        s.discard[t].append(walls.pop())
    s.say("effect", player=p, do=VERB, target=t, n=n, why=why)
    return True


@contextmanager
def raze_registered() -> Iterator[None]:
    """``raze`` in the game's registry and its messages in the catalogue, for the block only."""
    VERBS.effect(VERB, ONE_SHOT, {"n"}, pool=_either_player, target=(Target.player(),), aim="foe",
                 worth=5.0)(_raze)
    original = present_render.catalogue_for
    present_render.catalogue_for = lambda game: original(game).merged(Catalogue(MESSAGES, {}))  # type: ignore[assignment]
    try:
        yield
    finally:
        present_render.catalogue_for = original  # type: ignore[assignment]
        del VERBS[VERB]


def raze_cards(folder: Path, effect: str = '{ do = "raze", n = 2 }') -> Path:
    """The built-in pool with 軍師の献策's effect (draw 2) replaced by `effect`."""
    text = CARD_FILE.read_text(encoding="utf-8")
    assert text.count(DRAW_TWO) == 1
    path = folder / "cards.toml"
    path.write_text(text.replace(DRAW_TWO, f"effect = {effect}"), encoding="utf-8")
    return path


def raze_game(folder: Path, **options: Any) -> Any:
    """蒼 (which plays four 軍師の献策) against 紅, on the pool of `raze_cards`."""
    return takujo.load("sengoku_taisen", deck1="蒼", deck2="紅", cards=str(raze_cards(folder)), **options)


def ready_to_raze(folder: Path) -> tuple[Any, int]:
    """Player 0's main phase on the `raze_game` pool: 軍師の献策 (razing) in hand, 蒼
    kokuryoku to pay for it, three walls on each side, and the warlord of id 1 in camp (a unit
    whose id is also a seat's). Returns the state and the card."""
    game = raze_game(folder)
    s = table("蒼", "紅", cards=game.options.cards)
    card = put(s, CARD, 0, "hand")
    put(s, 1, 0, "camp")
    give_koku(s, 0, "蒼", 2)
    for p in (0, 1):
        s.walls[p] = [s.deck[p].pop() for _ in range(3)]
    return s, card
