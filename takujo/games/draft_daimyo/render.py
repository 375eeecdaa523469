"""Presentation of ドラフト戦国大名 through messages (``messages.toml``): events, actions, the
board picture and card texts, in Japanese or English.

`event_message` and `action_message` give a message ID and its arguments (language-neutral:
players, card ids, provinces as `Province`); `render_view` and `card_info` write text through
a `takujo.present.Renderer`. A player is the nested message ``who.player`` ("you" for the
viewer, else "player N", with the faction beside it).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from ...core.action import Action
from ...core.targets import Kind, Typed
from ...present import Markup, Msg, Renderer
from ...present.catalogue import catalogue_for
from .battle import HIT
from .board import FACTION_KEYS, Province, province_names
from .effects import VERBS

if TYPE_CHECKING:
    from .cards import CardSpec
    from .game import DaimyoGame

#: Event kinds left out of the terminal log on purpose: a shuffle's order is for the record
#: only (nobody sees it).
SILENT_EVENTS = frozenset({"shuffle"})
_NONE = Markup("")
_HIDDEN = frozenset({"e", "to", "seq", "chance"})


# ----- arguments ---------------------------------------------------------------------------------
def who(q: int | None) -> Msg:
    """A player as a message argument; None or -1 is the neutral forces, below that nobody."""
    if q is None or q == -1:
        return Msg("who.neutral")
    if q < 0:
        return Msg("who.nobody")
    return Msg("who.player", player=q, faction=FACTION_KEYS[q] if q < len(FACTION_KEYS) else str(q))


def _one(n: int) -> str:
    """The plural class of a number (English: one or many)."""
    return "one" if abs(n) == 1 else "many"


def count(what: str, n: int) -> Msg:
    """``n`` soldiers, dice …"""
    return Msg(f"count.{what}.{_one(n)}", n=n)


def texts(spec: "CardSpec") -> dict[str, str]:
    """A card's rules text in both languages (the Japanese where no English is given)."""
    return {"text_ja": spec.text_ja, "text_en": spec.text_en or spec.text_ja}


def card_brief(game: "DaimyoGame", c: int) -> Msg:
    """A card's name, type, cost, a warlord's numbers and its text."""
    spec = game.cards[c].spec
    stats: Msg | Markup = _NONE
    if spec.type == "warlord":
        stats = Msg("card.warlord", attack=spec.attack, defence=spec.defence, defection=spec.defection,
                    first=Msg("card.first_strike") if spec.first_strike else _NONE,
                    loyal=Msg("card.loyal") if spec.loyal else _NONE)
    text = Msg("card.text", **texts(spec)) if spec.text_ja or spec.text_en else _NONE
    return Msg("card.brief", name=c, kind=Msg(f"card.kind.{spec.type}"), cost=spec.cost, stats=stats, text=text)


def _by_effect(game: "DaimyoGame", do: str) -> int | None:
    """The first card whose play effect is `do` (the card an event line names)."""
    return next((c.iid for c in game.cards.cards if c.spec.play is not None and c.spec.play.do == do), None)


def _card_or_word(game: "DaimyoGame", do: str, fallback: str) -> Any:
    c = _by_effect(game, do)
    return c if c is not None else Msg(f"word.{fallback}")


#: How a target of each kind is named after the card played: "(in a province)", "(on a warlord)".
_TARGET_MESSAGES = {Kind.PLACE: "target.province", Kind.PLAYER: "target.player"}


def play_target(game: "DaimyoGame", card: int, targets: list[int] | tuple[int, ...]) -> Msg | list[Msg] | Markup:
    """Where (a 城, removing neutral soldiers) or on whom (a warlord) a card was played: each
    target named by the kind playing the card declares for it (`effects.play_signature`)."""
    kinds = game.arg_table.tail_of(game, "play", card) if targets else ()
    named = [Msg(_TARGET_MESSAGES.get(k.kind, "target.warlord"), target=Typed(k, t)) for k, t in zip(kinds, targets)]
    if not named:
        return _NONE
    return named[0] if len(named) == 1 else named


def _signed(n: int) -> str:
    return f"{n:+d}"


