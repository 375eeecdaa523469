"""Terminal presentation of 戦国大戦 双 views, actions and events (rich markup).

Every event kind the game logs reads as a sentence (`describe_event`); warlords in play show
their keywords, abilities with their timing tags, current 兵力 and 攻城力; `card_info` gives
a card's full text for the terminal's ``? NAME``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from .cards import UNIT_NAMES_JA, CardDef, Effect, pool

if TYPE_CHECKING:
    from .game import SengokuGame

TYPE_JA = {"warlord": "武将", "stratagem": "計略", "formation": "布陣", "ougi": "奥義", "summon": "召喚兵"}
TIMING_JA = {"main": "メイン", "battle_confirmed": "戦闘確定時", "retreat": "撤退時",
             "attack_declared": "攻撃宣言時", "always": "常時", "battle": "戦闘"}
WHY_JA = {"stratagem": "計略", "ougi": "奥義", "ability": "能力", "counter": "反撃計略",
          "battle_confirmed": "{戦闘確定時}", "retreat": "{撤退時}", "attack_declared": "{攻撃宣言時}"}
REASON_JA = {"castle": "落城", "library_out": "山札切れ", "card_condition": "カードの勝利条件",
             "draw": "引き分け", "concede": "投了"}
PHASE_JA = {"mulligan": "マリガン", "koku": "国力フェイズ", "main": "メインフェイズ", "intercept": "迎撃の選択",
            "counter": "反撃計略の対象選択", "discard": "終了フェイズ (手札を7枚に)", "over": "ゲーム終了"}
#: Event kinds left out of the log on purpose: the random pick of the first player is told
#: by the ``first_player`` event that follows it.
SILENT_EVENTS = frozenset({"random"})


def name(game: "SengokuGame", u: int, view: dict[str, Any] | None = None) -> str:
    if u >= len(game.instances):
        token = (view or {}).get("public", {}).get("tokens", {}).get(str(u))
        kind = UNIT_NAMES_JA.get(token["unit"], "") if token else ""
        return f"召喚兵{kind}#{u}"
    return escape(game.instances[u].name)


def effect_text(eff: Effect) -> str:
    """What an effect does, in words (for cards whose data prints no text, abilities in
    play and the log)."""
    g = eff.get
    do, aim = eff.do, eff.aim
    one = {"ally": "味方1体", "all_allies": "味方すべて", "self": "この武将", "enemy": "敵1体",
           "all_enemies": "敵すべて"}.get(aim or "", "")
    limit = f"兵力{g('max_strength')}以下の" if g("max_strength") is not None else ""
    unit = UNIT_NAMES_JA.get(g("unit") or "", "")
    text = {
        "strength": lambda: f"{one}の兵力{int(g('amount', 0)):+d}（このターン）",
        "siege_up": lambda: f"{one}の攻城力+{g('amount', 1)}（このターン）",
        "damage": lambda: f"{one}に{g('amount', 0)}ダメージ",
        "draw": lambda: f"カードを{g('n', 1)}枚引く",
        "destroy": lambda: f"{limit}敵1体を撃破する",
        "ready": lambda: f"{one}を待機にする",
        "exhaust": lambda: f"{one}を疲弊させる",
        "summon": lambda: (f"兵力{g('strength', 1000)}・攻城力{g('siege', 0)}の"
                           f"{UNIT_NAMES_JA.get(g('unit', 'infantry'), '')}の召喚兵{g('count', 1)}体を自陣に出す"),
        "build_wall": lambda: f"築城{g('n', 1)}（山札の上から城壁に）",
        "bounce": lambda: f"{limit}敵武将1体を手札に戻す",
        "exile": lambda: f"{limit}敵武将1体を除外する",
        "aura": lambda: f"味方の{unit or '部隊'}すべての兵力{int(g('amount', 0)):+d}",
        "win_if": lambda: f"国力{g('koku', 0)}以上かつ陣に武将{g('camp', 0)}体以上なら勝利",
        "lose_if": lambda: f"相手の手札{g('hand_at_most', 99)}枚以下かつ山札{g('deck_at_most', 999)}枚以下なら相手の敗北",
        "cannot_attack": lambda: "この武将は攻撃できない",
    }[do]()
    return text


def ability_text(ab: Any) -> str:
    """``{戦闘確定時}：この武将の兵力+500（このターン）`` with its cost tags."""
    tags = "{" + TIMING_JA.get(ab.timing, ab.timing) + "}"
    if ab.exhaust:
        tags += "{待機⇒疲弊}"
    if ab.once:
        tags += "{1回制限}"
    return f"{tags}：{effect_text(ab)}"


def rules_text(card: CardDef) -> str:
    """A card's keywords and abilities (or effect and counter), as the rules read them."""
    spec = card.spec
    parts = [f"【{k}】" for k in spec.keywords]
    parts += [ability_text(a) for a in spec.abilities]
    if spec.type == "stratagem" and spec.effect is not None:
        parts.append("{" + TIMING_JA.get(spec.timing or "", "") + "}" + ("（永続）" if spec.permanent else "")
                     + f"：{effect_text(spec.effect)}")
    elif spec.effect is not None:
        parts.append(effect_text(spec.effect))
    if spec.counter is not None:
        parts.append(f"反撃計略：{effect_text(spec.counter)}")
    return " ".join(parts)


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


