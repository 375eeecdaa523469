"""One renderer for every client: events, actions and prompts as text in one language.

    r = Renderer(game, "en")                 # rich markup; Renderer(game, "ja", markup=False)
    r.event(event, viewer=0)                 # "You draw Blue Wind (蒼い風)."
    r.action("invade 17 90", view)           # a menu label
    r.text("ui.your_decision", prompt=...)   # any message by ID

A message may have a second form for the viewer: ``event.draw`` = "{player} draws {card}."
and ``event.draw.you`` = "You draw {card}." (used when the event's ``player`` is the viewer).

A game's presenter module (``render.py``) may define ``event_message(game, event, view)``
returning ``(message_id, args)`` (or None to leave the event out) and
``action_message(game, action, view)``; without them an event of kind K is the message
``event.K`` with the event's fields as arguments, and an action of verb V is ``action.V``
with ``arg0``, ``arg1`` …. Arguments are rendered by their kind in the catalogue's ``[args]``:
a player ("you" for the viewer), a card (its name in the viewer's language; in English the
Japanese name beside it), a word (translated through ``word.VALUE``), or plain text.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from rich.errors import MarkupError
from rich.markup import escape
from rich.text import Text

from ..core.action import Action
from ..core.targets import Kind, Typed
from .catalogue import LANGS, Catalogue, catalogue_for

if TYPE_CHECKING:
    from ..core.game import Game

    # the hooks a game's presenter module may define (see the module's docstring)
    EventMessage = Callable[[Game, dict[str, Any], dict[str, Any] | None], tuple[str, dict[str, Any]] | None]
    ActionMessage = Callable[[Game, Action, dict[str, Any] | None], tuple[str, dict[str, Any]]]
    RenderView = Callable[[Game, dict[str, Any], "Renderer"], str]
    CardInfo = Callable[[Game, str, "Renderer"], Iterable[str]]

_HIDDEN_FIELDS = frozenset({"e", "to", "seq", "chance"})


class Markup(str):
    """Text already rendered (rich markup), passed to `Renderer.text` as it is."""


class Msg:
    """A message as an argument of another: ``Msg("event.gain", gainer=2)`` is rendered in
    the viewer's language where it is used (a list of them is joined)."""

    __slots__ = ("id", "args")

    def __init__(self, msg_id: str, /, **args: Any) -> None:
        self.id, self.args = msg_id, args

    def __repr__(self) -> str:
        return f"Msg({self.id!r}, {self.args!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.id, self.args) == (other.id, other.args)


@lru_cache(maxsize=1 << 16)
def plain_text(markup_text: str) -> str:
    """Rich markup as plain text (kept: the same texts recur in every state a server sends,
    and parsing markup is most of rendering one)."""
    try:
        return Text.from_markup(markup_text).plain
    except MarkupError:
        return markup_text


