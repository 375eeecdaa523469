"""Playing at a terminal: one or several people and bots around one game.

`TerminalTable` runs a game in which some seats are people (who type at this terminal) and
the others are bots. Each person sees only their own view and the events they may see. When
several people share the terminal, a hand-over screen clears what the previous player saw
before the next one looks. Long menus are grouped (first the card, then its target) with
numbers that stay the same for the same decision. ``? NAME`` shows any card's full text.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from rich.console import Console
from rich.errors import MarkupError
from rich.markup import escape
from rich.text import Text

from .bots import Bot
from .core.action import Action
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


def outcome_text(r: Renderer, outcome: dict[str, Any] | None, viewer: int | None = None) -> str:
    """How a game ended, in the renderer's language."""
    if outcome is None:
        return ""
    winners, reason = outcome["winners"], outcome["reason"]
    scores = (r.text("ui.outcome.scores", scores=", ".join(map(str, outcome["scores"])))
              if outcome.get("scores") else "")
    if not winners:
        return r.text("ui.outcome.none", reason=reason, scores=Markup(scores))
    if len(winners) == 1:
        return r.text("ui.outcome.winner", viewer, winner=winners[0], reason=reason, scores=Markup(scores))
    return r.text("ui.outcome.shared", viewer, winners=winners, reason=reason, scores=Markup(scores))


# ----- menus --------------------------------------------------------------------------------
@dataclass
class MenuEntry:
    """One line of a menu: a single action, or a group of actions sharing verb and first
    argument (a card and its possible targets)."""

    label: str
    actions: list[Action]


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
               count: Callable[[int], str] = lambda n: f"[dim]… {n}[/dim]") -> list[MenuEntry]:
    """The menu of a decision: one entry per action, or, above `MENU_LIMIT`, one entry per
    (verb, first argument) group. The order follows `legal`, so the numbers of the same
    decision never change between two looks. `count(n)` labels a group of n choices."""
    if len(legal) <= MENU_LIMIT:
        return [MenuEntry(label(a), [a]) for a in legal]
    groups: dict[tuple[str, Any], list[Action]] = {}
    for a in legal:
        groups.setdefault((a.verb, a.args[0] if a.args else None), []).append(a)
    if len(groups) == len(legal):
        return [MenuEntry(label(a), [a]) for a in legal]
    entries = []
    for (verb, first), actions in groups.items():
        if len(actions) == 1:
            entries.append(MenuEntry(label(actions[0]), actions))
            continue
        shared = _common_prefix([plain(label(a)) for a in actions])
        name = escape(shared) if shared else escape(f"{verb} {first}")
        entries.append(MenuEntry(f"{name} {count(len(actions))}", actions))
    return entries


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
        for i, entry in enumerate(menu, 1):
            extra = ""
            if len(entry.actions) == 1:
                text = str(entry.actions[0])
                extra = f"  [dim]({escape(text)})[/dim]" if plain(entry.label) != text else ""
            print_markup(self.console, f"  [bold]{i:>2}[/bold]. {entry.label}{extra}")

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
        """Ask `seat` for an action until a legal one is given, and apply it."""
        self.hand_over(seat)
        view = self.show_log(seat)
        menu = build_menu(legal, self.label(view), lambda n: self.r.text("ui.group_choices", n=n))
        self.show_menu(seat, view, menu)
        group: MenuEntry | None = None
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
                choices = group.actions if group is not None else None
                if text.isdigit():
                    n = int(text)
                    options = choices if choices is not None else menu
                    if not 1 <= n <= len(options):
                        raise _Refusal(self.r.text("ui.no_choice", n=n, last=len(options)))
                    if choices is not None:
                        action = choices[n - 1]
                    elif len(menu[n - 1].actions) > 1:
                        group = menu[n - 1]
                        print_markup(self.console, self.r.text("ui.choose_in_group", group=Markup(group.label)))
                        self.print_entries([MenuEntry(self.label(view)(a), [a]) for a in group.actions])
                        continue
                    else:
                        action = menu[n - 1].actions[0]
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
