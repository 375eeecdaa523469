"""Presentation of いばらの姫と4人の騎士 through messages (``messages.toml``): log lines, action
labels, the board picture and card texts, in Japanese or English.

`event_message` and `action_message` turn an event or an action into a message ID and
language-neutral arguments (card ids, players, words, nested `Msg` parts); `render_view` and
`card_info` build their text with a `Renderer` in the viewer's language.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeVar

from rich.markup import escape

from ...core.action import Action
from ...core.targets import Kind
from ...present import Markup, Msg, Renderer
from . import board
from .content import BEATS, SHIELD, SUIT_EN, Entry

if TYPE_CHECKING:
    from .game import IbaraGame

#: Event kinds left out of the log on purpose: the index of a random pick (the card it
#: discards is its own event).
SILENT_EVENTS = frozenset({"random"})
_HIDDEN = frozenset({"e", "to", "seq", "chance"})
RING_ITEM = "akuun_no_yubiwa"          # the item chip of IBR-COMBAT-RING
_RESULT = {1: "attacker_wins", -1: "defender_wins", 0: "tie"}

LAYOUT = [
    "          <12>    <1>*    <2>        {gate_note}",
    "      <11>                  <3>",
    "   <10>*        <0>         <4>*     {keep_note}",
    "       <9>                  <5>",
    "          <8>     <7>*    <6>",
]
_CELL = re.compile(r"<(\d+)>")


# ----- arguments ------------------------------------------------------------------------------
def square(sq: int) -> str:
    """A square as a word of the catalogue (``word.square.5``: "マス5" / "square 5")."""
    return f"square.{sq}"


def _one(msg_id: str, n: int) -> str:
    """`msg_id`, or its ``_one`` form for exactly one (English says "a card", not "1 cards")."""
    return f"{msg_id}_one" if n == 1 else msg_id


def item_card(game: "IbaraGame", item_id: str) -> str:
    """The card argument (``"item:I"``) of the first chip of the item `item_id`."""
    return f"item:{next(i for i, x in enumerate(game.content.items) if x.id == item_id)}"


def _ring(game: "IbaraGame") -> str:
    return item_card(game, RING_ITEM)


def _gaiblitz(game: "IbaraGame") -> str:
    """The knight whose ability IBR-GABE describes: the combat knight."""
    return f"knight:{game.knight_kinds.index('combat')}"


def _strength(v: list[Any]) -> Msg:
    return Msg("event.value", suit=v[0], strength=v[1]) if v else Msg("event.no_card")


def sp_targets(game: "IbaraGame", card: int, targets: Any) -> list[Msg]:
    """The targets of SP card `card`, each named by the kind its verb declares
    (`effects.SP`): a square as the log words squares, a player, a card … by the renderer."""
    typed = game.typed_args(Action(0, "sp", (card, *targets)))[1:]
    return [Msg("target.square", square=square(t.value)) if t.target.kind is Kind.PLACE
            else Msg("target.typed", arg=t) for t in typed]


# ----- events ---------------------------------------------------------------------------------
def event_message(game: "IbaraGame", e: dict[str, Any], view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]] | None:
    """(message ID, arguments) of every event kind Ibara logs; None for `SILENT_EVENTS`."""
    k = e["e"]
    if k in SILENT_EVENTS or k == "act":
        return None
    args = {key: v for key, v in e.items() if key not in _HIDDEN}
    if "why" in args:
        args["why"] = f"why.{e['why']}"
    if k == "knight":
        args["knight"] = f"knight:{e['knight']}"
    elif k == "shuffle":
        args = {"what": "deck." + e["what"].replace(" ", "_")}
    elif k in ("move", "event_marker", "placed"):
        args["square"] = square(e["square"])
    elif k == "draw_count":
        return ("event.draw_none" if not e["n"] else _one("event.draw_count", e["n"])), args
    elif k == "declare":
        args["n"] = args.pop("cards")
        return ("event.declare_none" if not e["cards"] else _one("event.declare", e["cards"])), args
    elif k in ("committed", "dropped"):
        return _one(f"event.{k}", e["n"]), args
    elif k == "reveal" and not e["cards"]:
        return "event.reveal_none", args
    elif k == "ring":
        args["ring"] = _ring(game)
    elif k == "combat_result":
        args = {"attack": _strength(e["attacker"]), "defence": _strength(e["defender"]),
                "result": _RESULT[e["result"]]}
    elif k == "event":
        args["event_card"] = f"event:{args.pop('card')}"
    elif k == "item":
        args["chip"] = f"item:{e['item']}"
    elif k == "explore":
        args["result"] = "success" if e["success"] else "failure"
    elif k in ("whim", "anger", "whim_taken"):
        args["whim"] = f"whim:{args.pop('card')}"
    elif k == "whims_lost":
        n = len(args.pop("cards"))
        args["n"] = n
        return ("event.whims_lost_none" if not n else _one("event.whims_lost", n)), args
    elif k == "sp":
        target = args.pop("target")
        if target:
            args["targets"] = sp_targets(game, e["card"], target)
            return "event.sp_on", args
    elif k == "gaiblitz":
        args["knight"] = _gaiblitz(game)
    return f"event.{k}", args


# ----- actions --------------------------------------------------------------------------------
def action_message(game: "IbaraGame", a: Action, view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """(message ID, arguments) of every action Ibara offers."""
    v, args = a.verb, a.args
    if v == "move":
        return "action.move", {"card": args[0], "square": square(args[1])}
    if v == "sp":
        if len(args) > 1:
            return "action.sp_on", {"card": args[0], "targets": sp_targets(game, args[0], args[1:])}
        return "action.sp", {"card": args[0]}
    if v in ("explore", "discard", "nofight", "drop"):
        return f"action.{v}", {"card": args[0]}
    if v == "fight":
        return "action.fight", {"cards": list(args)}
    if v == "ring":
        return "action.ring", {"cards": list(args), "ring": _ring(game)}
    if v == "noring":
        return "action.noring", {"ring": _ring(game)}
    if v == "gaiblitz":
        return "action.gaiblitz", {"knight": _gaiblitz(game), "target": args[0], "mode": args[1]}
    if v == "lose":
        return "action.lose", {"whim": f"whim:{args[0]}"}
    if v == "declare":
        return _one("action.declare", args[0]), {"n": args[0]}
    if v in ("choose", "drop_suit"):
        return f"action.{v}", {"suit": args[0]}
    return f"action.{v}", {}


# ----- the board ------------------------------------------------------------------------------
def _markup(r: Renderer) -> Renderer:
    """A renderer of rich markup in `r`'s language: pieces are joined as markup and turned
    into plain text once, by the caller's renderer."""
    return r if r.markup else Renderer(r.game, r.lang)


