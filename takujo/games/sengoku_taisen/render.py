"""Presentation of 戦国大戦 双: events, actions and prompts as messages (``messages.toml``,
Japanese and English), and the terminal's picture of a view (rich markup).

Every event kind the game logs is a message (`event_message`), every action too
(`action_message`), with the viewer's own form where a player is its subject ("You draw
…"); warlords in play show their keywords, abilities with their timing tags, current 兵力
and 攻城力; `card_info` gives a card's full text for the terminal's ``? NAME``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from ...core.action import Action
from ...core.targets import Signature, Typed
from ...present import Markup, Msg, Renderer
from ...present.language import default_language
from .cards import CardDef, Cost, Effect
from .decks import STARTERS
from .effects import UNIT, VERBS, effect_target
from .state import TOKEN_BASE

if TYPE_CHECKING:
    from .game import SengokuGame

#: Event kinds left out of the log on purpose: the random pick of the first player is told
#: by the ``first_player`` event that follows it.
SILENT_EVENTS = frozenset({"random"})


def _rules(r: Renderer, card: CardDef) -> str:
    """A card's keywords and abilities (or effect and counter) as the rules read them, in the
    renderer's language."""
    spec = card.spec

    def say(m: Msg) -> str:
        return r.text(m.id, None, **m.args)

    parts = [r.word(k) for k in spec.keywords]
    parts += [f"{say(_tags(a))}: {say(fx(a))}" for a in spec.abilities]
    if spec.type == "stratagem" and spec.effect is not None:
        parts.append(f"{say(Msg('tag.' + (spec.timing or 'main')))} {say(fx(spec.effect))}")
    elif spec.effect is not None:
        parts.append(say(fx(spec.effect)))
    if spec.counter is not None:
        parts.append(f"{r.word('counter')}: {say(fx(spec.counter))}")
    return " ".join(parts)


def _printed_text(r: Renderer, card: CardDef) -> str:
    """The card's printed text in the renderer's language, else its rules in words."""
    spec = card.spec
    text = spec.text_ja if r.lang == "ja" else spec.text_en
    return escape(text) if text else _rules(r, card)


def _type(kind: str) -> str:
    """The word of a card type (``word.warlord``, ``word.stratagem_card`` …)."""
    return kind if kind in ("warlord", "formation") else f"{kind}_card"


def cost_msg(cost: Cost) -> Msg | str:
    """A cost as a message argument: ``蒼蒼1`` in Japanese, ``2 blue + 1`` in English."""
    parts: list[Msg | str] = [Msg("cost.colour", symbols=c * n, n=n, colour=c) for c, n in cost.colors]
    if cost.generic or not parts:
        parts.append(str(cost.generic))
    out = parts[0]
    for part in parts[1:]:
        out = Msg("cost.and", a=out, b=part)
    return out


def deck_name(name: str) -> Msg | str:
    """A deck's name: a starter's through ``deck.NAME``, a decklist's own name as it is."""
    return Msg(f"deck.{name}") if name in STARTERS else name


def card_line(r: Renderer, game: "SengokuGame", c: int) -> str:
    """A card in hand: name, number, type, colour, cost, stats, text."""
    card = game.instances[c]
    spec = card.spec
    stats = r.text("board.stats", unit_type=spec.unit, strength=spec.strength, siege=spec.siege) \
        if spec.type == "warlord" else ""
    return r.text("board.card", card=c, number=spec.number, type=_type(spec.type), colour=spec.color,
                  cost=cost_msg(card.cost), stats=Markup(stats), text=Markup(_printed_text(r, card)))


def full_text(r: Renderer, card: CardDef) -> str:
    """Everything printed on a card, in the renderer's language: number, names (both), type,
    cost, colour, stats, and its text (else its keywords, abilities or effect and counter in
    words)."""
    spec = card.spec
    lines = [r.text("board.info", name_ja=spec.name_ja, name_en=spec.name_en, number=spec.number,
                    type=_type(spec.type), colour=spec.color, cost=cost_msg(card.cost))]
    if spec.type == "warlord":
        lines.append(r.text("board.info_warlord", unit_type=spec.unit, strength=spec.strength, siege=spec.siege))
    if spec.type == "ougi":
        lines.append(r.text("board.info_ougi", threshold=spec.threshold))
    lines.append(r.text("board.text", text=Markup(_printed_text(r, card))))
    return "\n".join(lines)


