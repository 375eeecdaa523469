"""Terminal presentation of Fuutei views, actions and events (rich markup)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

if TYPE_CHECKING:
    from .game import FuuteiGame

STAT_NAMES = ("物攻", "物防", "魔攻", "魔防")


def name(game: "FuuteiGame", c: int) -> str:
    return escape(game.catalogue[c].spec.name_ja)


def card_line(game: "FuuteiGame", c: int, host: dict[str, int] | None = None) -> str:
    """A card with what matters in play: stats, bonus, points, or rules text."""
    card = game.catalogue[c]
    spec = card.spec
    if card.stats is not None:
        bonus = [0, 0, 0, 0]
        for e, h in (host or {}).items():
            if h == c:
                bonus = [b + x for b, x in zip(bonus, game.catalogue[int(e)].bonus)]
        parts = []
        for label, dice, b in zip(STAT_NAMES, card.stats, bonus):
            parts.append(f"{label} {dice}" + (f"[green]{b:+d}[/]" if b else ""))
        return f"{escape(spec.name_ja)} ({'♂' if spec.sex == 'male' else '♀'}) " + " ".join(parts)
    if spec.type == "equipment":
        bonus = " ".join(f"{label}{b:+d}" for label, b in zip(STAT_NAMES, spec.bonus or ()) if b)
        return f"{escape(spec.name_ja)} [装備 {bonus}]"
    if spec.type == "region":
        return f"{escape(spec.name_ja)} [{spec.points}点]"
    return f"{escape(spec.name_ja)} [{spec.type}] {escape(spec.text_ja)}"


def render_view(game: "FuuteiGame", view: dict[str, Any]) -> str:
    z, pub = view["zones"], view["public"]
    me = view["player"]
    guard = {int(r): c for r, c in pub["guard"].items()}
    host = pub["host"]
    temp, sealed = set(pub["temporary"]), set(pub["sealed"])
    lines = [f"[bold]ターン {pub['turn']}[/] — player {pub['turn_player']} の {pub['phase']}  "
             f"(勝利: {pub['threshold']}点)  山札 {z['deck']} 枚  捨て札 {len(z['discard'])} 枚"]
    if z["center"]:
        lines.append("中央: " + ", ".join(card_line(game, r) for r in z["center"]))
    for p, regions in enumerate(z["regions"]):
        who = "[bold cyan]あなた[/]" if p == me else f"player {p}"
        hand = z["hand"][p]
        count = len(hand) if isinstance(hand, list) else hand
        lines.append(f"\n{who}: {pub['points'][p]}点, 手札 {count} 枚")
        for r in regions:
            d = guard.get(r)
            lines.append(f"  地域 {card_line(game, r)} ← " + (name(game, d) if d is not None else "[dim]無防備[/]"))
        for c in z["party"][p]:
            flags = (" [yellow]一時的[/]" if c in temp else "") + (" [red]封印[/]" if c in sealed else "")
            gear = [name(game, int(e)) for e, h in host.items() if h == c]
            lines.append(f"  キャラ {card_line(game, c, host)}{flags}" + (f"  装備: {', '.join(gear)}" if gear else ""))
    if me is not None and isinstance(z["hand"][me], list):
        lines.append("\n[bold]手札[/]:")
        lines.extend(f"  {card_line(game, c)}" for c in z["hand"][me])
    b = pub["battle"]
    if b:
        a, d = b["chars"]
        lines.append(f"\n[bold red]戦闘[/]: {name(game, a)} (player {b['players'][0]}) → "
                     + (f"{name(game, d)} (player {b['players'][1]})" if d >= 0 else "無防備")
                     + " / 地域 " + ", ".join(name(game, r) for r in b["regions"]))
        if z["stack"]:
            lines.append("  場の補助カード: " + ", ".join(name(game, c) for c in z["stack"]))
    return "\n".join(lines)


def describe_action(game: "FuuteiGame", action: str, view: dict[str, Any]) -> str:
    verb, *args = action.split()
    n = [int(a) for a in args if a.lstrip("-").isdigit()]
    labels = {
        "end": "メインフェイズを終える", "pass": "侵攻しない", "nosupport": "戦闘補助カードを出さない",
        "allow": "たわけ！を使わない", "persuade": "説得して仲間にする", "decline": "説得しない（捨て札に）",
        "done": "配置し直しを終える",
    }
    if verb in labels:
        return labels[verb]
    if verb == "play":
        return f"キャラを出す: {card_line(game, n[0])}"
    if verb == "equip":
        return f"装備: {name(game, n[0])} → {name(game, n[1])}"
    if verb == "guard":
        return f"防衛: {name(game, n[0])} を {name(game, n[1])} が守る"
    if verb == "unguard":
        return f"防衛を外す: {name(game, n[0])}"
    if verb == "hold":
        target = f" → {name(game, n[1])}" if len(n) > 1 else ""
        return f"ホールド: {name(game, n[0])}{target}"
    if verb == "invade":
        return f"侵攻: {name(game, n[0])} で {card_line(game, n[1])}"
    if verb == "support":
        return f"戦闘補助: {card_line(game, n[0])}"
    if verb == "tawake":
        return "「たわけ！」で無効化する"
    if verb == "attack":
        return "物理攻撃" if args[0] == "phys" else "魔法攻撃"
    if verb == "discard":
        return f"捨てる: {card_line(game, n[0])}"
    return action


def describe_event(game: "FuuteiGame", e: dict[str, Any]) -> str | None:
    k = e["e"]
    p = e.get("player")
    who = f"player {p}" if p is not None else ""

    def nm(key: str) -> str:
        return name(game, e[key])

    if k == "roll":
        return (f"  🎲 {who} {e['why']}: {e['dice']} → {e['faces']} = [bold]{e['total']}[/]"
                if e["dice"] != str(e["total"]) or e["faces"] else None)
    simple = {
        "turn": lambda: f"[bold]— ターン {e['turn']}: player {p} —[/]",
        "draw": lambda: f"{who} は {nm('card')} を引いた",
        "event": lambda: f"{who} がイベント {nm('card')} を引いた: {escape(game.catalogue[e['card']].spec.text_ja)}",
        "region_drawn": lambda: f"{who} が地域 {nm('card')} を引いた → " + ("中央" if e["dest"] == "center" else "自分の場"),
        "pile_emptied": lambda: "[yellow]山札が尽きた[/]",
        "play": lambda: f"{who} が {nm('card')} を場に出した",
        "equip": lambda: f"{who} が {nm('target')} に {nm('card')} を装備",
        "guard": lambda: f"{who}: {nm('card')} が {nm('region')} を守る",
        "unguard": lambda: f"{who}: {nm('region')} の防衛を外した",
        "hold": lambda: f"{who} がホールド {nm('card')} を使用",
        "tawake": lambda: f"[red]{who} の「たわけ！」[/] — {nm('negates')} を無効化",
        "negated": lambda: f"{nm('card')} は無効化されて捨て札に",
        "invade": lambda: f"[bold]{who} が {nm('card')} で {nm('region')} に侵攻[/]",
        "support_revealed": lambda: f"{who} の戦闘補助: {nm('card')}",
        "initiative": lambda: f"先攻: player {e['first']}",
        "attack": lambda: (f"{nm('card')} の{'物理' if e['attack'] == 'phys' else '魔法'}攻撃 "
                           f"{e['total']} 対 防御 {e['defence']}"
                           + (" [bold red]クリティカル！[/]" if e["critical"] else "")
                           + (" → 倒した" if e["defeated"] else " → 失敗")),
        "defeated": lambda: f"{nm('card')} は倒された",
        "persuaded": lambda: f"{who} が {nm('card')} を説得して仲間にした",
        "gain_region": lambda: f"{who} が地域 {nm('region')} を得た",
        "discard": lambda: f"{who} が {nm('card')} を捨てた",
        "discarded": lambda: f"{nm('card')} が捨て札になった",
        "temporary_joins": lambda: f"{nm('card')} が一時的に {who} のパーティに加わった",
        "temporary_leaves": lambda: f"一時的なキャラ {nm('card')} が去った",
        "proposal": lambda: f"求婚: {nm('card')} — " + ("成功！" if e["success"] else "失敗"),
        "sealed": lambda: f"{nm('card')} は自身のターンの終わりまで侵攻できない",
        "assassination": lambda: f"刺客: {nm('card')} — " + ("成功" if e["success"] else "失敗"),
        "game_over": lambda: f"[bold green]ゲーム終了: 勝者 {e['winners']} ({e['reason']})[/]",
    }
    fn = simple.get(k)
    return fn() if fn else None