def _need(game: "IbaraGame", w: Any, prefix: str) -> Msg:
    """What a whim asks for (``board.need_*`` or ``info.need_*``)."""
    if w.items:
        return Msg(f"{prefix}.need_items", chips=[item_card(game, it) for it in w.items])
    if w.deed == "win_combat":
        return Msg(f"{prefix}.need_combat")
    return Msg(f"{prefix}.need_visit", square=square(w.square))


def render_view(game: "IbaraGame", view: dict[str, Any], r: Renderer) -> str:
    """The board, the face-up whim, every knight and the viewer's hand, in `r`'s language
    (rich markup; the renderer turns it into plain text when it renders plain text)."""
    r = _markup(r)
    z, pub = view["zones"], view["public"]
    me = view["player"]
    c = game.content
    marks: dict[int, str] = {}
    for p, sq in enumerate(pub["pos"]):
        marks[sq] = marks.get(sq, "") + f"K{p}"
    marks[pub["princess"]] = marks.get(pub["princess"], "") + r.text("board.princess_mark")
    if pub["event_marker"] >= 0:
        marks[pub["event_marker"]] = marks.get(pub["event_marker"], "") + "E"
    names = {sq: str(sq) for sq in board.NUMBERED}
    names[board.KEEP] = r.text("board.keep_cell")
    cells = {sq: f"[{names[sq]}{(':' + marks[sq]) if sq in marks else ''}]" for sq in names}
    notes = {"gate_note": r.text("board.gate_note"), "keep_note": r.text("board.keep_note")}
    lines = [r.text("board.title", me, round=pub["round"], turn=pub["turn"], player=pub["turn_player"],
                    phase=Msg(f"phase.{pub['phase']}"))]
    lines += [escape(_CELL.sub(lambda m: cells[int(m.group(1))], row)).format(**notes) for row in LAYOUT]
    lines.append(r.text("board.legend"))
    up = z["whim_up"]
    if up:
        w = c.whims[up[0]]
        lines.append(r.text("board.whim", me, whim=f"whim:{up[0]}", need=_need(game, w, "board"),
                            irritation=pub["irritation"], limit=w.limit))
    for p in range(len(pub["pos"])):
        hand = z["hand"][p]
        n = len(hand) if isinstance(hand, list) else hand
        tag = Msg("board.escorting") if pub["escort"] == p else Markup("")
        chips = [f"item:{i}" for i in z["items"][p]] or Markup(r.word("none"))
        lines.append(r.text("board.row", me, player=p, seat=p, knight=f"knight:{pub['knights'][p]}",
                            square=square(pub["pos"][p]), tag=tag, whims=len(z["whims"][p]),
                            needed=pub["whims_needed"], hand=Msg(_one("board.hand_count", n), n=n),
                            chips=chips))
    if me is not None and isinstance(z["hand"][me], list):
        cards = [Msg("board.sp_card", card=x) if c.cards[x].is_sp else Msg("board.card", card=x, move=c.cards[x].move)
                 for x in sorted(z["hand"][me])]
        lines.append(r.text("board.hand", me, cards=cards or Markup(r.word("nothing"))))
    b = pub["combat"]
    if b:
        lines.append(r.text("board.combat", me, player=b["players"][0], defender=b["players"][1]))
    return "\n".join(lines)