def card_info(game: "SengokuGame", query: str, r: Renderer | None = None) -> list[str]:
    """The full text of each card of the pool whose number or Japanese or English name
    contains `query` (case-insensitive), or whose instance id in this game it is."""
    r = r or Renderer(game, default_language())
    q = query.strip().casefold()
    if not q:
        return []
    found: dict[str, CardDef] = {}
    if q.isdigit() and int(q) < len(game.instances):
        card = game.instances[int(q)]
        found[card.number] = card
    for number, card in game.pool.cards.items():
        spec = card.spec
        if q in number.casefold() or q in spec.name_ja.casefold() or q in spec.name_en.casefold():
            found.setdefault(number, card)
    return [full_text(r, card) for card in found.values()]


def unit_line(r: Renderer, game: "SengokuGame", u: int, view: dict[str, Any]) -> str:
    """A unit in play: name, troop type, current 兵力 (printed) and 攻城力, state, keywords and
    abilities with their timing tags."""
    pub, me = view["public"], view["player"]
    now = pub["strength"].get(str(u), "?")
    if u >= len(game.instances):
        token = pub["tokens"].get(str(u), {})
        printed, kind, rules = token.get("strength"), token.get("unit", "unit"), ""
    else:
        card = game.instances[u]
        printed, kind, rules = card.strength, card.unit or "unit", _rules(r, card)
    return r.text("board.unit", me, unit=_unit(game, u), unit_type=kind, strength=now,
                  printed=Markup(r.text("board.printed", n=printed) if printed is not None and now != printed else ""),
                  siege=pub["siege"].get(str(u), 0),
                  state=Msg("board.exhausted_state" if u in pub["exhausted"] else "board.ready_state"),
                  rules=Markup(r.text("board.rules", text=Markup(rules)) if rules else ""))


def render_view(game: "SengokuGame", view: dict[str, Any], r: Renderer | None = None) -> str:
    """The board as one player (or a spectator) sees it, in the renderer's language."""
    r = r or Renderer(game, default_language())
    z, pub, me = view["zones"], view["public"], view["player"]
    if pub["phase"] == "over":
        lines = [r.text("board.title_over", me, turn=pub["turn"], first=pub["first_player"])]
    else:
        lines = [r.text("board.title", me, turn=pub["turn"], player=pub["turn_player"],
                        phase=Msg(f"phase.{pub['phase']}"), first=pub["first_player"])]
    for p in (0, 1):
        hand, down, up = z["hand"][p], z["koku_down"][p], z["koku_up"][p]
        n_down = len(down) if isinstance(down, list) else down
        colours: dict[str, int] = {}
        for c in up:
            colours[game.instances[c].color] = colours.get(game.instances[c].color, 0) + 1
        lines.append("")
        lines.append(r.text("board.side", me, player=p, deck=deck_name(game.deck_names[p]), walls=z["walls"][p],
                            library=z["deck"][p], hand=len(hand) if isinstance(hand, list) else hand,
                            discards=len(z["discard"][p])))
        lines.append(r.text("board.koku", count=len(up) + n_down,
                            colours=Markup(r.join(r.text("board.colour_count", colour=c, n=n)
                                                     for c, n in colours.items()) or r.text("board.none")),
                            ready=sum(1 for c in up if c not in pub["exhausted"]), down=n_down,
                            down_tired=pub["koku_down_exhausted"][p]))
        ougi = z["ougi"][p]
        if z["ougi_up"][p]:
            og = z["ougi_up"][p][0]
            what = fx(game.instances[og].effect)
            lines.append(r.text("board.ougi_used", card=og, what=what))
        elif isinstance(ougi, list) and ougi:
            og = game.instances[ougi[0]]
            lines.append(r.text("board.ougi_mine", card=ougi[0], threshold=og.threshold, what=fx(og.effect)))
        else:
            lines.append(r.text("board.ougi_hidden"))
        for u in z["camp"][p] + z["summons"][p]:
            lines.append(unit_line(r, game, u, view))
        for c in z["field"][p]:
            lines.append(r.text("board.permanent", card=c, what=fx(game.instances[c].effect)))
    if me is not None and isinstance(z["hand"][me], list):
        lines.append(r.text("board.hand"))
        lines.extend(card_line(r, game, c) for c in z["hand"][me])
    b = pub["battle"]
    if b:
        args = {"unit": _unit(game, b["attacker"]), "target": _unit(game, b["target"])}
        if b["interceptor"] >= 0:
            lines.append(r.text("board.battle_blocked", me, interceptor=_unit(game, b["interceptor"]), **args))
        else:
            lines.append(r.text("board.battle", me, **args))
    for w in pub["windows"]:
        if w["passes"] < len(w["order"]):
            lines.append(r.text("board.window", me, player=w["order"][w["pos"]], passes=w["passes"],
                                of=len(w["order"])))
    return "\n".join(lines)