def full_text(card: CardDef) -> str:
    """Everything printed on a card: number, names, type, cost, colour, stats, keywords,
    abilities or effect and counter, and its text."""
    spec = card.spec
    lines = [f"[bold]{escape(spec.name_ja)}[/] ({escape(spec.name_en)})  {spec.number}  "
             f"{TYPE_JA[spec.type]}  色 {spec.color}  コスト {card.cost}"]
    if spec.type == "warlord":
        lines.append(f"  {UNIT_NAMES_JA.get(spec.unit or '', '')}  兵力 {spec.strength}  攻城力 {spec.siege}")
    if spec.type == "ougi":
        lines.append(f"  国力 {spec.threshold} 以上で使える（1ゲーム1回）")
    if spec.text_ja:
        lines.append(f"  {escape(spec.text_ja)}")
    elif rules := rules_text(card):
        lines.append(f"  {escape(rules)}")
    if spec.text_en:
        lines.append(f"  [dim]{escape(spec.text_en)}[/]")
    return "\n".join(lines)


def card_info(game: "SengokuGame", query: str) -> list[str]:
    """The full text of each card of the pool whose number or Japanese or English name
    contains `query` (case-insensitive), or whose instance id in this game it is."""
    q = query.strip().casefold()
    if not q:
        return []
    cards = game.pool.cards if hasattr(game, "pool") else pool().cards
    out: dict[str, CardDef] = {}
    if q.isdigit() and int(q) < len(game.instances):
        card = game.instances[int(q)]
        out[card.number] = card
    for number, card in cards.items():
        spec = card.spec
        if q in number.casefold() or q in spec.name_ja.casefold() or q in spec.name_en.casefold():
            out.setdefault(number, card)
    return [full_text(card) for card in out.values()]


def unit_line(game: "SengokuGame", u: int, view: dict[str, Any]) -> str:
    """A unit in play: name, troop type, current 兵力 (printed) and 攻城力, state, keywords and
    abilities with their timing tags."""
    pub = view["public"]
    state = "[dim]疲弊[/]" if u in pub["exhausted"] else "待機"
    now = pub["strength"].get(str(u), "?")
    siege = pub["siege"].get(str(u), 0)
    if u >= len(game.instances):
        token = pub["tokens"].get(str(u), {})
        printed, kind, rules = token.get("strength"), UNIT_NAMES_JA.get(token.get("unit", ""), ""), ""
    else:
        card = game.instances[u]
        printed, kind, rules = card.strength, UNIT_NAMES_JA.get(card.unit or "", ""), rules_text(card)
    shown = f"兵力 [bold]{now}[/]" + (f" ({printed})" if printed is not None and now != printed else "")
    return (f"{name(game, u, view)} {kind} {shown} 攻城力 {siege} ({state})"
            + (f"  {escape(rules)}" if rules else ""))


