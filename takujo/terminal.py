"""Playing at a terminal: one or several people and bots around one game.

`TerminalTable` runs a game in which some seats are people (who type at this terminal) and
the others are bots. Each person sees only their own view and the events they may see. When
several people share the terminal, a hand-over screen clears what the previous player saw
before the next one looks. Long menus are grouped (first the card, then its target).
``? NAME`` shows any card's full text.

Menu numbers stay stable within one decision. A decision goes on while the same person is
asked again for the same pending decision (same kind, players and prompt) with no action of
anyone else in between, e.g. several choices in one phase. While it goes on, an entry that
is still there (an action, or a group of one card) keeps its number, an entry that is gone
leaves a gap (and has its number back if it returns), and a new entry takes the next number
after the highest given so far (so it is listed last); menus are listed by number. Whether
the menu is grouped is fixed at the decision's first menu. When a new decision starts, the
numbers start again at 1.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Hashable, TextIO

from rich.console import Console
from rich.errors import MarkupError
from rich.markup import escape
from rich.text import Text

from .bots import Bot
from .core.action import Action
from .core.decision import Decision
from .core.errors import IllegalActionError, NotationError
from .core.game import Game
from .core.rng import Rng
from .core.state import State
from .present import Markup, Renderer
from .record import write_record

#: A decision with more choices than this is shown grouped by card (then target).
MENU_LIMIT = 16



class _Refusal(Exception):
    """Input the table refuses before it reaches the game, in the table's language."""

class Quit(Exception):
    """The person at the terminal quit (or the input ended)."""


def print_markup(console: Console, text: str) -> None:
    """Print rich markup; text that is not valid markup is printed as it is."""
    try:
        console.print(text)
    except MarkupError:
        console.print(text, markup=False)


def plain(markup: str) -> str:
    try:
        return Text.from_markup(markup).plain
    except MarkupError:
        return markup


# ----- menus --------------------------------------------------------------------------------
@dataclass
class MenuEntry:
    """One line of a menu: a single action, or a group of actions sharing verb and first
    argument (a card and its possible targets)."""

    label: str
    actions: list[Action]
    #: what keeps the entry's number: the action (flat menu) or its (verb, first argument)
    key: Hashable = None
    number: int = 0


_SEPARATORS = " →、:,（(/"


def _common_prefix(labels: list[str]) -> str:
    """What the labels of a group share, ended at a word boundary ("" if nothing)."""
    n = len(os.path.commonprefix(labels))
    cut = labels[0][:n]
    if cut and cut[-1] not in _SEPARATORS and any(len(x) > n and x[n] not in _SEPARATORS for x in labels):
        last = max(cut.rfind(sep) for sep in _SEPARATORS)
        cut = cut[:last] if last > 0 else ""
    return cut.strip(" →:、,/（(")


def build_menu(legal: list[Action], label: Callable[[Action], str],
               count: Callable[[int], str] = lambda n: f"[dim]… {n}[/dim]",
               grouped: bool | None = None) -> list[MenuEntry]:
    """The menu of a decision: one entry per action, or one entry per (verb, first argument)
    group. `grouped` None groups above `MENU_LIMIT` when that joins some actions; True or
    False forces it. The order follows `legal`. `count(n)` labels a group of n choices."""
    if grouped is False or (grouped is None and len(legal) <= MENU_LIMIT):
        return [MenuEntry(label(a), [a], a) for a in legal]
    groups: dict[tuple[str, Any], list[Action]] = {}
    for a in legal:
        groups.setdefault((a.verb, a.args[0] if a.args else None), []).append(a)
    if grouped is None and len(groups) == len(legal):
        return [MenuEntry(label(a), [a], a) for a in legal]
    entries = []
    for (verb, first), actions in groups.items():
        if len(actions) == 1:
            entries.append(MenuEntry(label(actions[0]), actions, (verb, first)))
            continue
        shared = _common_prefix([plain(label(a)) for a in actions])
        name = escape(shared) if shared else escape(f"{verb} {first}")
        entries.append(MenuEntry(f"{name} {count(len(actions))}", actions, (verb, first)))
    return entries


