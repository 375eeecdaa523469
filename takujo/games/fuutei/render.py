"""Presentation of Fuutei through messages (``messages.toml``): log lines, action labels, the
board picture and card texts, in Japanese or English.

`event_message` and `action_message` turn an event or an action into a message ID and
language-neutral arguments (card ids, players, words, nested `Msg` parts); `render_view` and
`card_info` build their text with a `Renderer` in the viewer's language.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from rich.markup import escape

from ...core.action import Action
from ...present import Markup, Msg, Renderer
from .cards import Card, CardSpec
from .constants import GUARD_CHANGES_MAX, STATS

if TYPE_CHECKING:
    from .game import FuuteiGame

    #: the message of an event kind that reads more than its fields: (game, event, its shown
    #: fields) -> (message ID, arguments)
    Variant = Callable[[FuuteiGame, dict[str, Any], dict[str, Any]], tuple[str, dict[str, Any]]]

#: Event kinds deliberately not printed: a shuffle's order is for the record only, and ``act``
#: records the action itself, which the game's own events describe.
SILENT_EVENTS = frozenset({"shuffle", "act"})

SEX_SYMBOL = {"male": "♂", "female": "♀"}
SIDES = ("side.invader", "side.defender")
_HIDDEN = frozenset({"e", "to", "seq", "chance"})


# ----- parts: stat lines, card lines, effects --------------------------------------------------
def _stat(label: str, dice: Any, bonus: int = 0) -> Msg:
    """``物攻 2D`` with an equipment bonus in green beside it."""
    extra: Any = Msg("part.bonus", amount=f"{bonus:+d}") if bonus else Markup("")
    return Msg("part.stat", stat=f"stat.{label}", dice=str(dice), bonus=extra)


def effect_msg(game: "FuuteiGame", card: Card) -> Msg | None:
    """What the card's effect verb does, from its parameters (None for cards without one)."""
    eff = card.effect
    if eff is None:
        return None
    do = eff.do
    if do in ("draw", "random_discard"):
        return Msg(f"effect.{do}", n=int(eff.get("n", 1)))
    if do == "proposal":
        need = int(eff.get("need", 5))
        return Msg("effect.proposal", need=need, need_partner=need - int(eff.get("opposite_sex_bonus", 0)))
    if do == "assassinate":
        return Msg("effect.assassinate", dice=str(eff.get("dice")),
                   against=f"defence.{eff.get('against', 'phys_def')}")
    if do == "modify":
        side = "side." + ("opponent" if eff.get("target", "self") == "opponent" else "self")
        changes = [Msg("part.change", side=side, stat=f"stat.{stat}", amount=f"{int(eff.get(stat)):+d}")
                   for stat in (*STATS, "initiative") if int(eff.get(stat, 0) or 0)]
        if eff.get("roll"):
            changes.append(Msg("part.change", side="side.self", stat=f"stat.{eff.get('roll_to', 'attack')}",
                               amount=f"+{eff.get('roll')}"))
        return Msg("effect.modify", changes=changes) if changes else Msg("effect.modify_nothing")
    return Msg(f"effect.{do}")


def card_line(game: "FuuteiGame", c: int, host: dict[str, int] | None = None) -> Msg:
    """A card with what matters in play: stats (with equipment bonuses), bonus, points or
    effect."""
    card = game.catalogue[c]
    spec = card.spec
    if card.stats is not None:
        bonus = [0, 0, 0, 0]
        for e, h in (host or {}).items():
            if h == c:
                bonus = [b + x for b, x in zip(bonus, game.catalogue[int(e)].bonus)]
        stats = {label: _stat(label, d, b) for label, d, b in zip(STATS, card.stats, bonus)}
        return Msg("line.character", card=c, symbol=SEX_SYMBOL.get(spec.sex or "", ""), **stats)
    if spec.type == "equipment":
        bonuses = [Msg("part.bonus_of", stat=f"stat.{label}", amount=f"{b:+d}")
                   for label, b in zip(STATS, card.bonus) if b]
        return Msg("line.equipment", card=c, bonuses=bonuses or Markup(""))
    if spec.type == "region":
        return Msg("line.region", card=c, points=spec.points)
    effect = effect_msg(game, card)
    if effect is None:
        return Msg("line.plain", card=c, type=f"type.{spec.type}")
    return Msg("line.effect", card=c, type=f"type.{spec.type}", effect=effect)


