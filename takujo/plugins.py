"""Extensions loaded at start: modules named by ``TAKUJO_PLUGINS`` (comma-separated), imported
when takujo is, in every process (the server, its bot workers, the lab's), so an extension's
new effect verbs, messages or games are known everywhere. The operator sets it; nothing a
client sends can name a module."""
from __future__ import annotations

import importlib
import os

from .core.errors import OptionError

ENV = "TAKUJO_PLUGINS"


def load_plugins(spec: str | None = None) -> list[str]:
    """Import each module of `spec` (default: the ``TAKUJO_PLUGINS`` environment variable);
    the names imported."""
    spec = os.environ.get(ENV, "") if spec is None else spec
    names = [name.strip() for name in spec.split(",") if name.strip()]
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise OptionError("plugin.missing", module=name, detail=str(exc)) from None
    return names
