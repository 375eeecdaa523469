"""Terminal presentation of Fuutei views, actions and events (rich markup)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from .constants import GUARD_CHANGES_MAX

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
        down = [(q, x if isinstance(x, int) else len(x)) for q, x in enumerate(z["support"])]
        if any(k for _, k in down):
            lines.append("  裏向きの戦闘補助: " + ", ".join(f"player {q} {k} 枚" for q, k in down if k))
    for w in pub.get("windows", []):
        d = w["data"]
        asked = w["order"][w["pos"]] if w["pos"] < len(w["order"]) else None
        lines.append(f"\n[bold red]たわけ！[/]: player {d['user']} の {name(game, d['card'])} — "
                     f"player {asked} に確認中 (確認順: {', '.join(map(str, w['order']))})")
    left = GUARD_CHANGES_MAX - pub.get("guard_changes", 0)
    if pub["phase"] in ("main", "reassign") and left < 10:
        lines.append(f"[yellow]防衛の配置し直し: このフェイズで残り {left} 回[/]")
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


#: Event kinds deliberately not printed: a shuffle's order is for the record only, and ``act``
#: records the action itself, which the game's own events describe.
SILENT_EVENTS = frozenset({"shuffle", "act"})

TYPE_NAMES = {"character": ("キャラ", "character"), "equipment": ("装備品", "equipment"),
              "hold": ("ホールド", "hold"), "battle_support": ("戦闘補助", "battle support"),
              "tawake": ("たわけ", "tawake"), "event": ("イベント", "event"), "region": ("地域", "region")}
MOD_NAMES = {"phys_atk": "物攻", "phys_def": "物防", "mag_atk": "魔攻", "mag_def": "魔防",
             "initiative": "先攻の目", "attack": "攻撃"}
ROLL_REASONS = {"initiative": "先攻決め", "phys_attack": "物理攻撃", "mag_attack": "魔法攻撃",
                "defence": "防御", "proposal": "求婚", "assassinate": "刺客", "support": "戦闘補助"}
WHY_DISCARDED = {"val_entered": "ヴァルが場に出たため", "destroy_equipment": "武器破壊で",
                 "destroy_region": "焦土作戦で", "event": "イベントで"}
REASONS = {"points": "地域の点数", "deck_out": "山札切れ", "yamiomaru": "闇王丸", "step_limit": "手数の上限"}


def _players(ps: list[int]) -> str:
    return "、".join(f"player {q}" for q in ps)


def describe_event(game: "FuuteiGame", e: dict[str, Any]) -> str | None:
    """One log line (rich markup) for every event kind Fuutei logs; None for SILENT_EVENTS."""
    k = e["e"]
    if k in SILENT_EVENTS:
        return None
    p = e.get("player")
    who = f"player {p}" if p is not None else "誰か"

    def nm(key: str) -> str:
        return name(game, e[key])

    def side(q: int) -> str:
        b = {0: "侵攻側", 1: "防衛側"}
        return b.get(q, "")

    if k == "roll":
        why = ROLL_REASONS.get(e["why"], escape(str(e["why"])))
        card = f" ({nm('card')})" if e.get("card") is not None else ""
        faces = f"{e['faces']} → " if e["faces"] else ""
        return f"  🎲 {who} の{why}{card}: {e['dice']} = {faces}[bold]{e['total']}[/]"
    if k == "random":
        if e["why"] == "random_discard":
            return f"  🎲 {who} の手札 {e['n']} 枚から無作為に 1 枚 ({e['index'] + 1} 枚目)"
        return f"  🎲 無作為 ({escape(str(e['why']))}): {e['n']} 通りから {e['index'] + 1} 番目"
    simple = {
        "turn": lambda: f"[bold]— ターン {e['turn']}: player {p} —[/]",
        "region_setup": lambda: f"{who} の最初の地域: {card_line(game, e['card'])}",
        "setup_event_returned": lambda: f"{who} の手札のイベント {nm('card')} を山札に混ぜ戻し、1 枚引き直した",
        "setup_region": lambda: f"{who} の手札の地域 {card_line(game, e['card'])} を自分の場に置き、1 枚引き直した",
        "dealt": lambda: f"{who} の手札 ({len(e['cards'])} 枚): " + ", ".join(name(game, c) for c in e["cards"]),
        "draw": lambda: f"{who} は {nm('card')} を引いた",
        "draw_count": lambda: f"{who} が山札から 1 枚引いた",
        "empty_draw": lambda: f"[yellow]山札が空: {who} は引けなかった[/]"
                              + (f" ({e['missed']} 枚)" if e.get("missed", 1) > 1 else ""),
        "event": lambda: f"{who} がイベント {nm('card')} を引いた: {escape(game.catalogue[e['card']].spec.text_ja)}",
        "region_drawn": lambda: f"{who} が地域 {nm('card')} を引いた → " + ("中央" if e["dest"] == "center" else "自分の場"),
        "pile_emptied": lambda: "[yellow]山札が尽きた[/]",
        "play": lambda: f"{who} が {nm('card')} を場に出した",
        "equip": lambda: f"{who} が {nm('target')} に {nm('card')} を装備",
        "guard": lambda: f"{who}: {nm('card')} が {nm('region')} を守る",
        "unguard": lambda: f"{who}: {nm('region')} の防衛を外した",
        "hold": lambda: f"{who} がホールド {nm('card')} を使用"
                        + (" → " + ", ".join(name(game, t) for t in e["targets"]) if e.get("targets") else ""),
        "tawake": lambda: f"[red]{who} の「たわけ！」[/] — {nm('negates')} を無効化",
        "negated": lambda: f"{nm('card')} は無効化されて捨て札に",
        "no_effect": lambda: f"{who} の {nm('card')} は効果がなかった (目標がもういない)",
        "invade": lambda: f"[bold]{who} が {nm('card')} で {nm('region')} に侵攻[/]",
        "support_committed": lambda: (f"{who} ({side(e.get('side', -1))}) は戦闘補助カードを"
                                      + ("1 枚裏向きに出した" if e.get("placed", True) else "出さなかった")),
        "support_revealed": lambda: f"{who} の戦闘補助: {nm('card')} を表向きに",
        "support_effect": lambda: f"{nm('card')} の効果: " + (", ".join(
            f"{side(t)}の{MOD_NAMES.get(stat, escape(str(stat)))} {amount:+d}" for t, stat, amount in e["changes"])
            if e.get("changes") else "何も変わらなかった") + " (この戦闘の終わりまで)",
        "initiative": lambda: f"先攻: player {e['first']} (出目 {e['rolls'][0]} 対 {e['rolls'][1]})",
        "attack": lambda: (f"{nm('card')} の{'物理' if e['attack'] == 'phys' else '魔法'}攻撃 "
                           f"{e['total']} 対 {nm('target')} の防御 {e['defence']}"
                           + (" [bold red]クリティカル！[/]" if e["critical"] else "")
                           + (" → 倒した" if e["defeated"] else " → 倒せなかった")),
        "defeated": lambda: f"{nm('card')} (player {p}) は倒されて捨て札に",
        "persuaded": lambda: f"{who} が {nm('card')} を説得して仲間にした",
        "battle_over": lambda: "戦闘終了: " + {0: "侵攻側のキャラが倒された", 1: "防衛側のキャラが倒された"}.get(
            e["defeated"], "どちらも倒れず、何も動かない"),
        "gain_region": lambda: f"{who} が地域 {nm('region')} を得た"
                               + (f" (player {e['from_player']} から)" if e.get("from_player", -1) >= 0 else " (中央から)"),
        "discard": lambda: f"{who} が {nm('card')} を捨てた",
        "discarded": lambda: f"{nm('card')} が{WHY_DISCARDED.get(e.get('why'), '')}捨て札になった",
        "temporary_joins": lambda: f"{nm('card')} が一時的に {who} のパーティに加わった",
        "temporary_leaves": lambda: f"一時的なキャラ {nm('card')} が去った → "
                                    + ("手札に戻る" if e.get("dest") == "hand" else "捨て札"),
        "proposal": lambda: (f"求婚: {nm('card')} — 出目 {e['roll']} (必要 {e['need']}) "
                             + ("成功！ " + who + " のパーティに加わった" if e["success"] else "失敗")),
        "sealed": lambda: f"{nm('card')} は自身のターンの終わりまで侵攻できない",
        "assassination": lambda: (f"刺客: {nm('card')} — 出目 {e['roll']} 対 "
                                  f"{MOD_NAMES.get(e.get('against', 'phys_def'), '防御')} {e['defence']} → "
                                  + ("成功、捨て札に" if e["success"] else "失敗")),
        "game_over": lambda: (f"[bold green]ゲーム終了: 勝者 {_players(e['winners'])} "
                              f"({REASONS.get(e['reason'], escape(str(e['reason'])))})[/]"),
    }
    fn = simple.get(k)
    if fn is not None:
        return fn()
    fields = ", ".join(f"{key}={v}" for key, v in e.items() if key not in ("e", "to", "chance", "seq"))
    return escape(f"{k}: {fields}")


def card_info(game: "FuuteiGame", query: str) -> list[str]:
    """The full text (rich markup) of every card whose id, Japanese or English name contains
    `query` (case-insensitive): name in Japanese with English beside it, type, stats or bonus
    or points, effect text, and how many copies the card set holds."""
    q = query.strip().casefold()
    out, seen = [], set()
    counts: dict[str, int] = {}
    for c in game.catalogue.cards:
        counts[c.id] = counts.get(c.id, 0) + 1
    for c in game.catalogue.cards:
        spec = c.spec
        if spec.id in seen or not any(q in x.casefold() for x in (spec.id, spec.name_ja, spec.name_en)):
            continue
        seen.add(spec.id)
        ja, en = TYPE_NAMES[spec.type]
        n = counts[spec.id]
        lines = [f"[bold]{escape(spec.name_ja)}[/] ({escape(spec.name_en)}) — {ja} ({en}) · "
                 f"{n} 枚 ({n} {'copy' if n == 1 else 'copies'} in the set) · [dim]{spec.id}[/]"]
        if c.stats is not None:
            sex = {"male": "男性 ♂ male", "female": "女性 ♀ female"}.get(spec.sex or "", "")
            lines.append(f"  {sex}  " + "  ".join(f"{label} {d}" for label, d in zip(STAT_NAMES, c.stats)))
        if spec.type == "equipment":
            lines.append("  " + "  ".join(f"{label} {b:+d}" for label, b in zip(STAT_NAMES, c.bonus)))
        if spec.type == "region":
            lines.append(f"  {spec.points} 点 (points)")
        if spec.excluded_by:
            lines.append(f"  使えない: {escape(game.catalogue[game.catalogue.by_id(spec.excluded_by)[0]].spec.name_ja)}"
                         " が場にいる時")
        if spec.text_ja:
            lines.append(f"  {escape(spec.text_ja)}")
        if spec.text_en:
            lines.append(f"  [italic]{escape(spec.text_en)}[/]")
        out.append("\n".join(lines))
    return out