def _gains(game: "DaimyoGame", e: dict[str, Any]) -> list[Msg]:
    """What an effect gave or took, player by player, or that it gave nothing."""
    parts = []
    for q in range(len(e.get("gold", []))):
        gold, vp, soldiers = e["gold"][q], e["vp"][q], e["soldiers"][q]
        if gold or vp or soldiers:
            parts.append(Msg("effect.part", player=who(q),
                             gold=Msg("effect.gold", n=_signed(gold)) if gold else _NONE,
                             vp=Msg("effect.vp", n=_signed(vp)) if vp else _NONE,
                             soldiers=Msg(f"effect.soldiers.{_one(soldiers)}", n=_signed(soldiers))
                             if soldiers else _NONE))
    if e.get("neutral"):
        parts.append(Msg("effect.neutral_one" if abs(e["neutral"]) == 1 else "effect.neutral",
                         n=_signed(e["neutral"])))
    if e.get("defected"):
        parts.append(Msg("effect.defected", warlords=count("warlords", e["defected"])))
    done = _done_to(game, e.get("do"), e.get("target"))
    if done is not None:
        parts.append(done)
    return parts or [Msg("effect.nothing")]


def _done_to(game: "DaimyoGame", do: Any, t: Any) -> Msg | None:
    """What a targeted effect did to its target, for a verb with a message of its own
    (``effect.verb.<verb>``: "… changed sides"), the target named by its declared kind."""
    if t is None or do not in VERBS:
        return None
    msg_id = f"effect.verb.{do}"
    kinds = VERBS[do].target
    if not kinds or msg_id not in catalogue_for(game):
        return None
    return Msg(msg_id, target=Typed(kinds[0], t))