def _numbered(entries: list[MenuEntry], numbers: dict[Hashable, int]) -> list[MenuEntry]:
    """Give each entry the number its key already has, or the next after the highest;
    return the entries in the order of their numbers."""
    following = max(numbers.values(), default=0) + 1
    for entry in entries:
        if entry.key not in numbers:
            numbers[entry.key] = following
            following += 1
        entry.number = numbers[entry.key]
    return sorted(entries, key=lambda e: e.number)


@dataclass
class MenuNumbers:
    """The numbers of one decision's menus (see the module's docstring for the rule)."""

    grouped: bool | None = None
    top: dict[Hashable, int] = field(default_factory=dict)
    inner: dict[Hashable, dict[Hashable, int]] = field(default_factory=dict)

    def menu(self, legal: list[Action], label: Callable[[Action], str],
             count: Callable[[int], str] = lambda n: f"[dim]… {n}[/dim]") -> list[MenuEntry]:
        """The numbered menu of `legal`, keeping the numbers given before in this decision."""
        entries = build_menu(legal, label, count, self.grouped)
        if self.grouped is None:
            self.grouped = any(len(e.actions) > 1 for e in entries)
        return _numbered(entries, self.top)

    def group(self, entry: MenuEntry, label: Callable[[Action], str]) -> list[MenuEntry]:
        """The numbered choices inside a group entry (a card's targets)."""
        return _numbered([MenuEntry(label(a), [a], a) for a in entry.actions],
                         self.inner.setdefault(entry.key, {}))


