"""Presentation of 戦国大戦 双: events, actions and prompts as messages (``messages.toml``,
Japanese and English), and the terminal's picture of a view (rich markup).

Every event kind the game logs is a message (`event_message`), every action too
(`action_message`); warlords in play show their keywords, abilities with their timing tags,
current 兵力 and 攻城力; `card_info` gives a card's full text for the terminal's ``? NAME``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from ...core.action import Action
from ...present import Msg, Renderer
from ...present.language import default_language
from .cards import UNIT_NAMES_JA, CardDef, Effect, pool

if TYPE_CHECKING:
    from .game import SengokuGame

TYPE_JA = {"warlord": "武将", "stratagem": "計略", "formation": "布陣", "ougi": "奥義", "summon": "召喚兵"}
TIMING_JA = {"main": "メイン", "battle_confirmed": "戦闘確定時", "retreat": "撤退時",
             "attack_declared": "攻撃宣言時", "always": "常時", "battle": "戦闘"}
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


# ----- messages (messages.toml) ----------------------------------------------------------------
def _unit(game: "SengokuGame", u: Any) -> Any:
    """A unit as a message argument: a card id, a summoned soldier, or the castle."""
    if u == "castle":
        return Msg("name.castle")
    if isinstance(u, int) and u >= len(game.instances):
        return Msg("name.token", n=u)
    return u


def fx(eff: Effect) -> Msg:
    """What an effect does, as a message (``fx.VERB[.AIM]``)."""
    g, do = eff.get, eff.do
    args: dict[str, Any] = {}
    if do in ("strength", "aura"):
        args["amount"] = f"{int(g('amount', 0)):+d}"
    elif do in ("siege_up", "damage"):
        args["amount"] = g("amount", 1 if do == "siege_up" else 0)
    if do in ("strength", "siege_up", "damage", "ready", "exhaust"):
        return Msg(f"fx.{do}.{eff.aim}", **args)
    if do in ("draw", "build_wall"):
        args["n"] = g("n", 1)
    elif do in ("destroy", "bounce", "exile"):
        args["limit"] = g("max_strength", "∞")
    elif do == "summon":
        args.update(strength=g("strength", 1000), siege=g("siege", 0), count=g("count", 1),
                    unit_type=g("unit", "infantry"))
    elif do == "aura":
        args["unit_type"] = g("unit") or "unit"
    elif do == "win_if":
        args.update(koku=g("koku", 0), camp=g("camp", 0))
    elif do == "lose_if":
        args.update(hand=g("hand_at_most", 99), deck=g("deck_at_most", 999))
    return Msg(f"fx.{do}", **args)


def _tags(ab: Any) -> str:
    tags = "{" + TIMING_JA.get(ab.timing, ab.timing) + "}"
    return tags + ("{待機⇒疲弊}" if ab.exhaust else "") + ("{1回制限}" if ab.once else "")


def event_message(game: "SengokuGame", e: dict[str, Any], view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]] | None:
    """(message ID, arguments) of an event; None for the kinds left out (`SILENT_EVENTS`)."""
    k = e["e"]
    if k in SILENT_EVENTS or k == "act":
        return None
    p = e.get("player")
    if k == "koku":
        return (f"event.koku_{e['face']}", {"player": p, **({"card": e["card"]} if e["face"] == "up" else {})})
    if k == "stratagem":
        if e.get("targets"):
            return "event.stratagem_at", {"player": p, "card": e["card"], "unit": _unit(game, e["targets"][0])}
        return "event.stratagem", {"player": p, "card": e["card"]}
    if k == "ability":
        ab = game.instances[e["card"]].spec.abilities[e["index"]]
        return "event.ability", {"player": p, "card": e["card"], "what": fx(ab)}
    if k == "ougi":
        return "event.ougi", {"player": p, "card": e["card"], "what": fx(game.instances[e["card"]].effect)}
    if k in ("attack", "intercept", "destroyed"):
        args = {"player": p, "unit": _unit(game, e["unit"])}
        if k == "attack":
            args["target"] = _unit(game, e["target"])
        return f"event.{k}", args
    if k == "attack_result":
        return ("event.attack_won" if e["won"] else "event.attack_lost"), {"player": p, "unit": _unit(game, e["unit"])}
    if k == "combat":
        return "event.combat", {"attacker": _unit(game, e["attacker"]), "defender": _unit(game, e["defender"]),
                                "to_attacker": e["to_attacker"], "to_defender": e["to_defender"]}
    if k == "summon":
        return "event.summon", {"player": p, "unit_type": e["unit"], "strength": e["strength"], "siege": e["siege"]}
    if k == "effect":
        do, target = e["do"], e.get("target")
        whom = _unit(game, target) if target is not None else Msg(
            "name.all_allies" if do == "strength" else "name.all_enemies")
        args = {"player": p, "why": e.get("why") or "ability", "unit": whom}
        if "amount" in e:
            args["amount"] = f"{int(e['amount']):+d}" if do == "strength" else e["amount"]
        return f"event.effect.{do}", args
    if k == "fizzle":
        return "event.fizzle", {"player": p, "why": e.get("why") or "ability"}
    if k == "game_over":
        return "event.game_over", {"winners": list(e["winners"]), "reason": e["reason"]}
    return f"event.{k}", {key: v for key, v in e.items() if key not in ("e", "to", "seq", "chance")}


def action_message(game: "SengokuGame", a: Action, view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """(message ID, arguments) of an action, for menus."""
    verb, args = a.verb, a.args
    inst = game.instances
    if verb == "koku":
        return f"action.koku_{args[1]}", {"card": args[0]}
    if verb == "deploy":
        return "action.deploy", {"card": args[0], "cost": str(inst[args[0]].cost)}
    if verb == "stratagem":
        what = fx(inst[args[0]].effect)
        if len(args) > 1:
            return "action.stratagem_at", {"card": args[0], "unit": _unit(game, args[1]), "what": what}
        return "action.stratagem", {"card": args[0], "what": what}
    if verb == "ability":
        ab = inst[args[0]].spec.abilities[args[1]]
        out = {"card": args[0], "tags": _tags(ab), "what": fx(ab)}
        if len(args) > 2:
            return "action.ability_at", {**out, "unit": _unit(game, args[2])}
        return "action.ability", out
    if verb == "ougi":
        p = a.player
        og = inst[game.ougi_ids[p]]
        if len(args) > 0:
            return "action.ougi_at", {"what": fx(og.effect), "unit": _unit(game, args[0])}
        return "action.ougi", {"what": fx(og.effect)}
    if verb == "attack":
        out = {"unit": _unit(game, args[0]), "target": _unit(game, args[1])}
        if len(args) > 3:
            keyword = "疾風怒濤" if args[2] == "shippu" else "無双連撃"
            return "action.attack_mode", {**out, "keyword": keyword, "discard": args[3]}
        return "action.attack", out
    if verb in ("intercept", "counter"):
        if verb == "counter" and len(args) < 2:
            return "action.counter_plain", {}
        return f"action.{verb}", {"unit": _unit(game, args[-1])}
    if verb == "discard":
        return "action.discard", {"card": args[0]}
    return f"action.{verb}", {}


def describe_event(game: "SengokuGame", e: dict[str, Any]) -> str | None:
    """One log line for an event, in the interface's language (through the messages)."""
    return Renderer(game, default_language()).event(e)


def describe_action(game: "SengokuGame", action: str, view: dict[str, Any]) -> str:
    """A menu label for an action, in the interface's language (through the messages)."""
    return Renderer(game, default_language()).action(action, view)
