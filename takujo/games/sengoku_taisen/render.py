"""Terminal presentation of 戦国大戦 双 views, actions and events (rich markup)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from .cards import UNIT_NAMES_JA

if TYPE_CHECKING:
    from .game import SengokuGame

TYPE_JA = {"warlord": "武将", "stratagem": "計略", "formation": "布陣", "ougi": "奥義", "summon": "召喚兵"}


def name(game: "SengokuGame", u: int, view: dict[str, Any] | None = None) -> str:
    if u >= len(game.instances):
        token = (view or {}).get("public", {}).get("tokens", {}).get(str(u))
        return f"召喚兵#{u}" + (f"({token['strength']})" if token else "")
    return escape(game.instances[u].name)


def card_text(game: "SengokuGame", c: int) -> str:
    card = game.instances[c]
    spec = card.spec
    head = f"{escape(spec.name_ja)} [{spec.number} {TYPE_JA[spec.type]} {spec.color} コスト{card.cost}]"
    if spec.type == "warlord":
        kws = "".join(f"【{k}】" for k in spec.keywords)
        head += f" {UNIT_NAMES_JA.get(spec.unit or '', '')} 兵力{spec.strength} 攻城{spec.siege} {kws}"
    if spec.type == "stratagem":
        head += " {メイン}" if spec.timing == "main" else " {戦闘}"
    if spec.type == "ougi":
        head += f" 国力{spec.threshold}"
    return head + (f" — {escape(spec.text_ja)}" if spec.text_ja else "")


def unit_line(game: "SengokuGame", u: int, view: dict[str, Any]) -> str:
    pub = view["public"]
    state = "[dim]疲弊[/]" if u in pub["exhausted"] else "待機"
    return (f"{name(game, u, view)} 兵力 [bold]{pub['strength'].get(str(u), '?')}[/] "
            f"攻城 {pub['siege'].get(str(u), 0)} ({state})")


def render_view(game: "SengokuGame", view: dict[str, Any]) -> str:
    z, pub = view["zones"], view["public"]
    me = view["player"]
    lines = [f"[bold]ターン {pub['turn']}[/] — player {pub['turn_player']} の {pub['phase']}  "
             f"(先攻: player {pub['first_player']})"]
    for p in (0, 1):
        who = "[bold cyan]あなた[/]" if p == me else f"player {p}"
        hand = z["hand"][p]
        deck_name = game.deck_names[p]
        up = z["koku_up"][p]
        down = z["koku_down"][p]
        n_down = len(down) if isinstance(down, list) else down
        colours: dict[str, int] = {}
        for c in up:
            col = game.instances[c].spec.color
            colours[col] = colours.get(col, 0) + 1
        ready_up = sum(1 for c in up if c not in pub["exhausted"])
        lines.append(f"\n{who} ({escape(deck_name)}): 城壁 [bold]{z['walls'][p]}[/] 枚, 山札 {z['deck'][p]}, "
                     f"手札 {len(hand) if isinstance(hand, list) else hand}, 捨札 {len(z['discard'][p])}")
        lines.append(f"  国力 {len(up) + n_down}/10: 表 " + (" ".join(f"{c}{n}" for c, n in colours.items()) or "なし")
                     + f" (待機 {ready_up}), 裏 {n_down} (疲弊 {pub['koku_down_exhausted'][p]})")
        ougi = z["ougi"][p]
        if z["ougi_up"][p]:
            lines.append(f"  奥義: {name(game, z['ougi_up'][p][0])} (使用済み)")
        elif isinstance(ougi, list) and ougi:
            lines.append(f"  奥義 (裏向き): {card_text(game, ougi[0])}")
        else:
            lines.append("  奥義: 裏向き")
        for u in z["camp"][p] + z["summons"][p]:
            lines.append(f"  陣: {unit_line(game, u, view)}")
        for c in z["field"][p]:
            lines.append(f"  永続計略: {name(game, c)}")
    if me is not None and isinstance(z["hand"][me], list):
        lines.append("\n[bold]手札[/]:")
        lines.extend(f"  {card_text(game, c)}" for c in z["hand"][me])
    b = pub["battle"]
    if b:
        target = "城" if b["target"] == "castle" else name(game, b["target"], view)
        lines.append(f"\n[bold red]攻撃中[/]: {name(game, b['attacker'], view)} → {target}"
                     + (f" (迎撃: {name(game, b['interceptor'], view)})" if b["interceptor"] >= 0 else ""))
    return "\n".join(lines)


def describe_action(game: "SengokuGame", action: str, view: dict[str, Any]) -> str:
    verb, *args = action.split()
    n = [int(a) for a in args if a.lstrip("-").isdigit()]
    fixed = {"end": "メインフェイズを終える (終了フェイズへ)", "skip": "国力を置かない", "keep": "手札を残す",
             "mulligan": "マリガンする (手札を山札の下へ、5枚引き直す)", "nointercept": "迎撃しない",
             "pass": "計略を使わない", "concede": "投了する"}
    if verb in fixed:
        return fixed[verb]
    if verb == "koku":
        return f"国力に{'表' if args[1] == 'up' else '裏 (1枚引く)'}で置く: {card_text(game, n[0])}"
    if verb == "deploy":
        return f"武将を配置: {card_text(game, n[0])}"
    if verb == "stratagem":
        return f"計略: {card_text(game, n[0])}" + (f" → {name(game, n[1], view)}" if len(n) > 1 else "")
    if verb == "ability":
        ab = game.instances[n[0]].spec.abilities[n[1]]
        return f"能力: {name(game, n[0])} {{{ab.timing}}} {ab.do}" + (f" → {name(game, n[2], view)}" if len(n) > 2 else "")
    if verb == "ougi":
        return "奥義を発動" + (f" → {name(game, n[0], view)}" if n else "")
    if verb == "attack":
        target = "城" if args[1] == "castle" else name(game, int(args[1]), view)
        extra = {"shippu": " (疾風怒濤)", "muso": " (無双連撃)"}.get(args[2], "") if len(args) > 2 else ""
        return f"攻撃: {name(game, n[0], view)} → {target}{extra}"
    if verb == "intercept":
        return f"迎撃: {name(game, n[0], view)}"
    if verb == "counter":
        return f"反撃計略の目標: {name(game, n[1], view)}"
    if verb == "discard":
        return f"捨てる: {card_text(game, n[0])}"
    return action


def describe_event(game: "SengokuGame", e: dict[str, Any]) -> str | None:
    k = e["e"]
    p = e.get("player")
    who = f"player {p}" if p is not None else ""

    def nm(key: str) -> str:
        return name(game, e[key])

    table = {
        "turn": lambda: f"[bold]— ターン {e['turn']}: player {p} —[/]",
        "first_player": lambda: f"先攻は player {p}",
        "draw": lambda: f"{who} は {nm('card')} を引いた",
        "mulligan": lambda: f"{who} がマリガンした",
        "koku": lambda: f"{who} が国力を置いた: " + (nm("card") + " (表)" if e["face"] == "up" else "裏向き"),
        "deploy": lambda: f"{who} が {nm('card')} を配置",
        "stratagem": lambda: f"{who} の計略 {nm('card')}",
        "ability": lambda: f"{who}: {nm('card')} の能力",
        "ougi": lambda: f"[bold]{who} の奥義 {nm('card')}！[/]",
        "attack": lambda: f"[bold]{who}: {nm('unit')} が " + ("城" if e["target"] == "castle" else name(game, e["target"])) + " に攻撃[/]",
        "intercept": lambda: f"{who}: {nm('unit')} が迎撃",
        "no_intercept": lambda: f"{who} は迎撃しない",
        "combat": lambda: f"戦闘: {nm('attacker')} に {e['to_attacker']} ダメージ、{nm('defender')} に {e['to_defender']} ダメージ",
        "destroyed": lambda: f"{nm('unit')} は撃破された",
        "wall_destroyed": lambda: f"[red]player {p} の城壁が破壊された[/]: {nm('card')}",
        "counter_stratagem": lambda: f"反撃計略: {nm('card')}",
        "summon": lambda: f"{who} が召喚兵 (兵力{e['strength']}) を呼んだ",
        "build_wall": lambda: f"{who} の築城: 城壁 +{e['n']}",
        "effect": lambda: f"  効果 {e['do']}" + (f" → {name(game, e['target'])}" if e.get("target") is not None else ""),
        "keyword": lambda: f"{who}: {nm('card')} の{e['keyword']}",
        "discard": lambda: f"{who} が {nm('card')} を捨てた",
        "game_over": lambda: f"[bold green]ゲーム終了: 勝者 {e['winners']} ({e['reason']})[/]",
    }
    fn = table.get(k)
    return fn() if fn else None