def render_view(game: "SengokuGame", view: dict[str, Any]) -> str:
    z, pub = view["zones"], view["public"]
    me = view["player"]
    lines = [f"[bold]ターン {pub['turn']}[/] — player {pub['turn_player']} の{PHASE_JA.get(pub['phase'], pub['phase'])}  "
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
            og = game.instances[z["ougi_up"][p][0]]
            lines.append(f"  奥義: {escape(og.name)} (使用済み): {escape(effect_text(og.effect))}")
        elif isinstance(ougi, list) and ougi:
            lines.append(f"  奥義 (裏向き): {card_text(game, ougi[0])}")
        else:
            lines.append("  奥義: 裏向き")
        for u in z["camp"][p] + z["summons"][p]:
            lines.append(f"  陣: {unit_line(game, u, view)}")
        for c in z["field"][p]:
            lines.append(f"  永続計略: {name(game, c)}: {escape(effect_text(game.instances[c].effect))}")
    if me is not None and isinstance(z["hand"][me], list):
        lines.append("\n[bold]手札[/]:")
        lines.extend(f"  {card_text(game, c)}" for c in z["hand"][me])
    b = pub["battle"]
    if b:
        target = "城" if b["target"] == "castle" else name(game, b["target"], view)
        lines.append(f"\n[bold red]攻撃中[/]: {name(game, b['attacker'], view)} → {target}"
                     + (f" (迎撃: {name(game, b['interceptor'], view)})" if b["interceptor"] >= 0 else ""))
    for w in pub["windows"]:
        order = w["order"]
        if w["passes"] < len(order):
            lines.append(f"  戦闘計略の機会: player {order[w['pos']]} の番 (続けてパス {w['passes']}/{len(order)})")
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
        return f"能力: {name(game, n[0])} {escape(ability_text(ab))}" + (f" → {name(game, n[2], view)}" if len(n) > 2 else "")
    if verb == "ougi":
        me = view.get("player")
        ougi = view["zones"]["ougi"][me] if me is not None else None
        what = f" {escape(effect_text(game.instances[ougi[0]].effect))}" if isinstance(ougi, list) and ougi else ""
        return "奥義を発動" + what + (f" → {name(game, n[0], view)}" if n else "")
    if verb == "attack":
        target = "城" if args[1] == "castle" else name(game, int(args[1]), view)
        extra = ({"shippu": " (疾風怒濤", "muso": " (無双連撃"}.get(args[2], "") + f": {name(game, n[-1])} を捨てる)"
                 if len(args) > 3 else "")
        return f"攻撃: {name(game, n[0], view)} → {target}{extra}"
    if verb == "intercept":
        return f"迎撃: {name(game, n[0], view)}"
    if verb == "counter":
        return f"反撃計略の目標: {name(game, n[1], view)}"
    if verb == "discard":
        return f"捨てる: {card_text(game, n[0])}"
    return action


def _effect_event(game: "SengokuGame", e: dict[str, Any], who: str) -> str:
    """An effect carried out, as a sentence: whose card did what to whom."""
    do, amount = e["do"], e.get("amount")
    why = WHY_JA.get(e.get("why", ""), "")
    target = e.get("target")
    t = name(game, target) if target is not None else None
    head = f"{who} の{why}: " if why else f"{who}: "
    if do == "strength":
        whom = t or "味方すべて"
        return head + f"{whom} の兵力 {int(amount or 0):+d} (このターン)"
    if do == "siege_up":
        return head + f"{t} の攻城力 +{e.get('amount', 1)} (このターン)"
    if do == "damage":
        return head + f"{t or '敵すべて'} に {amount} ダメージ"
    verbs = {"destroy": "を撃破した", "ready": "を待機に戻した", "exhaust": "を疲弊させた",
             "bounce": "を持ち主の手札に戻した", "exile": "を除外した"}
    return head + f"{t} {verbs.get(do, 'に効果')}"


def describe_event(game: "SengokuGame", e: dict[str, Any]) -> str | None:
    """One log line for an event: a sentence, never the internal verb."""
    k = e["e"]
    if k in SILENT_EVENTS:
        return None
    p = e.get("player")
    who = f"player {p}" if p is not None else ""

    def nm(key: str) -> str:
        return name(game, e[key])

    def target() -> str:
        return "城" if e["target"] == "castle" else name(game, e["target"])

    table = {
        "turn": lambda: f"[bold]— ターン {e['turn']}: player {p} —[/]",
        "first_player": lambda: f"抽選で先攻は player {p}",
        "draw": lambda: f"{who} は {nm('card')} を引いた",
        "draw_count": lambda: f"{who} はカードを {e['n']} 枚引いた",
        "mulligan": lambda: f"{who} がマリガンした (手札を山札の下へ、5枚引き直し)",
        "koku": lambda: f"{who} が国力を置いた: " + (nm("card") + " (表)" if e["face"] == "up" else "裏向き (1枚引く)"),
        "deploy": lambda: f"{who} が {nm('card')} を配置した",
        "stratagem": lambda: f"{who} が計略 {nm('card')} を使った"
                             + (f" (対象: {name(game, e['targets'][0])})" if e.get("targets") else ""),
        "ability": lambda: f"{who}: {nm('card')} の能力 "
                           + escape(ability_text(game.instances[e['card']].spec.abilities[e['index']])),
        "ougi": lambda: f"[bold]{who} の奥義 {nm('card')}！[/] "
                        + escape(effect_text(game.instances[e['card']].effect)),
        "attack": lambda: f"[bold]{who}: {nm('unit')} が {target()} に攻撃[/]",
        "intercept": lambda: f"{who}: {nm('unit')} が迎撃した",
        "no_intercept": lambda: f"{who} は迎撃しなかった",
        "combat": lambda: f"戦闘: {nm('attacker')} に {e['to_attacker']} ダメージ、{nm('defender')} に {e['to_defender']} ダメージ",
        "attack_result": lambda: f"{who}: {nm('unit')} の攻撃は" + ("勝ち" if e["won"] else "勝てなかった"),
        "destroyed": lambda: f"{nm('unit')} は撃破された",
        "wall_destroyed": lambda: f"[red]player {p} の城壁が破壊された[/]: {nm('card')}",
        "counter_stratagem": lambda: f"player {p} の反撃計略: {nm('card')}",
        "summon": lambda: f"{who} が召喚兵を出した ({UNIT_NAMES_JA.get(e['unit'], e['unit'])} 兵力{e['strength']} 攻城力{e['siege']})",
        "build_wall": lambda: f"{who} の築城: 城壁 +{e['n']}",
        "effect": lambda: _effect_event(game, e, who),
        "fizzle": lambda: f"{who} の{WHY_JA.get(e.get('why', ''), '効果')}は不発 (対象がいない)",
        "keyword": lambda: f"{who}: {nm('card')} が{e['keyword']}で攻撃 ({name(game, e['discard'])} を捨てた)",
        "discard": lambda: f"{who} が {nm('card')} を捨てた (手札は7枚まで)",
        "end_turn": lambda: f"player {p} のターン終了 (ダメージとこのターンの変化は消える)",
        "game_over": lambda: f"[bold green]ゲーム終了: 勝者 "
                             + (", ".join(f"player {w}" for w in e["winners"]) or "なし")
                             + f" ({REASON_JA.get(e['reason'], e['reason'])})[/]",
    }
    fn = table.get(k)
    return fn() if fn else None
