"""A newcomer's extension of 風帝伝説FIGHTER: the hold card 盗賊 (thief) with a new effect verb
``steal`` that takes random cards from a chosen player's hand — a verb that targets a *player*.
Nothing but this verb entry and its messages (``steal.toml``) is written for it: the
legal actions, the labels and log lines, the research adapters' layout, the heuristic's
choice and the board's targets all come from the entry.

`install` adds it and `uninstall` removes it again (importing this module changes nothing, so
other tests in the same process see the shipped vocabulary); ``TAKUJO_PLUGINS=
tests.extension.steal_plugin`` installs it in every process of a server.
`card_text` is the shipped card file with one hold card turned into 盗賊 (the same number of
cards, so every composition rule still holds)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from takujo.core.targets import Target
from takujo.games.fuutei.cards import CARD_FILE
from takujo.games.fuutei.effects import VERBS
from takujo.present.catalogue import add_messages, remove_messages

MESSAGES = Path(__file__).with_name("steal.toml")
#: the card turned into 盗賊: 補給 (two copies of a hold card that draws 2)
REPLACED = """id = "hokyu"
name_ja = "補給"
name_en = "Resupply"
type = "hold"
count = 2
effect = { do = "draw", n = 2 }
text_ja = "カードを2枚引く。"
text_en = "Draw 2 cards."
"""
THIEF = """id = "tozoku"
name_ja = "盗賊"
name_en = "Thief"
type = "hold"
count = 2
effect = { do = "steal", n = 1 }
text_ja = "他のプレイヤー1人を目標にする。その手札から無作為に1枚を奪い、あなたの手札に加える。"
text_en = "Target another player. Take 1 card at random from their hand into yours."
"""


def _victims(s: Any, p: int, card: int) -> list[tuple[int, ...]]:
    return [(q,) for q in range(s.n) if q != p and s.hands[q]]


def _steal(s: Any, use: dict[str, Any], eff: Any) -> bool:
    p, victim = use["user"], use["targets"][0]
    hand = s.hands[victim]
    if not hand:
        return False
    taken = 0
    for _ in range(min(int(eff.get("n", 1)), len(hand))):
        s.hands[p].append(hand.pop(s.pick(len(hand), "steal", player=victim)))
        taken += 1
    s.say("steal", player=p, victim=victim, n=taken)
    return True


def install() -> None:
    if "steal" not in VERBS:
        VERBS.verb("steal", types={"hold"}, params={"n"}, targets=_victims, target=(Target.player(),),
                   aim="foe", worth=8)(_steal)
    add_messages("fuutei", MESSAGES)


def uninstall() -> None:
    VERBS.pop("steal", None)
    remove_messages("fuutei", MESSAGES)


def card_text() -> str:
    """The shipped card file, with 補給 turned into 盗賊."""
    text = Path(CARD_FILE).read_text(encoding="utf-8")
    assert REPLACED in text, "the shipped card file has no 補給 as written here"
    return text.replace(REPLACED, THIEF, 1)

