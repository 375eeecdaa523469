"""The command line's usage errors (an unknown option, a missing argument, a bad value) in
the interface language.

click words these in English; in Japanese, `LocalizedGroup` prints them from the ``ui.usage``
messages of present/ui.toml instead, with the same exit code (2). English keeps typer's
usual rendering.
"""
from __future__ import annotations

import re
import sys
from typing import Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from .core.errors import TakujoError
from .core.validation import problem
from .present.catalogue import ui_text
from .present.language import default_language

#: click's exception classes, wherever this typer takes click from (its own copy since 0.23).
_click = sys.modules[typer.BadParameter.__module__]


def _language() -> str:
    try:
        return default_language()
    except TakujoError:
        return "en"


def _param_name(param: Any, hint: Any = None) -> str:
    if hint:
        return " / ".join(hint) if isinstance(hint, (list, tuple)) else str(hint)
    if param is None:
        return "?"
    opts = getattr(param, "opts", None)
    if opts and getattr(param, "param_type_name", "") == "option":
        return " / ".join(opts)
    return str(getattr(param, "name", None) or "?")


def _detail(exc: Any, lang: str) -> str:
    """A bad value's problem: pydantic's words (typer checks values with it) translated."""
    cause = exc.__cause__
    if isinstance(cause, ValidationError) and cause.errors():
        return problem(cause.errors()[0]).text(lang)
    return str(exc.message)


def usage_message(exc: Any, lang: str) -> str:
    """What is wrong with the command line, in `lang` (plain text)."""
    if isinstance(exc, _click.NoSuchOption):
        if exc.possibilities:
            return ui_text("ui.usage.no_such_option_hint", lang, option=exc.option_name,
                           options=", ".join(sorted(exc.possibilities)))
        return ui_text("ui.usage.no_such_option", lang, option=exc.option_name)
    if isinstance(exc, _click.MissingParameter):
        return ui_text("ui.usage.missing", lang, name=_param_name(exc.param, exc.param_hint))
    if isinstance(exc, _click.BadParameter):
        return ui_text("ui.usage.bad_value", lang, name=_param_name(exc.param, exc.param_hint),
                       detail=_detail(exc, lang))
    if isinstance(exc, _click.BadOptionUsage):
        return ui_text("ui.usage.bad_option", lang, option=exc.option_name, detail=exc.message)
    named = re.match(r"No such command '(.*)'", exc.message)
    if named:
        return ui_text("ui.usage.no_such_command", lang, command=named.group(1))
    return ui_text("ui.usage.other", lang, detail=exc.message)


#: typer's own words on help screens, and the messages that replace them (``ui.usage.*``).
_HELP_WORDS = {"OPTIONS_PANEL_TITLE": "options", "COMMANDS_PANEL_TITLE": "commands",
               "ARGUMENTS_PANEL_TITLE": "arguments", "ERRORS_PANEL_TITLE": "error_panel",
               "DEFAULT_STRING": "default", "REQUIRED_LONG_STRING": "required",
               "ABORTED_TEXT": "aborted"}


def localize_help_screens() -> None:
    """Help screens' panel titles and markers in the interface language (typer's are English)."""
    lang = _language()
    if lang == "en":
        return
    try:
        from typer import rich_utils
    except ImportError:  # typer without rich: plain help, nothing to translate
        return
    for name, key in _HELP_WORDS.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, ui_text(f"ui.usage.{key}", lang, value="{}"))  # typer fills {}


class LocalizedGroup(TyperGroup):
    """typer's command group, with usage errors in Japanese when the interface is."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        lang = _language()
        if lang == "en" or not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)
        try:
            code = super().main(*args, **{**kwargs, "standalone_mode": False})
        except _click.NoArgsIsHelpError as exc:  # a bare command group: its help
            typer.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
            sys.exit(2)
        except _click.UsageError as exc:
            err = Console(stderr=True, highlight=False)
            ctx = exc.ctx
            if ctx is not None:
                err.print(escape(ui_text("ui.usage.usage", lang, usage=ctx.get_usage().split(":", 1)[-1].strip())))
            err.print(f"[red]{escape(ui_text('ui.cli.error', lang, message=usage_message(exc, lang)))}[/red]",
                      soft_wrap=True)
            if ctx is not None:
                err.print(escape(ui_text("ui.usage.try_help", lang, command=ctx.command_path)))
            sys.exit(exc.exit_code)
        except _click.ClickException as exc:
            Console(stderr=True, highlight=False).print(
                f"[red]{escape(ui_text('ui.cli.error', lang, message=exc.format_message()))}[/red]")
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo(ui_text("ui.usage.aborted", lang), err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)