def _roll(game: "DaimyoGame", e: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    faces, why = e["faces"], e["why"]
    shown = {"player": who(e.get("player")), "faces": str(list(faces))}
    if why in ("battle", "reroll"):
        hits = sum(1 for f in faces if f >= HIT)
        return "event.roll.battle", {**shown, "again": Msg("event.roll.again") if why == "reroll" else _NONE,
                                     "dice": count("dice", len(faces)), "hits": count("hits", hits),
                                     "miss": _NONE if hits else Msg("event.roll.miss")}
    if why == "gekokujo":
        card = Msg("event.roll.gekokujo_card", card=e["card"]) if e.get("card") is not None else _NONE
        return "event.roll.gekokujo", {**shown, "card": card, "event": _card_or_word(game, "gekokujo", "event")}
    if why in ("tactics_check", "order_tie"):
        return f"event.roll.{why}", shown
    return "event.roll.other", {**shown, "why": str(why)}


def _uprising(e: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if e.get("province") is None:
        return "event.uprising_nowhere", {"player": who(e.get("player"))}
    where = Province(e["province"])
    lost = e.get("lost", 0)
    if e.get("rebels"):
        result = Msg("uprising.rebels", province=where, rebels=e["rebels"])
    elif e.get("fell"):
        result = Msg("uprising.emptied", province=where)
    else:
        result = Msg("uprising.held")
    return "event.uprising", {"player": who(e.get("player")), "province": where, "result": result,
                              "loss": Msg("uprising.lost", lost=lost) if lost else _NONE}


def _tactics_check(e: dict[str, Any]) -> Msg:
    return Msg("tactics_check.drew" if e["drew"] else "tactics_check.no_deck" if e["success"]
               else "tactics_check.failed")


# ----- events and actions ------------------------------------------------------------------------
def event_message(game: "DaimyoGame", e: dict[str, Any], view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]] | None:
    """The message of an event (None for the silent kinds)."""
    k = e["e"]
    if k in game.silent_events():
        return None
    p = who(e.get("player"))
    if k in ("round", "turn"):
        return f"event.{k}", {"round": e["round"], "turn": e.get("turn")}
    if k == "order":
        return "event.order", {"order": [who(q) for q in e["order"]]}
    if k == "order_chosen":
        return "event.order_chosen", {"player": p, "position": e["position"]}
    if k == "random":
        if e.get("why") == "first_player":
            return "event.first_player", {"player": who(e["index"])}
        return "event.random", {"why": str(e.get("why")), "n": e["n"], "index": e["index"] + 1}
    if k in ("event", "tactic_revealed", "tactics_drawn"):
        return f"event.{k}", {"player": p, "card": card_brief(game, e["card"])}
    if k == "effect":
        gains = _gains(game, e)
        if e.get("source") is None:
            return "event.effect_plain", {"gains": gains}
        return "event.effect", {"source": e["source"], "gains": gains}
    if k == "committed":
        return f"event.committed.{'draft' if e.get('what') == 'draft' else 'choose'}", {"player": p}
    if k == "play":
        return "event.play", {"player": p, "card": e["card"], "target": play_target(game, e["card"], e.get("targets") or [])}
    if k in ("sold", "dismissed", "castle_razed"):
        out: dict[str, Any] = {"player": p, "card": e["card"]}
        if k == "castle_razed":
            out = {"card": e["card"], "province": Province(e["province"])}
        return f"event.{k}", out
    if k == "hire":
        return "event.hire", {"player": p, "province": Province(e["province"]), "soldiers": count("soldiers", e["n"])}
    if k == "march":
        return "event.march", {"player": p, "frm": Province(e["frm"]), "dest": Province(e["dest"]),
                               "soldiers": count("soldiers", e["n"])}
    if k in ("rest", "tactic_placed", "no_tactic"):
        return f"event.{k}", {"player": p}
    if k == "battle":
        return "event.battle", {"player": p, "defender": who(e["defender"]), "province": Province(e["province"]),
                                "soldiers": count("soldiers", e["soldiers"])}
    if k == "withdrew":
        return "event.withdrew", {"player": p, "province": Province(e["province"]),
                                  "soldiers": count("soldiers", e.get("soldiers", 0)),
                                  "card": _card_or_word(game, "retreat", "tactics")}
    if k == "roll":
        return _roll(game, e)
    if k == "exchange":
        return "event.exchange", {"attacker": e["attacker"], "defender": e["defender"]}
    if k == "retreat":
        return "event.retreat", {"player": p, "province": Province(e["province"]),
                                 "soldiers": count("soldiers", e["soldiers"])}
    if k == "repulsed":
        return "event.repulsed", {"player": p, "soldiers": count("soldiers", e["back"])}
    if k == "captured":
        return "event.captured", {"player": p, "from_player": who(e.get("from_player")),
                                  "province": Province(e["province"])}
    if k == "plundered":
        return ("event.plundered" if e["gold"] else "event.plundered_nothing"), {
            "player": p, "from_player": who(e["from_player"]), "gold": e["gold"],
            "card": _card_or_word(game, "plunder", "tactics")}
    if k == "uprising":
        return _uprising(e)
    if k == "defected":
        if e.get("dest", -1) >= 0:
            return "event.defected", {"card": e["card"], "player": p, "lord": who(e["dest"])}
        return "event.left", {"card": e["card"], "player": p}
    if k == "upkeep":
        return "event.upkeep", {"player": p, "gold": e["gold"]}
    if k == "income":
        if e["gold"] or e["vp"]:
            return "event.income", {"player": p, "gold": e["gold"], "vp": e["vp"]}
        return "event.income_none", {"player": p}
    if k == "tactics_check":
        return "event.tactics_check", {"player": p, "roll": e["roll"], "rank": e["rank"], "result": _tactics_check(e)}
    if k == "honour":
        return "event.honour", {"player": p, "card": e["card"], "vp": e["vp"]}
    if k == "game_over":
        return "event.game_over", {"winners": [who(q) for q in e["winners"]]}
    fields = ", ".join(f"{key}={value}" for key, value in e.items() if key not in _HIDDEN)
    return "event.unknown", {"kind": k, "fields": fields}


def action_message(game: "DaimyoGame", a: Action, view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """A menu label for a legal action."""
    verb, n = a.verb, a.args
    if verb in ("pick", "choose", "tactic"):
        return f"action.{verb}", {"card": card_brief(game, n[0])}
    if verb == "play":
        return "action.play", {"card": card_brief(game, n[0]), "target": play_target(game, n[0], n[1:])}
    if verb == "hire":
        return "action.hire", {"soldiers": count("soldiers", n[0]), "n": n[0]}
    if verb == "march":
        return "action.march", {"frm": Province(n[0]), "dest": Province(n[1]), "soldiers": count("soldiers", n[2])}
    if verb == "order":
        return "action.order", {"position": n[0]}
    if verb in ("sell", "rest", "notactic"):
        return f"action.{verb}", {}
    return "action.unknown", {"notation": str(a)}


# ----- the board and card texts ------------------------------------------------------------------
def _msg(r: Renderer, m: Msg | Markup, viewer: int | None = None) -> str:
    return str(m) if isinstance(m, Markup) else r.text(m.id, viewer, **m.args)


def _size(cards: Any) -> int:
    return len(cards) if isinstance(cards, list) else cards


def render_view(game: "DaimyoGame", view: dict[str, Any], r: Renderer | None = None) -> str:
    """The table as text: round, phase and turn order; every province; every player's
    treasury and domain; the viewer's own cards."""
    r = r or Renderer(game, "ja")
    z, pub = view["zones"], view["public"]
    me = view["player"]
    n = len(pub["factions"])
    order = Markup(" → ".join(r.word(FACTION_KEYS[q]) for q in pub["order"]))
    # the turn of the round, 1..4, only once the round's turns began (not while choosing the
    # turn order or drafting, when the state still holds 0 or the last round's 4)
    between = pub["phase"] in ("order", "draft") or not pub["turn_of_round"]
    lines = [r.text("board.title_between" if between else "board.title", me, round=pub["round"],
                    turn=pub["turn_of_round"], phase=Msg(f"phase.{pub['phase']}"), order=order)]
    castles = set(pub["castles"].values())
    lang = 1 if r.lang == "en" else 0
    for i, p in enumerate(game.board.provinces):
        o = pub["owner"][i]
        holder = FACTION_KEYS[o] if 0 <= o < n else "neutral" if o == -1 else "empty"
        adjacent = Markup(r.join(escape(province_names(game.board.provinces[j])[lang]) for j in game.board.adjacent[i]))
        lines.append(r.text("board.province", me, province=Province(i), kokuryoku=p.kokuryoku, holder=holder,
                            soldiers=pub["soldiers"][i], adjacent=adjacent,
                            castle=Msg("board.castle") if i in castles else _NONE))
    for q in range(n):
        domain = Markup(r.join(r.card(c) for c in z["domain"][q]) or r.word("none"))
        lines.append(r.text("board.player", me, you=Msg("board.you") if q == me else _NONE,
                            faction=FACTION_KEYS[q], gold=pub["gold"][q], vp=pub["vp"][q],
                            hand=_size(z["hand"][q]), tactics=_size(z["tactics_hand"][q]), domain=domain))
    if me is not None:
        for key in ("hand", "packets", "chosen", "tactics_hand"):
            cards = z[key][me]
            if isinstance(cards, list) and cards:
                shown = Markup("; ".join(_msg(r, card_brief(game, c), me) for c in cards))
                lines.append(r.text("board.zone", me, label=Msg(f"board.{key}"), cards=shown))
    return "\n".join(lines)


def card_info(game: "DaimyoGame", query: str, r: Renderer | None = None) -> list[str]:
    """The full text of every card of this game whose id, Japanese or English name contains
    `query` (case-insensitive): names in both languages, type, cost, numbers and text."""
    r = r or Renderer(game, "ja")
    q = query.strip().lower()
    stand_in = bool(game.cards.meta.get("stand_in"))
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    for card in game.cards.cards:
        spec = card.spec
        if (spec.id, spec.set) in seen:
            continue
        if q and q not in spec.id.lower() and q not in spec.name_ja.lower() and q not in spec.name_en.lower():
            continue
        seen.add((spec.id, spec.set))
        side = Msg("card_info.side", side=spec.side or "either") if spec.type == "tactics" else _NONE
        head = r.text("card_info.head", name_ja=spec.name_ja, name_en=spec.name_en, kind=spec.type, side=side)
        facts = [Msg("card_info.id", id=spec.id), Msg(f"word.{spec.set}"), Msg("card_info.count", count=spec.count)]
        if spec.type in ("warlord", "development", "strategy"):
            facts.append(Msg("card_info.cost", cost=spec.cost))
        if spec.type == "warlord":
            facts.append(Msg("card_info.warlord", attack=spec.attack, defence=spec.defence, defection=spec.defection))
            facts += ([Msg("card_info.first_strike")] if spec.first_strike else []) \
                + ([Msg("card_info.loyal")] if spec.loyal else [])
        if spec.castle:
            facts.append(Msg("word.castle"))
        if stand_in:
            facts.append(Msg("word.stand_in"))
        lines = [head, r.text("card_info.facts", facts=Markup(" / ".join(_msg(r, f) for f in facts)))]
        if spec.text_ja or spec.text_en:
            lines.append(r.text("card_info.text", None, **texts(spec)))
        out.append("\n".join(lines))
    return out