# ----- the table ----------------------------------------------------------------------------
@dataclass
class TerminalTable:
    """A game at one terminal: `humans` type, the other seats are `agents` (bots)."""

    state: State
    seed: int
    seats: list[str]
    humans: list[int]
    agents: dict[int, Bot]
    rngs: dict[int, Rng]
    console: Console
    r: Renderer
    record: Path | None = None
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    shown: dict[int, int] = field(default_factory=dict)
    looking: int | None = None
    #: per seat: the decision it last acted in, the step count just after, and its numbers
    numbering: dict[int, tuple[Decision | None, int, MenuNumbers]] = field(default_factory=dict)

    @property
    def game(self) -> Game:
        return self.state.game

    @property
    def piped(self) -> bool:
        return not self.stdin.isatty()

    # ----- input --------------------------------------------------------------------------
    def read(self) -> str:
        self.console.print("> ", end="")
        sys.stdout.flush()
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:
            line = ""
        if not line:
            self.console.print()
            raise Quit("input_ended")
        text = line.strip()
        if self.piped:
            self.console.print(escape(text))
        return text

    # ----- what a person sees -------------------------------------------------------------
    def show_log(self, seat: int) -> dict[str, Any]:
        """Print the events `seat` has not seen yet; return the seat's view."""
        view = self.state.view(seat)
        for event in self.state.events_for(seat, self.shown.get(seat, 0)):
            line = self.r.event(event, seat, view)
            if line is not None:
                print_markup(self.console, "  " + line)
        self.shown[seat] = view["cursor"]
        return view

    def hand_over(self, seat: int) -> None:
        """With several people at the terminal: hide the last player's screen, then wait
        until the next one says they alone are looking."""
        if len(self.humans) < 2 or self.looking == seat:
            return
        if self.console.is_terminal:
            self.console.clear()
        else:
            self.console.print("\n\n\n" + "─" * 40)
        print_markup(self.console, self.r.text("ui.hand_over", seat=seat))
        text = self.read()
        if text.lower() in ("q", "quit", "exit"):
            raise Quit("quit")
        self.looking = seat

    def show_menu(self, seat: int, view: dict[str, Any], menu: list[MenuEntry], title: str = "") -> None:
        print_markup(self.console, self.r.view(view))
        prompt = (view.get("pending") or {}).get("prompt")
        if len(self.humans) > 1:
            print_markup(self.console, self.r.text("ui.player_heading", seat=seat))
        if prompt:
            shown = self.r.text(f"prompt.{prompt}") if self.r.has(f"prompt.{prompt}") else escape(prompt)
            print_markup(self.console, self.r.text("ui.your_decision", prompt=Markup(shown)))
        self.print_entries(menu)

    def print_entries(self, menu: list[MenuEntry]) -> None:
        for entry in menu:
            extra = ""
            if len(entry.actions) == 1:
                text = str(entry.actions[0])
                extra = f"  [dim]({escape(text)})[/dim]" if plain(entry.label) != text else ""
            print_markup(self.console, f"  [bold]{entry.number:>2}[/bold]. {entry.label}{extra}")

    def numbers_for(self, seat: int) -> MenuNumbers:
        """The numbers of `seat`'s decision: kept while it goes on, fresh for a new one."""
        kept = self.numbering.get(seat)
        if kept is not None and kept[0] == self.state.pending and kept[1] == self.state.steps:
            return kept[2]
        return MenuNumbers()

    def label(self, view: dict[str, Any]) -> Callable[[Action], str]:
        return lambda a: self.r.action(a, view)

    def card_info(self, query: str) -> None:
        found = self.r.card_info(query)
        if not found:
            print_markup(self.console, self.r.text("ui.no_card", query=query))
        for text in found[:8]:
            print_markup(self.console, text)
        if len(found) > 8:
            print_markup(self.console, self.r.text("ui.more_cards", n=len(found) - 8))

    def ask(self, seat: int, legal: list[Action]) -> None:
        """Ask `seat` for an action until a legal one is given, and apply it. The actions open
        at any time (conceding) are offered last."""
        self.hand_over(seat)
        view = self.show_log(seat)
        decision = self.state.pending
        numbers = self.numbers_for(seat)
        legal = legal + self.state.always_actions(seat)
        menu = numbers.menu(legal, self.label(view), lambda n: self.r.text("ui.group_choices", n=n))
        self.show_menu(seat, view, menu)
        group: list[MenuEntry] | None = None
        while True:
            text = self.read()
            if not text:
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise Quit("quit")
            if low in ("?", "help"):
                self.show_menu(seat, self.state.view(seat), menu)
                print_markup(self.console, self.r.text("ui.input_help"))
                group = None
                continue
            if low.startswith(("? ", "info ")):
                self.card_info(text.split(None, 1)[1].strip())
                continue
            if group is not None and low in ("b", "back", "0"):
                group = None
                self.print_entries(menu)
                continue
            try:
                if text.isdigit():
                    n = int(text)
                    entry = next((e for e in (group if group is not None else menu) if e.number == n), None)
                    if entry is None:
                        raise _Refusal(self.r.text("ui.no_choice", n=n))
                    if group is None and len(entry.actions) > 1:
                        print_markup(self.console, self.r.text("ui.choose_in_group", group=Markup(entry.label)))
                        group = numbers.group(entry, self.label(view))
                        self.print_entries(group)
                        continue
                    action = entry.actions[0]
                else:
                    try:
                        action = self.state.parse_action(text, seat)
                    except NotationError:
                        raise _Refusal(self.r.text("ui.unreadable", text=text)) from None
                    if action not in legal:
                        raise _Refusal(self.r.text("ui.not_legal", action=text))
                self.state.apply(action)
            except _Refusal as exc:
                print_markup(self.console, f"[red]{escape(str(exc))}[/red]")
                continue
            except IllegalActionError as exc:
                print_markup(self.console, f"[red]{escape(exc.text(self.r.lang))}[/red]")
                continue
            self.numbering[seat] = (decision, self.state.steps, numbers)
            return

    # ----- the game loop --------------------------------------------------------------------
    def run(self) -> None:
        """Play until the game ends (or a person quits: `Quit`)."""
        state = self.state
        while state.outcome is None:
            pend = state.pending
            if pend is None:
                raise RuntimeError(f"{self.game}: the game is not over but nobody is to act")
            mark = state.steps
            for p in pend.players:     # bots act first (and commit first in simultaneous decisions)
                if p in self.agents and p in state.to_act:
                    legal = state.legal_actions(p)
                    if legal:
                        state.apply_unchecked(self.agents[p].act(state.view(p), legal, self.rngs[p]))
            for p in pend.players:
                if state.outcome is None and p in self.humans and p in state.to_act:
                    legal = state.legal_actions(p)
                    if legal:
                        self.ask(p, legal)
            if state.steps == mark:
                raise RuntimeError(f"{self.game}: players {list(pend.players)} must act but have no legal action")

    def save(self) -> None:
        if self.record is not None:
            write_record(self.record, self.state, self.seed, self.seats)
