"""Terminal presentation of Ibara views, actions and events (rich markup)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from ...present import Markup, Msg

from . import board
from .content import BEATS, SHIELD

if TYPE_CHECKING:
    from ...present import Renderer
    from .game import IbaraGame

LAYOUT = [
    "          <12>    <1>*    <2>        {gate_note}",
    "      <11>                  <3>",
    "   <10>*        <0>         <4>*     {keep_note}",
    "       <9>                  <5>",
    "          <8>     <7>*    <6>",
]
_CELL = re.compile(r"<(\d+)>")


def card_label(game: "IbaraGame", c: int) -> str:
    card = game.content.cards[c]
    if card.is_sp:
        return f"SP「{escape(card.name)}」"
    return f"{card.suit}{card.number} (移動{card.move})"


def render_view(game: "IbaraGame", view: dict[str, Any], r: "Renderer | None" = None) -> str:
    """The board, the face-up whim, every knight and the viewer's hand, in the renderer's
    language (Japanese without one)."""
    if r is None:
        from ...present import Renderer
        r = Renderer(game, "ja")
    z, pub = view["zones"], view["public"]
    me = view["player"]
    c = game.content
    marks: dict[int, str] = {}
    for p, sq in enumerate(pub["pos"]):
        marks[sq] = marks.get(sq, "") + f"K{p}"
    marks[pub["princess"]] = marks.get(pub["princess"], "") + r.text("board.princess_mark")
    if pub["event_marker"] >= 0:
        marks[pub["event_marker"]] = marks.get(pub["event_marker"], "") + "E"
    cells = {sq: f"[{board.NAMES[sq]}{(':' + marks[sq]) if sq in marks else ''}]" for sq in range(14)}
    notes = {"gate_note": r.text("board.gate_note"), "keep_note": r.text("board.keep_note")}
    lines = [r.text("board.title", me, round=pub["round"], turn=pub["turn"], player=pub["turn_player"],
                    phase=pub["phase"])]
    lines += [escape(_CELL.sub(lambda m: cells[int(m.group(1))], row)).format(**notes) for row in LAYOUT]
    lines.append(r.text("board.legend"))
    up = z["whim_up"]
    if up:
        w = c.whims[up[0]]
        if w.items:
            ids = [next(i for i, x in enumerate(c.items) if x.id == it) for it in w.items]
            need = Msg("board.need_items", chips=[f"item:{i}" for i in ids])
        elif w.deed == "win_combat":
            need = Msg("board.need_combat")
        else:
            need = Msg("board.need_visit", square=f"sq{w.square}")
        lines.append(r.text("board.whim", me, whim=f"whim:{up[0]}", need=need, irritation=pub["irritation"],
                            limit=w.limit))
    for p in range(len(pub["pos"])):
        hand = z["hand"][p]
        tag = Msg("board.escorting") if pub["escort"] == p else Markup("")
        lines.append(r.text("board.row", me, player=p, seat=p, knight=f"knight:{pub['knights'][p]}",
                            square=f"sq{pub['pos'][p]}", tag=tag, whims=len(z["whims"][p]),
                            needed=pub["whims_needed"], hand=len(hand) if isinstance(hand, list) else hand,
                            chips=[f"item:{i}" for i in z["items"][p]]))
    if me is not None and isinstance(z["hand"][me], list):
        cards = [Msg("board.card", card=x, move=c.cards[x].move) for x in sorted(z["hand"][me])]
        lines.append(r.text("board.hand", me, cards=cards or Markup(r.word("nothing"))))
    b = pub["combat"]
    if b:
        lines.append(r.text("board.combat", me, player=b["players"][0], defender=b["players"][1]))
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


#: Event kinds left out of the log on purpose: the index of a random pick (the card it
#: discards is its own event).
SILENT_EVENTS = frozenset({"random"})

_WHY = {"start": "開始", "combat": "戦闘", "event": "イベント", "anger": "怒り", "event_marker": "イベントマーカー",
        "explore": "探索"}


def _cards(game: "IbaraGame", cards: list[int]) -> str:
    return " + ".join(card_label(game, x) for x in cards) if cards else "カードなし"


def _value(v: list[Any]) -> str:
    return f"{v[0]}{v[1]}" if v else "カードなし"


def describe_event(game: "IbaraGame", e: dict[str, Any]) -> str | None:
    """One log line for every event kind Ibara logs (`SILENT_EVENTS` aside)."""
    k = e["e"]
    p = e.get("player")
    who = f"player {p}" if p is not None else ""
    c = game.content
    why = lambda: _WHY.get(e.get("why", ""), e.get("why", ""))  # noqa: E731
    table = {
        "turn": lambda: f"[bold]— ラウンド {e['round']} / ターン {e['turn']}: player {p} —[/]",
        "knight": lambda: f"{who} の騎士: {escape(c.knights[e['knight']].name_ja)}",
        "flip": lambda: f"  めくり: {card_label(game, e['card'])} ({why()})",
        "shuffle": lambda: f"{escape(str(e.get('what', '')))} を切り直した",
        "event_marker": lambda: f"イベントマーカー → マス {e['square']}",
        "draw": lambda: f"{who} は {card_label(game, e['card'])} を引いた",
        "draw_count": lambda: f"{who} はカードを {e['n']} 枚引いた" if e["n"] else f"{who} は引けなかった (山札も捨て札もない)",
        "move": lambda: f"{who} が {board.NAMES[e['square']]} へ移動",
        "escort": lambda: f"[magenta]{who} が姫を連れた[/]",
        "princess_left": lambda: f"{who} は姫と離れた (姫はその場に残る)",
        "combat": lambda: f"[bold red]戦闘: player {p} → player {e['defender']}[/]",
        "declare": lambda: f"{who} は {e['cards']} 枚出すと宣言" if e["cards"] else f"{who} は手札がなく、0 枚と宣言",
        "committed": lambda: f"{who} がカードを {e['n']} 枚伏せた",
        "reveal": lambda: f"  {who} の札: {_cards(game, e['cards'])}",
        "ring": lambda: f"{who} は悪運の指輪で出し直した: {_cards(game, e['cards'])}",
        "choose": lambda: f"{who} はスート {escape(e['suit'])} で戦う",
        "dropped": lambda: f"{who} は {e['n']} 枚を伏せて捨てた; 残り: {_cards(game, e['remaining'])}",
        "combat_result": lambda: (f"攻撃 {_value(e['attacker'])} 対 防御 {_value(e['defender'])}: "
                                  + {1: "攻撃側の勝ち", -1: "防御側の勝ち", 0: "アイコ"}[e["result"]]),
        "tie": lambda: f"アイコ: {who} は元のマスに戻る",
        "won_combat": lambda: f"{who} が player {e['loser']} に勝った",
        "placed": lambda: f"{who} はマス {e['square']} にランダム配置 ({why()})",
        "princess_taken": lambda: f"[magenta]{who} が player {e['from_player']} から姫を奪った[/]",
        "event": lambda: f"{who} のイベント: {escape(c.events[e['card']].name_ja)}",
        "item": lambda: f"{who} はアイテム {escape(c.items[e['item']].name_ja)} を得た",
        "no_item": lambda: f"{who} はアイテムを得られなかった (残っていない)",
        "explore": lambda: (f"{who} の探索: {card_label(game, e['card'])} とめくり {e['flipped']}、合計 {e['total']} → "
                            + ("成功" if e["success"] else "失敗 (何も得ない)")),
        "whim": lambda: f"[yellow]姫のワガママ: 「{escape(c.whims[e['card']].name_ja)}」[/]",
        "irritation": lambda: f"イライラ {e['value']}/{e['limit']}",
        "anger": lambda: f"[red]姫の怒りが爆発！[/] 「{escape(c.whims[e['card']].name_ja)}」は捨て札に",
        "whim_taken": lambda: f"[green]{who} がワガママ「{escape(c.whims[e['card']].name_ja)}」を叶えた[/]",
        "whims_lost": lambda: (f"{who} はワガママカードを {len(e['cards'])} 枚失った" if e["cards"]
                               else f"{who} は失うワガママカードがない"),
        "discard": lambda: f"{who} は {card_label(game, e['card'])} を捨てた",
        "sp": lambda: f"{who} の SPカード {card_label(game, e['card'])}"
                      + (f" → マス {e['target'][0]}" if e["target"] else ""),
        "sp_to_hand": lambda: f"{who} はめくられた {card_label(game, e['card'])} を手札に加えた ({why()})",
        "gaiblitz": lambda: f"{who} (ゲイブリッツ) の能力: player {e['target']} が 3 枚"
                            + ("引く" if e["mode"] == "draw" else "捨てる"),
        "game_over": lambda: f"[bold green]ゲーム終了: 勝者 {e['winners']} ({e['reason']})[/]",
    }
    fn = table.get(k)
    return fn() if fn else None


# ----- card information ---------------------------------------------------------------------------
def _text(ja: str, en: str) -> str:
    parts = [escape(x) for x in (ja, en) if x]
    return "\n  ".join(parts)


def card_info(game: "IbaraGame", query: str) -> list[str]:
    """The full text of every action card, item chip, whim, event and knight whose id or
    Japanese or English name contains `query` (case-insensitive): Japanese name with the
    English beside it."""
    c = game.content
    q = query.strip().lower()
    if not q:
        return []
    out: list[str] = []

    def hit(*names: str) -> bool:
        return any(q in n.lower() for n in names if n)

    seen: set[tuple] = set()
    for card in c.cards:                            # one entry per kind of card
        key = (card.suit, card.number, card.sp)
        if key in seen:
            continue
        seen.add(key)
        copies = sum(1 for x in c.cards if (x.suit, x.number, x.sp) == key)
        if card.sp is not None:
            sp = next((s for s in c.sps if s.effect == card.sp and s.name_ja == card.name), None)
            if sp is None or not hit(sp.id, sp.name_ja, sp.name_en):
                continue
            out.append(f"[bold]{escape(sp.name_ja)}[/] ({escape(sp.name_en)}) — SPカード ×{copies}, 移動なし\n  "
                       + _text(sp.text_ja, sp.text_en))
            continue
        en = {"剣": "Sword", "巻物": "Scroll", "拳": "Fist", "盾": "Shield"}[card.suit]
        if not hit(f"{card.suit}{card.number}", f"{en} {card.number}", f"{en.lower()}_{card.number}"):
            continue
        note = ("防御側だけが出せる。アイコにする (攻撃が13以上なら破られる)" if card.suit == SHIELD
                else f"{card.suit}は{BEATS[card.suit]}に勝つ")
        note_en = ("defender only; forces a tie (broken by an attack worth 13 or more)" if card.suit == SHIELD
                   else f"beats {_EN[BEATS[card.suit]]}")
        out.append(f"[bold]{card.suit}{card.number}[/] ({en} {card.number}) — 行動カード ×{copies}, 移動 {card.move}\n  "
                   + _text(note, note_en))
    for k in c.knights:
        if hit(k.id, k.name_ja, k.name_en):
            out.append(f"[bold]{escape(k.name_ja)}[/] ({escape(k.name_en)}) — 騎士 ({k.kind})\n  "
                       + _text(k.text_ja, k.text_en))
    for entry, kind, extra in (*[(x, "アイテム", "") for x in _unique(c.items)],
                               *[(x, "ワガママ", _whim_need(game, x)) for x in _unique(c.whims)],
                               *[(x, "イベント", _event_effect(game, x)) for x in _unique(c.events)]):
        if hit(entry.id, entry.name_ja, entry.name_en):
            copies = entry.count
            out.append(f"[bold]{escape(entry.name_ja)}[/] ({escape(entry.name_en)}) — {kind} ×{copies}{extra}"
                       + ("\n  " + _text(entry.text_ja, entry.text_en) if entry.text_ja or entry.text_en else ""))
    return out


_EN = {"剣": "Sword", "巻物": "Scroll", "拳": "Fist", "盾": "Shield"}


def _unique(entries: tuple) -> list:
    """One of each entry (the content holds one per physical card)."""
    seen: dict[str, Any] = {}
    for x in entries:
        seen.setdefault(x.id, x)
    return list(seen.values())


def _whim_need(game: "IbaraGame", w: Any) -> str:
    if w.items:
        need = ", ".join(_item_name(game, x) for x in w.items)
        return f", イライラ上限 {w.limit}; 必要: {need}"
    deed = "姫を連れて戦闘に勝つ (win a combat escorting her)" if w.deed == "win_combat" \
        else f"姫をマス {w.square} へ連れて行く (bring her to square {w.square})"
    return f", イライラ上限 {w.limit}; {deed}"


def _event_effect(game: "IbaraGame", e: Any) -> str:
    """What an event card does, in both languages (from its effect)."""
    eff = e.effect
    n = eff.get("n", 1)
    item = next((i for i in game.content.items if i.id == eff.get("item")), None)
    text = {
        "gain_item": lambda: f"「{escape(item.name_ja)}」を1枚得る (gain a {escape(item.name_en)} chip)",
        "random_item": lambda: "アイテムチップを1枚ランダムに得る (gain a random item chip)",
        "irritation": lambda: f"表のワガママのイライラ+{n} (irritation +{n})",
        "draw": lambda: f"カードを{n}枚引く (draw {n})",
        "discard_random": lambda: f"手札をランダムに{n}枚捨てる (discard {n} at random)",
        "random_placement": lambda: "踏んだ騎士はランダム配置 (the knight is placed at random)",
    }[eff["do"]]()
    return f"; 効果: {text}"


# ----- messages (messages.toml) ---------------------------------------------------------------
_SHOWN = {"e", "to", "seq", "chance"}
_RESULT = {1: "attacker_wins", -1: "defender_wins", 0: "tie"}
_WHAT = {"action deck": ("山札", "action deck"), "event deck": ("イベント山札", "event deck"),
         "whim deck": ("ワガママ山札", "whim deck"), "item chips": ("アイテムチップ", "item chips"),
         "knights": ("騎士", "knights")}


def _square(sq: int) -> str:
    """A square as a word of the catalogue (``word.sq5``: "5" / "square 5")."""
    return f"sq{sq}"


def _strength(v: list[Any]) -> Msg:
    return Msg("event.value", suit=v[0], strength=v[1]) if v else Msg("event.no_card")


def event_message(game: "IbaraGame", e: dict[str, Any], view: dict[str, Any] | None) -> tuple[str, dict[str, Any]] | None:
    """(message ID, arguments) of an event in `messages.toml`; None for `SILENT_EVENTS`."""
    k = e["e"]
    if k in SILENT_EVENTS or k == "act":
        return None
    args = {key: v for key, v in e.items() if key not in _SHOWN}
    if k == "knight":
        args["knight"] = f"knight:{e['knight']}"
    elif k == "shuffle":
        args["what"] = _WHAT.get(e["what"], (e["what"], e["what"]))[1]
    elif k in ("move", "event_marker", "placed"):
        args["square"] = _square(e["square"])
    elif k == "draw_count" and not e["n"]:
        return "event.draw_none", args
    elif k == "declare":
        args["n"] = args.pop("cards")
        if not e["cards"]:
            return "event.declare_none", args
    elif k == "combat_result":
        args = {"attack": _strength(e["attacker"]), "defence": _strength(e["defender"]), "result": _RESULT[e["result"]]}
    elif k == "event":
        args["event_card"] = f"event:{args.pop('card')}"
    elif k == "item":
        args["chip"] = f"item:{e['item']}"
    elif k == "explore":
        args["result"] = "success" if e["success"] else "failure"
    elif k in ("whim", "anger", "whim_taken"):
        args["whim"] = f"whim:{args.pop('card')}"
    elif k == "whims_lost":
        args["n"] = len(args.pop("cards"))
        if not e["cards"]:
            return "event.whims_lost_none", args
    elif k == "sp":
        del args["target"]
        if e["target"]:
            args["square"] = _square(e["target"][0])
            return "event.sp_on", args
    return f"event.{k}", args


def action_message(game: "IbaraGame", a: Any, view: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """(message ID, arguments) of an action in `messages.toml`."""
    v, args = a.verb, a.args
    if v == "move":
        return "action.move", {"card": args[0], "square": _square(args[1])}
    if v == "sp":
        if len(args) > 1:
            return "action.sp_on", {"card": args[0], "square": _square(args[1])}
        return "action.sp", {"card": args[0]}
    if v in ("explore", "discard", "nofight", "drop"):
        return f"action.{v}", {"card": args[0]}
    if v in ("fight", "ring"):
        return f"action.{v}", {"cards": list(args)}
    if v == "gaiblitz":
        return "action.gaiblitz", {"target": args[0], "mode": args[1]}
    if v == "lose":
        return "action.lose", {"whim": f"whim:{args[0]}"}
    if v == "declare":
        return "action.declare", {"n": args[0]}
    if v in ("choose", "drop_suit"):
        return f"action.{v}", {"suit": args[0]}
    return f"action.{v}", {}