# ----- card texts -----------------------------------------------------------------------------
E = TypeVar("E", bound=Entry)


def _unique(entries: tuple[E, ...]) -> list[E]:
    """One of each entry (the content holds one per physical card)."""
    seen: dict[str, E] = {}
    for x in entries:
        seen.setdefault(x.id, x)
    return list(seen.values())


def _own_text(x: Any, lang: str) -> str:
    """The entry's own text in `lang` (the card data's words), "" if it has none."""
    return getattr(x, f"text_{lang}", "") or ""


def effect_msg(game: "IbaraGame", e: Any) -> Msg:
    """What an event card does, from its effect."""
    eff = e.effect
    do = eff["do"]
    if do == "gain_item":
        return Msg("effect.gain_item", chip=item_card(game, eff["item"]))
    if do in ("draw", "discard_random"):
        n = eff.get("n", 1)
        return Msg(_one(f"effect.{do}", n), n=n)
    if do == "irritation":
        return Msg("effect.irritation", n=eff.get("n", 1))
    return Msg(f"effect.{do}", **{k: v for k, v in eff.items() if k != "do"})   # effect.<verb>: its parameters


def _parts(game: "IbaraGame", kind: str, x: Any, lang: str) -> tuple[Msg, list[Msg]]:
    """The header part (after the names) and the lines of rules text of one entry."""
    c = game.content
    if kind == "action":
        copies = sum(1 for y in c.cards if (y.suit, y.number, y.sp) == (x.suit, x.number, x.sp))
        rule = (Msg("info.shield") if x.suit == SHIELD
                else Msg("info.beats", suit=x.suit, beaten=BEATS[x.suit]))
        return Msg("info.action", copies=copies, move=x.move), [rule]
    text = _own_text(x, lang)
    own = [Msg("info.text", text=text)] if text else []
    if kind == "sp":   # a card with no text of its own: what its verb does (sp_effect.<verb>)
        return (Msg("info.sp", copies=sum(1 for y in c.cards if y.sp == x.effect and y.name == x.name_ja)),
                own or [Msg(f"sp_effect.{x.effect}")])
    if kind == "knight":
        return Msg("info.knight", kind=f"knight_kind.{x.kind}"), own
    if kind == "item":
        return Msg("info.item", copies=x.count), own
    if kind == "whim":
        need = [_need(game, x, "info")] if x.items or not own else []
        return Msg("info.whim", copies=x.count, limit=x.limit), need + own
    return Msg("info.event", copies=x.count), own or [effect_msg(game, x)]


def entries(game: "IbaraGame") -> list[tuple[str, Any, str, str, tuple[str, ...]]]:
    """Every kind of card once: (kind, entry, name_ja, name_en, search keys)."""
    c = game.content
    out: list[tuple[str, Any, str, str, tuple[str, ...]]] = []
    seen: set[tuple[str | None, int, str | None, str]] = set()
    for card in c.cards:
        key = (card.suit, card.number, card.sp, card.name)
        if key in seen or card.is_sp:
            continue
        seen.add(key)
        assert card.suit is not None                    # every card but an SP card has a suit
        ja, en = game.card_names(card.iid)
        out.append(("action", card, ja, en, (ja, en, f"{SUIT_EN[card.suit].lower()}_{card.number}")))
    out += [("sp", x, x.name_ja, x.name_en, (x.id, x.name_ja, x.name_en)) for x in c.sps]
    for kind, table in (("knight", c.knights), ("item", _unique(c.items)), ("whim", _unique(c.whims)),
                        ("event", _unique(c.events))):
        out += [(kind, x, x.name_ja, x.name_en, (x.id, x.name_ja, x.name_en)) for x in table]
    return out


def rules_text(game: "IbaraGame", kind: str, x: Any, r: Renderer) -> list[str]:
    """The lines of an entry's rules text in `r`'s language."""
    _, lines = _parts(game, kind, x, r.lang)
    return [r.text(m.id, None, **m.args) for m in lines]


def card_info(game: "IbaraGame", query: str, r: Renderer) -> list[str]:
    """The full text of every action card, SP card, knight, item chip, whim and event whose id
    or Japanese or English name contains `query` (case-insensitive), in `r`'s language with
    the other language's name beside it."""
    r = _markup(r)
    q = query.strip().casefold()
    if not q:
        return []
    out = []
    for kind, x, ja, en, keys in entries(game):
        if not any(q in k.casefold() for k in keys):
            continue
        what, lines = _parts(game, kind, x, r.lang)
        head = r.text("info.header", name_ja=ja, name_en=en, kind=what)
        out.append("\n".join([head] + ["  " + r.text(m.id, None, **m.args) for m in lines]))
    return out


def square_names(game: "IbaraGame") -> list[tuple[int, tuple[str, str]]]:
    """Each square's (Japanese, English) name, as the log words it."""
    from ...present import LANGS
    say = [Renderer(game, lang, markup=False) for lang in LANGS]
    return [(sq, tuple(r.word(square(sq)) for r in say)) for sq in board.SQUARES]  # type: ignore[misc]