# ----- messages (messages.toml) ----------------------------------------------------------------
def _unit(game: "SengokuGame", u: Any) -> Any:
    """A unit as a message argument: a card id, a summoned soldier, or the castle."""
    if u == "castle":
        return Msg("name.castle")
    if isinstance(u, int) and u >= len(game.instances):
        return Msg("name.token", n=u - TOKEN_BASE + 1 if u >= TOKEN_BASE else u)   # the first soldier is #1
    return u


def _aimed(game: "SengokuGame", kinds: Signature, value: Any) -> Any:
    """A chosen target as a message argument, by the kind its effect's verb declares: a unit
    (a warlord's card, a summoned soldier), else the value with its kind (a player …)."""
    if not kinds or kinds[0] == UNIT:
        return _unit(game, value)
    return Typed(kinds[0], value)


def _effect_at(game: "SengokuGame", eff: Effect | None, value: Any) -> Any:
    """The target `value` chosen for effect `eff`, as a message argument."""
    return _aimed(game, effect_target(eff) if eff is not None else (), value)


#: The verbs `fx` words with arguments of their own; any other says ``fx.VERB[.AIM]`` with
#: its card's parameters.
_FX_OWN = frozenset({"strength", "aura", "siege_up", "damage", "ready", "exhaust", "draw", "build_wall",
                     "destroy", "bounce", "exile", "summon", "win_if", "lose_if", "cannot_attack"})


def fx(eff: Effect | None) -> Msg:
    """What an effect does, as a message (``fx.VERB[.AIM]``): the effect of a card whose type
    has one (a stratagem, an okugi, a formation), or an ability."""
    assert eff is not None, "a card of this type has no effect"
    g, do = eff.get, eff.do
    if do not in _FX_OWN:
        aim = f".{eff.aim}" if VERBS[do].scopes else ""
        return Msg(f"fx.{do}{aim}", **{k: v for k, v in (eff.model_extra or {}).items() if k != "target"})
    args: dict[str, Any] = {}
    if do in ("strength", "aura"):
        args["amount"] = f"{int(g('amount', 0)):+d}"
    elif do in ("siege_up", "damage"):
        args["amount"] = g("amount", 1 if do == "siege_up" else 0)
    if do in ("strength", "siege_up", "damage", "ready", "exhaust"):
        return Msg(f"fx.{do}.{eff.aim}", **args)
    if do in ("draw", "build_wall"):
        args["n"] = g("n", 1)
        if args["n"] == 1:
            return Msg(f"fx.{do}_one")
    elif do in ("destroy", "bounce", "exile"):
        args["limit"] = g("max_strength", "∞")
    elif do == "summon":
        args.update(strength=g("strength", 1000), siege=g("siege", 0), unit_type=g("unit", "infantry"))
        count = g("count", 1)
        if count == 1:
            return Msg("fx.summon_one", **args)
        args["count"] = count
    elif do == "aura":
        args["troops"] = Msg(f"troops.{g('unit') or 'unit'}")
    elif do == "win_if":
        args.update(koku=g("koku", 0), camp=g("camp", 0))
    elif do == "lose_if":
        args.update(hand=g("hand_at_most", 99), deck=g("deck_at_most", 999))
    return Msg(f"fx.{do}", **args)


