"""Terminal presentation of Draft Daimyo views, actions and events (rich markup)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from .battle import HIT
from .board import FACTIONS

if TYPE_CHECKING:
    from .game import DaimyoGame


def card_text(game: "DaimyoGame", c: int) -> str:
    spec = game.cards[c].spec
    kind = _WHAT[spec.type]
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
        target = _play_target(game, {"card": n[0], "targets": n[1:]}) if len(n) > 1 else ""
        return f"使う: {card_text(game, n[0])}" + (f" →{target}" if target else "")
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


#: Event kinds left out of the terminal log on purpose: a shuffle's order is for the record
#: only (nobody sees it).
SILENT_EVENTS = frozenset({"shuffle"})

_WHAT = {"warlord": "武将", "development": "発展", "strategy": "戦略", "event": "イベント",
         "honour": "名誉", "tactics": "戦術"}


def _faction(q: int | None) -> str:
    if q is None or q == -1:
        return "中立勢力"
    if q < 0:
        return "誰も"
    return FACTIONS[q] if q < len(FACTIONS) else f"player {q}"


def _name(game: "DaimyoGame", c: int) -> str:
    return escape(game.cards[c].spec.name_ja)


def _gains(game: "DaimyoGame", e: dict[str, Any]) -> str:
    """What an effect gave or took, player by player, or that it gave nothing."""
    parts = []
    for q in range(len(e.get("gold", []))):
        bits = []
        for key, unit in (("gold", "金"), ("vp", "勝利点"), ("soldiers", "兵")):
            d = e[key][q]
            if d:
                bits.append(f"{d:+d}{unit}")
        if bits:
            parts.append(f"{_faction(q)} {' '.join(bits)}")
    if e.get("neutral"):
        parts.append(f"中立勢力 {e['neutral']:+d}兵")
    if e.get("defected"):
        parts.append(f"武将{e['defected']}人が離反")
    t = e.get("target")
    if e.get("do") == "subvert" and t is not None:
        parts.append(f"{_name(game, t)} が寝返った")
    if e.get("do") == "treason_mark" and t is not None:
        parts.append(f"{_name(game, t)} に謀反の兆し")
    return "、".join(parts) if parts else "誰も何も得なかった"


def _roll(game: "DaimyoGame", e: dict[str, Any]) -> str:
    faces = e["faces"]
    why, who = e["why"], _faction(e.get("player"))
    if why in ("battle", "reroll"):
        hits = sum(1 for f in faces if f >= HIT)
        again = "振り直し: " if why == "reroll" else ""
        return f"  🎲 {again}{who} がダイス{len(faces)}個 {faces} → {hits}ヒット" + ("" if hits else " (命中なし)")
    if why == "gekokujo":
        card = f"{_name(game, e['card'])} の" if e.get("card") is not None else ""
        return f"  🎲 下克上: {who} の{card}離反判定 {faces}"
    if why == "tactics_check":
        return f"  🎲 {who} の戦術カード獲得判定 {faces}"
    if why == "order_tie":
        return f"  🎲 {who} の手番順の判定 {faces}"
    return f"  🎲 {who} の判定 ({escape(str(why))}) {faces}"


def describe_event(game: "DaimyoGame", e: dict[str, Any]) -> str | None:
    """One sentence for every kind of event the game logs (SILENT_EVENTS excepted)."""
    k = e["e"]
    p = e.get("player")
    fac = _faction
    pr = lambda key: province(game, e[key]) if e.get(key) is not None else "?"      # noqa: E731
    table = {
        "round": lambda: f"[bold]=== 第{e['round']}ラウンド ===[/]",
        "turn": lambda: f"— 第{e['round']}ラウンド ターン{e['turn']} —",
        "order": lambda: "手番順: " + " → ".join(fac(q) for q in e["order"]),
        "order_chosen": lambda: f"{fac(p)} が手番順 {e['position']} 番目を選んだ",
        "random": lambda: (f"最初の手番は {fac(e['index'])} に決まった" if e.get("why") == "first_player"
                           else f"抽選 ({escape(str(e.get('why')))}): {e['n']} 通りから {e['index'] + 1} 番"),
        "event": lambda: f"[yellow]イベント: {card_text(game, e['card'])}[/]",
        "effect": lambda: (f"  {_name(game, e['source'])} の効果: " if e.get("source") is not None else "  効果: ")
        + _gains(game, e),
        "committed": lambda: (f"{fac(p)} がドラフトのカードを1枚取った (伏せたまま)" if e.get("what") == "draft"
                              else f"{fac(p)} がこのターンのカードを伏せて選んだ"),
        "play": lambda: f"{fac(p)} が {_name(game, e['card'])} を使った" + _play_target(game, e),
        "sold": lambda: f"{fac(p)} が {_name(game, e['card'])} を捨てて1金を得た",
        "hire": lambda: f"{fac(p)} が {pr('province')} で兵士{e['n']}人を雇った",
        "march": lambda: f"{fac(p)} が {pr('frm')} → {pr('dest')} へ{e['n']}人行軍",
        "rest": lambda: f"{fac(p)} は基本行動をしなかった",
        "battle": lambda: f"[bold red]合戦: {fac(p)} の{e['soldiers']}人が {pr('province')} ({fac(e['defender'])}) を攻める[/]",
        "tactic_placed": lambda: f"{fac(p)} が戦術カードを1枚伏せて出した",
        "no_tactic": lambda: f"{fac(p)} は戦術カードを使わない",
        "tactic_revealed": lambda: f"{fac(p)} の戦術カード: {card_text(game, e['card'])}",
        "withdrew": lambda: f"{fac(p)} は金ヶ崎の退き口で{e.get('soldiers', 0)}人を損害なく {pr('province')} へ退かせた",
        "roll": lambda: _roll(game, e),
        "exchange": lambda: f"  残る兵力: 攻撃側 {e['attacker']}人、防御側 {e['defender']}人",
        "retreat": lambda: f"{fac(p)} の{e['soldiers']}人は {pr('province')} へ退却した",
        "repulsed": lambda: f"{fac(p)} の攻撃は退けられ、{e['back']}人が引き返した",
        "captured": lambda: f"{fac(p)} が {fac(e.get('from_player'))} から {pr('province')} を奪った",
        "plundered": lambda: f"{fac(p)} が略奪で {fac(e['from_player'])} から{e['gold']}金を奪った"
        + ("" if e["gold"] else " (金がなかった)"),
        "castle_razed": lambda: f"{pr('province')} の {_name(game, e['card'])} が破却された",
        "uprising": lambda: _uprising(game, e),
        "defected": lambda: f"{_name(game, e['card'])} が {fac(p)} から離反し、"
        + (f"{fac(e['dest'])} についた" if e.get("dest", -1) >= 0 else "去った"),
        "upkeep": lambda: f"{fac(p)} が維持費{e['gold']}金を払った",
        "dismissed": lambda: f"{fac(p)} は維持費を払えず {_name(game, e['card'])} を手放した",
        "income": lambda: (f"{fac(p)} の収入: +{e['gold']}金 +{e['vp']}勝利点" if e["gold"] or e["vp"]
                           else f"{fac(p)} の収入: なし (領地も収入のカードもない)"),
        "tactics_check": lambda: f"{fac(p)} の戦術カード獲得判定: 出目{e['roll']} (順位{e['rank']}) → "
        + ("成功、1枚引いた" if e["drew"] else "成功、しかし山札がない" if e["success"] else "失敗"),
        "tactics_drawn": lambda: f"{fac(p)} が戦術カード {card_text(game, e['card'])} を引いた",
        "honour": lambda: f"{fac(p)} が名誉 {_name(game, e['card'])} を得た (+{e['vp']}勝利点)",
        "game_over": lambda: f"[bold green]ゲーム終了: 勝者 {'・'.join(fac(q) for q in e['winners'])}[/]",
    }
    fn = table.get(k)
    return fn() if fn else None


def _play_target(game: "DaimyoGame", e: dict[str, Any]) -> str:
    targets = e.get("targets") or []
    if not targets:
        return ""
    spec = game.cards[e["card"]].spec
    t = targets[0]
    if spec.castle or (spec.play is not None and spec.play.do == "remove_neutral"):
        return f" ({province(game, t)})"
    return f" ({_name(game, t)} に)"


def _uprising(game: "DaimyoGame", e: dict[str, Any]) -> str:
    who = _faction(e.get("player"))
    if e.get("province") is None:
        return f"一向一揆: {who} には本拠地のほかに領地がなく、何も起きなかった"
    where = province(game, e["province"])
    lost = e.get("lost", 0)
    text = f"一向一揆: {who} の {where} で一揆 — 兵{lost}人を失った" if lost else f"一向一揆: {who} の {where} で一揆"
    if e.get("rebels"):
        return text + f"、{where} は一揆勢力{e['rebels']}人のものになった"
    if e.get("fell"):
        return text + f"、{where} は空になった"
    return text + "が、持ちこたえた"


def card_info(game: "DaimyoGame", query: str) -> list[str]:
    """The full text of every card of this game whose id, Japanese or English name contains
    `query` (case-insensitive): name (English beside it), type, cost, numbers and text."""
    q = query.strip().lower()
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    for card in game.cards.cards:
        spec = card.spec
        if (spec.id, spec.set) in seen:
            continue
        if q and q not in spec.id.lower() and q not in spec.name_ja.lower() and q not in spec.name_en.lower():
            continue
        seen.add((spec.id, spec.set))
        head = f"[bold]{escape(spec.name_ja)}[/] ({escape(spec.name_en)}) — {_WHAT[spec.type]}"
        if spec.type == "tactics":
            head += {"attacker": " (攻撃側)", "defender": " (防御側)", "either": " (攻撃側・防御側)"}[spec.side or "either"]
        facts = [f"id {spec.id}", "拡張" if spec.set == "expansion" else "基本", f"×{spec.count}"]
        if spec.type in ("warlord", "development", "strategy"):
            facts.append(f"{spec.cost}金")
        if spec.type == "warlord":
            facts.append(f"攻+{spec.attack} 防+{spec.defence} 離反値{spec.defection}")
            facts += (["【先制】"] if spec.first_strike else []) + (["【忠臣】"] if spec.loyal else [])
        if spec.castle:
            facts.append("城")
        lines = [head, "  " + " / ".join(escape(f) for f in facts)]
        if spec.text_ja:
            lines.append("  " + escape(spec.text_ja))
        if spec.text_en:
            lines.append("  " + escape(spec.text_en))
        out.append("\n".join(lines))
    return out
