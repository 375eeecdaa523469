"""An extension of ドラフト戦国大名: the strategy 焼き討ち (burning raid) with a new effect verb
``raid`` that burns soldiers in a chosen province — a verb that targets a *place*. Nothing but
this verb entry and its message (``raid.toml``) is written for it: the legal actions, the
labels and log lines, the research adapters' layout, the heuristic's choice and the board's
targets all come from the entry.

`install` registers it (tests/draft_daimyo/raid_plugin.py does on import, for
``TAKUJO_PLUGINS``); `uninstall` removes it again. `card_text` is the shipped card file with
徴兵 turned into 焼き討ち (the same number of cards)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from takujo.core.targets import Target
from takujo.games.draft_daimyo.cards import CARD_FILE
from takujo.games.draft_daimyo.effects import VERBS
from takujo.present.catalogue import add_messages, remove_messages

MESSAGES = Path(__file__).with_name("raid.toml")
#: the card turned into 焼き討ち: 徴兵 (three copies of a strategy placing 2 soldiers)
REPLACED = """id = "chohei"
name_ja = "徴兵"
name_en = "Conscription"
type = "strategy"
count = 3
cost = 1
play = {do = "soldiers", n = 2}
text_ja = "本国（または城）に兵力2を置く。"
text_en = "Place 2 soldiers in your home province (or a castle)."
"""
RAID = """id = "yakiuchi"
name_ja = "焼き討ち"
name_en = "Burning Raid"
type = "strategy"
count = 3
cost = 1
play = {do = "raid", n = 1}
text_ja = "兵力2以上の国1つを目標にする。その兵力1を取り除く。"
text_en = "Target a province held with 2 or more soldiers. Remove 1 of them."
"""


def _burnable(s: Any, p: int, eff: Any) -> list[tuple[int, ...]]:
    """Any province a daimyo holds with 2 or more soldiers, the user's own too (the aim keeps
    a player from burning their own)."""
    return [(pr,) for pr, o in enumerate(s.owner) if o >= 0 and s.soldiers[pr] >= 2]


def _raid(s: Any, use: Any, eff: Any) -> bool:
    t = use.target
    s.soldiers[t] = max(1, s.soldiers[t] - int(eff.get("n", 1)))
    return True


def install() -> None:
    if "raid" not in VERBS:
        VERBS.verb("raid", types={"strategy"}, params={"n"}, targets=_burnable,
                   target=(Target.place("province"),), aim="foe", worth=6)(_raid)
    add_messages("draft_daimyo", MESSAGES)


def uninstall() -> None:
    VERBS.pop("raid", None)
    remove_messages("draft_daimyo", MESSAGES)


def card_text() -> str:
    """The shipped card file, with 徴兵 turned into 焼き討ち."""
    text = Path(CARD_FILE).read_text(encoding="utf-8")
    assert REPLACED in text, "the shipped card file has no 徴兵 as written here"
    return text.replace(REPLACED, RAID, 1)