# ----- events ----------------------------------------------------------------------------------
def event_message(game: "FuuteiGame", e: dict[str, Any], view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]] | None:
    """The message of every event kind Fuutei logs; None for `SILENT_EVENTS`."""
    k = e["e"]
    if k in SILENT_EVENTS:
        return None
    args = {key: v for key, v in e.items() if key not in _HIDDEN}
    variant = _VARIANTS.get(k)
    if variant is not None:
        return variant(game, e, args)
    return f"event.{k}", args


def _roll(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    args["why"] = f"roll.{e['why']}"
    with_card = e.get("card") is not None
    if not with_card:
        args.pop("card", None)
    if e.get("faces"):
        return ("event.roll.card" if with_card else "event.roll"), args
    return ("event.roll.card_fixed" if with_card else "event.roll.fixed"), args


def _random(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    args = {"player": e.get("player"), "n": e["n"], "nth": e["index"] + 1, "what": e["why"]}
    return ("event.random.discard" if e["why"] == "random_discard" else "event.random"), args


def _empty_draw(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("event.empty_draw.several" if e.get("missed", 1) > 1 else "event.empty_draw"), args


def _with_line(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return f"event.{e['e']}", {**args, "line": card_line(game, e["card"])}


def _dealt(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return "event.dealt", {**args, "n": len(e["cards"])}


def _event_card(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    effect = effect_msg(game, game.catalogue[e["card"]])
    return "event.event", {**args, "effect": effect if effect is not None else Markup("")}


def _region_drawn(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("event.region_drawn.center" if e["dest"] == "center" else "event.region_drawn.own"), args


def _hold(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    targets = e.get("targets")
    if not targets:
        return "event.hold", args
    # the targets named by the kinds the card's effect verb declares (a card, a player …)
    typed = game.typed_args(Action(e["player"], "hold", (e["card"], *targets)))[1:]
    return "event.hold.targets", {**args, "targets": typed}


def _support_committed(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    side = e.get("side", -1)
    args["side"] = SIDES[side] if side in (0, 1) else "side.unknown"
    return ("event.support_committed.placed" if e.get("placed", True) else "event.support_committed.none"), args


def _support_effect(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    changes = [Msg("part.change", side=SIDES[t] if t in (0, 1) else "side.unknown", stat=f"stat.{stat}",
                   amount=f"{amount:+d}") for t, stat, amount in e.get("changes") or ()]
    if not changes:
        return "event.support_effect.nothing", {"player": e.get("player"), "card": e["card"]}
    return "event.support_effect", {"player": e.get("player"), "card": e["card"], "changes": changes}


def _initiative(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return "event.initiative", {"first": e["first"], "invader_roll": e["rolls"][0], "defender_roll": e["rolls"][1]}


def _attack(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    args["attack"] = f"attack.{e['attack']}"
    kind = "critical" if e["critical"] else "hit" if e["defeated"] else "miss"
    return f"event.attack.{kind}", args


def _battle_over(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return "event.battle_over." + {0: "invader", 1: "defender"}.get(e["defeated"], "none"), args


def _gain_region(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("event.gain_region.from_player" if e.get("from_player", -1) >= 0 else "event.gain_region.center"), args


def _discarded(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    why = e.get("why")
    known = ("val_entered", "destroy_equipment", "destroy_region", "event")
    return (f"event.discarded.{why}" if why in known else "event.discarded"), args


def _temporary_leaves(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("event.temporary_leaves.hand" if e.get("dest") == "hand" else "event.temporary_leaves.discard"), args


def _success(kind: str) -> Variant:
    def variant(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        if "against" in args:
            args["against"] = f"stat.{args['against']}"
        return f"event.{kind}.{'success' if e['success'] else 'failure'}", args
    return variant


def _game_over(game: "FuuteiGame", e: dict[str, Any], args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("event.game_over" if e.get("winners") else "event.game_over.no_winner"), args


_VARIANTS: dict[str, Variant] = {
    "roll": _roll, "random": _random, "empty_draw": _empty_draw, "region_setup": _with_line,
    "setup_region": _with_line, "dealt": _dealt, "event": _event_card, "region_drawn": _region_drawn,
    "hold": _hold, "support_committed": _support_committed, "support_effect": _support_effect,
    "initiative": _initiative, "attack": _attack, "battle_over": _battle_over,
    "gain_region": _gain_region, "discarded": _discarded, "temporary_leaves": _temporary_leaves,
    "proposal": _success("proposal"), "assassination": _success("assassination"),
    "game_over": _game_over,
}


# ----- actions ---------------------------------------------------------------------------------
_BARE = frozenset({"end", "pass", "nosupport", "allow", "persuade", "decline", "done"})


def action_message(game: "FuuteiGame", action: Action, view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The label of every action Fuutei offers."""
    verb, n = action.verb, action.args
    if verb in _BARE:
        return f"action.{verb}", {}
    if verb in ("play", "support", "discard"):
        return f"action.{verb}", {"line": card_line(game, n[0])}
    if verb == "equip":
        return "action.equip", {"card": n[0], "target": n[1]}
    if verb == "guard":
        return "action.guard", {"region": n[0], "card": n[1]}
    if verb == "unguard":
        return "action.unguard", {"region": n[0]}
    if verb == "hold":
        if len(n) > 1:
            return "action.hold.targets", {"card": n[0], "targets": game.typed_args(action)[1:]}
        return "action.hold", {"card": n[0]}
    if verb == "invade":
        return "action.invade", {"card": n[0], "line": card_line(game, n[1])}
    if verb == "tawake":
        return "action.tawake", {"card": n[0]}
    if verb == "attack":
        return "action.attack", {"attack": f"attack.{n[0]}"}
    return f"action.{verb}", {f"arg{i}": a for i, a in enumerate(n)}


# ----- the board -------------------------------------------------------------------------------
def render_view(game: "FuuteiGame", view: dict[str, Any], r: Renderer) -> str:
    """The table as `view`'s player sees it, in `r`'s language (rich markup; the renderer
    turns it into plain text when it renders plain text)."""
    r = _markup(r)
    z, pub = view["zones"], view["public"]
    me = view["player"]
    guard = {int(reg): c for reg, c in pub["guard"].items()}
    host = pub["host"]
    temp, sealed = set(pub["temporary"]), set(pub["sealed"])

    def line(c: int, with_host: bool = False) -> str:
        m = card_line(game, c, host if with_host else None)
        return r.text(m.id, me, **m.args)

    lines = [r.text("board.header", me, turn=pub["turn"], player=pub["turn_player"],
                    phase=Markup(r.text(f"phase.{pub['phase']}")), threshold=pub["threshold"],
                    deck=z["deck"], discard=len(z["discard"]))]
    if z["center"]:
        lines.append(r.text("board.center", me, lines=Markup(r.join(line(c) for c in z["center"]))))
    for p, regions in enumerate(z["regions"]):
        hand = z["hand"][p]
        count = len(hand) if isinstance(hand, list) else hand
        lines.append(r.text("board.player_you" if p == me else "board.player", me, player=p,
                            points=pub["points"][p], hand=count))
        for reg in regions:
            d = guard.get(reg)
            who = Markup(r.card(d)) if d is not None else Markup(r.text("board.undefended"))
            lines.append(r.text("board.region", me, line=Markup(line(reg)), defender_card=who))
        for c in z["party"][p]:
            flags = (r.text("board.temporary") if c in temp else "") + (r.text("board.sealed") if c in sealed else "")
            gear = [int(e) for e, h in host.items() if h == c]
            gear_line = r.text("board.gear", me, gear=gear) if gear else ""
            lines.append(r.text("board.character", me, line=Markup(line(c, True)), flags=Markup(flags),
                                gear_line=Markup(gear_line)))
    if me is not None and isinstance(z["hand"][me], list):
        lines.append(r.text("board.hand"))
        for c in z["hand"][me]:
            lines.append(r.text("board.hand_card", me, line=Markup(_hand_line(game, c, r, line(c)))))
    b = pub["battle"]
    if b:
        a, d = b["chars"]
        if d >= 0:
            lines.append(r.text("board.battle", me, card=a, player=b["players"][0], target=d,
                                defender=b["players"][1], regions=b["regions"]))
        else:
            lines.append(r.text("board.battle_undefended", me, card=a, player=b["players"][0],
                                regions=b["regions"]))
        if z["stack"]:
            lines.append(r.text("board.stack", me, cards=z["stack"]))
        down = [(q, x if isinstance(x, int) else len(x)) for q, x in enumerate(z["support"])]
        if any(k for _, k in down):
            counts = [Msg("board.face_down_count", player=q, n=k) for q, k in down if k]
            lines.append(r.text("board.face_down", me, counts=counts))
    for w in pub.get("windows", []):
        data = w["data"]
        asked = w["order"][w["pos"]] if w["pos"] < len(w["order"]) else None
        lines.append(r.text("board.window", me, player=data["user"], card=data["card"], asked=asked,
                            order=list(w["order"])))
    left = GUARD_CHANGES_MAX - pub.get("guard_changes", 0)
    if pub["phase"] in ("main", "reassign") and left < 10:
        lines.append(r.text("board.guard_changes", me, left=left))
    return "\n".join(lines)


def _markup(r: Renderer) -> Renderer:
    """A renderer of rich markup in `r`'s language: pieces are joined as markup and turned
    into plain text once, by the caller's renderer."""
    return r if r.markup else Renderer(r.game, r.lang)


def _hand_line(game: "FuuteiGame", c: int, r: Renderer, line: str) -> str:
    """A card in the viewer's hand: its line, and for a card with rules text, that text in
    the viewer's language (the card data's own words)."""
    spec = game.catalogue[c].spec
    if spec.type in ("character", "equipment", "region"):
        return line
    text = _text(spec, r.lang)
    if not text:
        return line
    return r.text("line.plain", card=c, type=f"type.{spec.type}") + " " + escape(text)


def _text(spec: CardSpec, lang: str) -> str:
    """The card's rules text in `lang` (the other language's where it has none)."""
    return (spec.text_en or spec.text_ja) if lang == "en" else (spec.text_ja or spec.text_en)


# ----- card texts ------------------------------------------------------------------------------
def card_info(game: "FuuteiGame", query: str, r: Renderer) -> list[str]:
    """The full text of every card whose id, Japanese or English name contains `query`
    (case-insensitive), in `r`'s language with the other language's name beside it: type,
    stats or bonus or points, effect text, and how many copies the card set holds."""
    r = _markup(r)
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
        lines = [r.text("info.header", name_ja=spec.name_ja, name_en=spec.name_en, type=f"type.{spec.type}",
                        copies=counts[spec.id], id=spec.id)]
        if c.stats is not None:
            stats: dict[str, Any] = {label: Msg("part.stat", stat=f"stat.{label}", dice=str(d), bonus=Markup(""))
                     for label, d in zip(STATS, c.stats)}
            lines.append(r.text("info.character", sex=f"sex.{spec.sex}",
                                symbol=SEX_SYMBOL.get(spec.sex or "", ""), **stats))
        if spec.type == "equipment":
            bonus: dict[str, Any] = {label: Msg("part.stat", stat=f"stat.{label}", dice=f"{b:+d}", bonus=Markup(""))
                     for label, b in zip(STATS, c.bonus)}
            lines.append(r.text("info.equipment", **bonus))
        if spec.type == "region":
            lines.append(r.text("info.region", points=spec.points))
        if spec.excluded_by:
            lines.append(r.text("info.excluded", excluded=game.catalogue.by_id(spec.excluded_by)[0]))
        text = _text(spec, r.lang)
        if text:
            lines.append(r.text("info.text", text=text))
        out.append("\n".join(lines))
    return out