class Renderer:
    """Text for one game in one language (`lang`), as rich markup or plain text."""

    def __init__(self, game: "Game", lang: str = "ja", markup: bool = True,
                 names: Sequence[str | None] = ()) -> None:
        """`names`: the players' display names by seat (a missing or empty one: "player N")."""
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
        self.game, self.lang, self.markup = game, lang, markup
        self.names = list(names)
        self.catalogue: Catalogue = catalogue_for(game)
        self._presenter = game._presenter()

    # ----- messages -------------------------------------------------------------------------
    def text(self, msg_id: str, viewer: int | None = None, **args: Any) -> str:
        """The message `msg_id` with its arguments rendered for `viewer`. When its ``player``
        argument is the viewer and the catalogue has ``<msg_id>.you``, that form is used
        ("You draw …" rather than "you draws …")."""
        return self._out(self._markup(msg_id, viewer, args))

    def _markup(self, msg_id: str, viewer: int | None, args: dict[str, Any]) -> str:
        """The message as rich markup (nested messages too: plain text is made once, at the
        outermost message)."""
        template = None
        if viewer is not None and args.get("player") == viewer:
            template = self.catalogue.template(f"{msg_id}.you", self.lang)
        if template is None:
            template = self.catalogue.template(msg_id, self.lang)
        if template is not None:
            values = {k: self.arg(k, v, viewer) for k, v in args.items()}
            try:
                return template.format_map(values)
            except (KeyError, IndexError, ValueError):
                pass
        shown = ", ".join(f"{k}={v}" for k, v in args.items())
        return escape(f"{msg_id}({shown})")

    def title(self) -> str:
        """The game's title in this language (``game.title`` in its messages, else the title)."""
        return self.text("game.title") if self.has("game.title") else self._out(escape(self.game.title))

    def has(self, msg_id: str) -> bool:
        return msg_id in self.catalogue

    def _out(self, markup_text: str) -> str:
        return markup_text if self.markup else plain_text(markup_text)

    # ----- arguments ------------------------------------------------------------------------
    def arg(self, name: str, value: Any, viewer: int | None = None) -> str:
        """One argument as (escaped) text, by its declared kind."""
        if isinstance(value, Markup):
            return str(value)
        if isinstance(value, Msg):
            return self._markup(value.id, viewer, value.args)
        if isinstance(value, list) and value and all(isinstance(v, Msg) for v in value):
            return self.join(self._markup(v.id, viewer, v.args) for v in value)
        if isinstance(value, Typed):
            return self.typed(value, viewer)
        if isinstance(value, list) and value and all(isinstance(v, Typed) for v in value):
            return self.join(self.typed(v, viewer) for v in value)
        kind = self.catalogue.args.get(name, "text")
        if value is None:
            return escape(self.word("none"))
        if kind == "player":
            return self.player(value, viewer)
        if kind == "players":
            return self.join(self.player(p, viewer) for p in value)
        if kind == "card":
            return self.card(value)
        if kind == "cards":
            return self.join(self.card(c) for c in value) if value else escape(self.word("nothing"))
        if kind == "word":
            return escape(self.word(value))
        if isinstance(value, (list, tuple)):
            return self.join(escape(str(v)) for v in value)
        return escape(str(value))

    def typed(self, arg: Typed, viewer: int | None = None) -> str:
        """One action argument by its declared kind (`takujo.core.targets`)."""
        kind, value = arg.target.kind, arg.value
        if kind is Kind.PLAYER:
            return self.player(value, viewer)
        if kind is Kind.CARD:
            return self.card(value)
        if kind is Kind.PLACE:
            return self.place(arg.target.of, value)
        if kind is Kind.WORD:
            return escape(self.word(value))
        return escape(str(value))

    def place(self, of: str, place: Any) -> str:
        """A place's name in this language (English with the Japanese beside it)."""
        return self._named(self.game.place_names, place, of)

    def player(self, p: Any, viewer: int | None = None) -> str:
        if p is None or p == -1:
            return escape(self.word("nobody"))
        if viewer is not None and p == viewer:
            return self.catalogue.template("ui.you", self.lang) or "you"
        if isinstance(p, int) and 0 <= p < len(self.names) and self.names[p]:
            return escape(str(self.names[p]))
        return (self.catalogue.template("ui.player", self.lang) or "player {n}").format(n=p)

    def card(self, card: Any) -> str:
        """A card's name in this language; in English with the Japanese name beside it."""
        return self._named(self.game.card_names, card)

    def _named(self, names: Any, value: Any, *lead: Any) -> str:
        try:
            ja, en = names(*lead, value)
        except (KeyError, IndexError, TypeError, ValueError):
            return escape(str(value))
        if self.lang == "ja" or not en or en == ja:
            return escape(ja)
        return escape(f"{en} ({ja})")

    def word(self, value: Any) -> str:
        template = self.catalogue.template(f"word.{value}", self.lang)
        return template if template is not None else str(value)

    def join(self, parts: Iterable[str]) -> str:
        return ("、" if self.lang == "ja" else ", ").join(parts)

    # ----- events and actions ---------------------------------------------------------------
    def event_message(self, event: dict[str, Any], view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]] | None:
        """(message ID, arguments) of an event, or None when it is not shown."""
        hook: EventMessage | None = getattr(self._presenter, "event_message", None)
        if hook is not None:
            return hook(self.game, event, view)
        if event["e"] in self.game.silent_events():
            return None
        return f"event.{event['e']}", {k: v for k, v in event.items() if k not in _HIDDEN_FIELDS}

    def event(self, event: dict[str, Any], viewer: int | None = None, view: dict[str, Any] | None = None) -> str | None:
        """One log line for `event` as `viewer` sees it, or None when it is not shown."""
        found = self.event_message(event, view)
        if found is None:
            return None
        msg_id, args = found
        line = self._markup(msg_id, viewer, args)
        return self._out(_capitalised(line) if self.lang == "en" else line)

    def action_message(self, action: Action, view: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        hook: ActionMessage | None = getattr(self._presenter, "action_message", None)
        if hook is not None:
            return hook(self.game, action, view)
        return f"action.{action.verb}", {f"arg{i}": a for i, a in enumerate(action.args)}

    def action(self, action: Action | str, view: dict[str, Any] | None = None) -> str:
        """A label for an action (or its notation) in this language."""
        if isinstance(action, str):
            player = view.get("player") if view else None
            action = self.game.parse_action(action, player if isinstance(player, int) else 0)
        msg_id, args = self.action_message(action, view)
        viewer = view.get("player") if view else None
        return self.text(msg_id, viewer, **args)

    # ----- the board and card texts ---------------------------------------------------------
    def view(self, view: dict[str, Any]) -> str:
        """A text picture of a view (the presenter's ``render_view(game, view, renderer)``)."""
        hook: RenderView | None = getattr(self._presenter, "render_view", None)
        if hook is None:
            import json
            return self._out(escape(json.dumps({k: v for k, v in view.items() if k != "log"},
                                               ensure_ascii=False, indent=1)))
        return self._out(hook(self.game, view, self))

    def card_info(self, query: str) -> list[str]:
        """The full text of every card whose id or name (either language) contains `query`."""
        hook: CardInfo | None = getattr(self._presenter, "card_info", None)
        if hook is None:
            return []
        return [self._out(text) for text in hook(self.game, query, self)]


def _capitalised(markup_text: str) -> str:
    """A log line starts with a capital letter ("You drew …"), markup tags skipped."""
    i, n = 0, len(markup_text)
    while i < n:
        ch = markup_text[i]
        if ch == "[" and (i == 0 or markup_text[i - 1] != "\\"):
            end = markup_text.find("]", i)
            if end < 0:
                break
            i = end + 1
            continue
        if ch.isalpha():
            return markup_text[:i] + ch.upper() + markup_text[i + 1:]
        if not ch.isspace():
            break
        i += 1
    return markup_text
