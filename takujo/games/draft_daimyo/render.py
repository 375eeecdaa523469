"""Terminal presentation of Draft Daimyo views, actions and events (rich markup)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

if TYPE_CHECKING:
    from .game import DaimyoGame


def card_text(game: "DaimyoGame", c: int) -> str:
    spec = game.cards[c].spec
    kind = {"warlord": "武将", "development": "発展", "strategy": "戦略", "event": "イベント",
            "honour": "名誉", "tactics": "戦術"}[spec.type]
    extra = ""
    if spec.type == "warlord":
        extra = f" 攻+{spec.attack} 防+{spec.defence} 離反{spec.defection}" + (" 【先制】" if spec.first_strike else "") \
            + (" 【忠臣】" if spec.loyal else "")
    return f"{escape(spec.name_ja)} [{kind} {spec.cost}金{extra}]" + (f" {escape(spec.text_ja)}" if spec.text_ja else "")


def province(game: "DaimyoGame", i: int) -> str:
    return escape(game.board.provinces[i].name_ja)


def render_view(game: "DaimyoGame", view: dict[str, Any]) -> str:
    z, pub = view["zones"], view["public"]
    me = view["player"]
    fac = pub["factions"]
    lines = [f"[bold]第{pub['round']}ラウンド ターン{pub['turn_of_round']}[/] — {pub['phase']}  "
             f"手番順: " + " → ".join(fac[p] for p in pub["order"])]
    castles = {pr for pr in pub["castles"].values()}
    for i, p in enumerate(game.board.provinces):
        o = pub["owner"][i]
        who = {-1: "中立", -2: "空き"}.get(o, fac[o] if o >= 0 else "")
        adj = "・".join(province(game, j) for j in game.board.adjacent[i])
        lines.append(f"  {escape(p.name_ja)}({p.kokuryoku}) {who} 兵{pub['soldiers'][i]}" + (" 城" if i in castles else "")
                     + f"  [dim]→ {adj}[/]")
    for p, f in enumerate(fac):
        tag = "[bold cyan]あなた[/] " if p == me else ""
        hand = z["hand"][p]
        tactics = z["tactics_hand"][p]
        domain = ", ".join(escape(game.cards[c].spec.name_ja) for c in z["domain"][p]) or "なし"
        lines.append(f"{tag}{f}: 金{pub['gold'][p]} 勝利点{pub['vp'][p]} 手札{len(hand) if isinstance(hand, list) else hand}"
                     f" 戦術{len(tactics) if isinstance(tactics, list) else tactics} — {domain}")
    if me is not None:
        for label, key in (("手札", "hand"), ("ドラフト", "packets"), ("選んだカード", "chosen"), ("戦術カード", "tactics_hand")):
            cards = z[key][me]
            if isinstance(cards, list) and cards:
                lines.append(f"[bold]{label}[/]: " + "; ".join(card_text(game, c) for c in cards))
    return "\n".join(lines)


def describe_action(game: "DaimyoGame", action: str, view: dict[str, Any]) -> str:
    verb, *args = action.split()
    n = [int(a) for a in args if a.lstrip("-").isdigit()]
    if verb in ("pick", "choose"):
        return ("ドラフト: " if verb == "pick" else "このターンのカード: ") + card_text(game, n[0])
    if verb == "play":
        return f"使う: {card_text(game, n[0])}" + (f" → {n[1]}" if len(n) > 1 else "")
    if verb == "sell":
        return "捨てて1金を得る"
    if verb == "hire":
        return f"兵士を{n[0]}人雇う ({n[0]}金)"
    if verb == "march":
        return f"行軍: {province(game, n[0])} → {province(game, n[1])} ({n[2]}人)"
    if verb == "rest":
        return "基本行動をしない"
    if verb == "tactic":
        return f"戦術カード: {card_text(game, n[0])}"
    if verb == "notactic":
        return "戦術カードを使わない"
    if verb == "order":
        return f"手番順 {n[0]} 番目を選ぶ"
    return action


def describe_event(game: "DaimyoGame", e: dict[str, Any]) -> str | None:
    k = e["e"]
    p = e.get("player")
    fac = lambda q: ("中立" if q is not None and q < 0 else (["織田", "武田", "上杉", "今川"][q] if q is not None else ""))
    table = {
        "round": lambda: f"[bold]=== 第{e['round']}ラウンド ===[/]",
        "turn": lambda: f"— ターン {e['turn']} —",
        "event": lambda: f"[yellow]イベント: {card_text(game, e['card'])}[/]",
        "play": lambda: f"{fac(p)} が {escape(game.cards[e['card']].spec.name_ja)} を使った",
        "sold": lambda: f"{fac(p)} がカードを捨てて1金",
        "hire": lambda: f"{fac(p)} が {province(game, e['province'])} で兵士{e['n']}人を雇った",
        "march": lambda: f"{fac(p)} が {province(game, e['frm'])} → {province(game, e['dest'])} へ{e['n']}人行軍",
        "battle": lambda: f"[bold red]合戦: {fac(p)} → {province(game, e['province'])} ({fac(e['defender'])})[/]",
        "roll": lambda: f"  🎲 {e['why']}: {e['faces']}",
        "captured": lambda: f"{fac(p)} が {province(game, e['province'])} を得た",
        "repulsed": lambda: f"{fac(p)} の攻撃は退けられた",
        "retreat": lambda: f"{fac(p)} は {province(game, e['province'])} へ退却",
        "income": lambda: f"{fac(p)}: +{e['gold']}金 +{e['vp']}勝利点",
        "defected": lambda: f"{escape(game.cards[e['card']].spec.name_ja)} が離反！",
        "tactic_revealed": lambda: f"{fac(p)} の戦術: {escape(game.cards[e['card']].spec.name_ja)}",
        "honour": lambda: f"{fac(p)} が名誉 {escape(game.cards[e['card']].spec.name_ja)} (+{e['vp']})",
        "game_over": lambda: f"[bold green]ゲーム終了: 勝者 {[fac(q) for q in e['winners']]}[/]",
    }
    fn = table.get(k)
    return fn() if fn else None