def _tags(ab: Any) -> Msg:
    """An ability's timing tag, with {待機⇒疲弊} and {1回制限} where it has them."""
    extra = "_".join(x for x, on in (("exhaust", ab.exhaust), ("once", ab.once)) if on)
    return Msg(f"tag.{ab.timing}" + (f".{extra}" if extra and ab.timing == "main" else ""))


#: The keys of an ``effect`` event its message does not take as they are.
_EFFECT_KEYS = frozenset({"e", "to", "seq", "chance", "do", "target", "player", "why"})


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
            at = _effect_at(game, game.instances[e["card"]].effect, e["targets"][0])
            return "event.stratagem_at", {"player": p, "card": e["card"], "unit": at}
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
        whom = _aimed(game, VERBS[do].target, target) if target is not None else Msg(
            "name.all_allies" if do == "strength" else "name.all_enemies")
        args = {key: v for key, v in e.items() if key not in _EFFECT_KEYS}   # a verb's own (amount, n …)
        args.update(player=p, why=e.get("why") or "ability", unit=whom)
        if "amount" in e and do == "strength":
            args["amount"] = f"{int(e['amount']):+d}"
        return f"event.effect.{do}", args
    if k in ("draw_count", "build_wall") and e["n"] == 1:
        return f"event.{'draw_one' if k == 'draw_count' else 'build_wall_one'}", {"player": p}
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
        return f"action.koku_{args[1]}", {"card": args[0], "copy": _copy(game, a, view)}
    if verb == "deploy":
        return "action.deploy", {"card": args[0], "cost": cost_msg(inst[args[0]].cost), "copy": _copy(game, a, view)}
    if verb == "stratagem":
        eff = inst[args[0]].effect
        what = fx(eff)
        if len(args) > 1:
            return "action.stratagem_at", {"card": args[0], "unit": _effect_at(game, eff, args[1]), "what": what,
                                           "copy": _copy(game, a, view)}
        return "action.stratagem", {"card": args[0], "what": what, "copy": _copy(game, a, view)}
    if verb == "ability":
        ab = inst[args[0]].spec.abilities[args[1]]
        out = {"card": args[0], "tags": _tags(ab), "what": fx(ab)}
        if len(args) > 2:
            return "action.ability_at", {**out, "unit": _effect_at(game, ab, args[2])}
        return "action.ability", out
    if verb == "ougi":
        p = a.player
        og = inst[game.ougi_ids[p]]
        if len(args) > 0:
            return "action.ougi_at", {"what": fx(og.effect), "unit": _effect_at(game, og.effect, args[0])}
        return "action.ougi", {"what": fx(og.effect)}
    if verb == "attack":
        out = {"unit": _unit(game, args[0]), "target": _unit(game, args[1])}
        if len(args) > 3:
            return "action.attack_mode", {**out, "keyword": args[2], "discard": args[3]}
        return "action.attack", out
    if verb == "counter":
        if len(args) < 2:
            return "action.counter_plain", {}
        return "action.counter", {"unit": _effect_at(game, inst[args[0]].counter, args[1])}
    if verb == "intercept":
        return "action.intercept", {"unit": _unit(game, args[0])}
    if verb == "discard":
        return "action.discard", {"card": args[0], "copy": _copy(game, a, view)}
    return f"action.{verb}", {}


def _copy(game: "SengokuGame", a: Action, view: dict[str, Any] | None) -> Any:
    """" (copy 2)" when the acting player's hand holds several copies of the action's card
    (so that their menu entries differ as their notations do); "" otherwise."""
    hand = ((view or {}).get("zones", {}).get("hand") or [None] * (a.player + 1))[a.player] if a.player is not None else None
    if not isinstance(hand, list) or not a.args or a.args[0] not in hand:
        return ""
    number = game.instances[a.args[0]].number
    same = [c for c in hand if isinstance(c, int) and c < len(game.instances) and game.instances[c].number == number]
    return Msg("action.copy", n=same.index(a.args[0]) + 1) if len(same) > 1 else ""

