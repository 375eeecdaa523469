"""Terminal presentation of Ibara views, actions and events (rich markup)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from . import board

if TYPE_CHECKING:
    from .game import IbaraGame

LAYOUT = [
    "          <12>    <1>*    <2>        (<13> lies beyond square 1)",
    "      <11>                  <3>",
    "   <10>*        <0>         <4>*     (the keep connects to 3, 6, 9 and 12)",
    "       <9>                  <5>",
    "          <8>     <7>*    <6>",
]
_CELL = re.compile(r"<(\d+)>")


def card_label(game: "IbaraGame", c: int) -> str:
    card = game.content.cards[c]
    if card.is_sp:
        return f"SP「{escape(card.name)}」"
    return f"{card.suit}{card.number} (移動{card.move})"


def render_view(game: "IbaraGame", view: dict[str, Any]) -> str:
    z, pub = view["zones"], view["public"]
    me = view["player"]
    c = game.content
    marks: dict[int, str] = {}
    for p, sq in enumerate(pub["pos"]):
        marks[sq] = marks.get(sq, "") + f"K{p}"
    marks[pub["princess"]] = marks.get(pub["princess"], "") + "姫"
    if pub["event_marker"] >= 0:
        marks[pub["event_marker"]] = marks.get(pub["event_marker"], "") + "E"
    cells = {sq: f"[{board.NAMES[sq]}{(':' + marks[sq]) if sq in marks else ''}]" for sq in range(14)}
    lines = [f"[bold]ラウンド {pub['round']} ターン {pub['turn']}[/] — player {pub['turn_player']} ({pub['phase']})"]
    lines += [escape(_CELL.sub(lambda m: cells[int(m.group(1))], row)) for row in LAYOUT]
    lines.append("K0..: 騎士, 姫: princess, E: event marker, *: exploration corner")
    up = z["whim_up"]
    if up:
        w = c.whims[up[0]]
        need = ", ".join(_item_name(game, x) for x in w.items) or (
            "戦闘に勝つ" if w.deed == "win_combat" else f"マス{w.square}へ")
        lines.append(f"ワガママ: 「{escape(w.name_ja)}」 ({need}) イライラ {pub['irritation']}/{w.limit}")
    for p in range(len(pub["pos"])):
        k = c.knights[pub["knights"][p]]
        who = "[bold cyan]あなた[/]" if p == me else f"player {p}"
        hand = z["hand"][p]
        items = ", ".join(escape(c.items[i].name_ja) for i in z["items"][p]) or "なし"
        whims = len(z["whims"][p])
        tag = " [magenta]姫を連れている[/]" if pub["escort"] == p else ""
        lines.append(f"{who} K{p} {escape(k.name_ja)} @ {board.NAMES[pub['pos'][p]]}{tag} — ワガママ {whims}/"
                     f"{pub['whims_needed']}, 手札 {len(hand) if isinstance(hand, list) else hand}, アイテム: {items}")
    if me is not None and isinstance(z["hand"][me], list):
        lines.append("[bold]手札[/]: " + ", ".join(card_label(game, x) for x in sorted(z["hand"][me])))
    b = pub["combat"]
    if b:
        lines.append(f"[bold red]戦闘[/]: player {b['players'][0]} → player {b['players'][1]}")
    return "\n".join(lines)


def _item_name(game: "IbaraGame", item_id: str) -> str:
    return next((escape(i.name_ja) for i in game.content.items if i.id == item_id), item_id)


def describe_action(game: "IbaraGame", action: str, view: dict[str, Any]) -> str:
    verb, *args = action.split()
    n = [int(a) for a in args if a.lstrip("-").isdigit()]
    fixed = {"end": "ターンを終える", "satisfy": "アイテムを渡してワガママを叶える", "noring": "悪運の指輪を使わない"}
    if verb in fixed:
        return fixed[verb]
    if verb == "move":
        return f"移動: {card_label(game, n[0])} → {board.NAMES[n[1]]}"
    if verb == "explore":
        return f"探索: {card_label(game, n[0])}"
    if verb == "fight":
        return "戦闘に出す: " + " + ".join(card_label(game, x) for x in n)
    if verb == "ring":
        return "悪運の指輪で出し直す: " + " + ".join(card_label(game, x) for x in n)
    if verb == "declare":
        return f"{n[0]} 枚出すと宣言"
    if verb == "choose":
        return f"スート {args[0]} を選ぶ"
    if verb in ("drop", "drop_suit"):
        return f"捨てる: {card_label(game, n[0]) if n else args[0]}"
    if verb == "discard":
        return f"手札を捨てる: {card_label(game, n[0])}"
    if verb == "lose":
        return f"ワガママカードを失う: {escape(game.content.whims[n[0]].name_ja)}"
    if verb == "sp":
        return f"SPカード: {card_label(game, n[0])}" + (f" → {n[1]}" if len(n) > 1 else "")
    if verb == "gaiblitz":
        return f"ゲイブリッツの能力: player {n[0]} が3枚" + ("引く" if args[1] == "draw" else "捨てる")
    return action


def describe_event(game: "IbaraGame", e: dict[str, Any]) -> str | None:
    k = e["e"]
    p = e.get("player")
    who = f"player {p}" if p is not None else ""
    c = game.content
    table = {
        "turn": lambda: f"[bold]— ラウンド {e['round']} / ターン {e['turn']}: player {p} —[/]",
        "knight": lambda: f"{who} の騎士: {escape(c.knights[e['knight']].name_ja)}",
        "flip": lambda: f"  めくり: {card_label(game, e['card'])} ({e['why']})",
        "event_marker": lambda: f"イベントマーカー → マス {e['square']}",
        "draw": lambda: f"{who} は {card_label(game, e['card'])} を引いた",
        "move": lambda: f"{who} が {board.NAMES[e['square']]} へ移動",
        "escort": lambda: f"[magenta]{who} が姫を連れた[/]",
        "combat": lambda: f"[bold red]戦闘: player {p} → player {e['defender']}[/]",
        "reveal": lambda: f"  {who} の札: " + " + ".join(card_label(game, x) for x in e["cards"]),
        "combat_result": lambda: {1: "攻撃側の勝ち", -1: "防御側の勝ち", 0: "アイコ"}[e["result"]],
        "placed": lambda: f"{who} はマス {e['square']} にランダム配置 ({e['why']})",
        "princess_taken": lambda: f"[magenta]{who} が姫を奪った[/]",
        "event": lambda: f"{who} のイベント: {escape(c.events[e['card']].name_ja)}",
        "item": lambda: f"{who} はアイテム {escape(c.items[e['item']].name_ja)} を得た",
        "explore": lambda: f"{who} の探索: {e['total']} → " + ("成功" if e["success"] else "失敗"),
        "whim": lambda: f"[yellow]姫のワガママ: 「{escape(c.whims[e['card']].name_ja)}」[/]",
        "irritation": lambda: f"イライラ {e['value']}/{e['limit']}",
        "anger": lambda: "[red]姫の怒りが爆発！[/]",
        "whim_taken": lambda: f"[green]{who} がワガママ「{escape(c.whims[e['card']].name_ja)}」を叶えた[/]",
        "whims_lost": lambda: f"{who} はワガママカードを {len(e['cards'])} 枚失った",
        "game_over": lambda: f"[bold green]ゲーム終了: 勝者 {e['winners']} ({e['reason']})[/]",
    }
    fn = table.get(k)
    return fn() if fn else None
