"""Choosing the interface language: an explicit choice, then TAKUJO_LANG, then the locale."""
from __future__ import annotations

import locale
import os

from ..core.errors import OptionError
from .catalogue import LANGS


def parse_language(text: str) -> str:
    """``"ja"``, ``"en"`` (also ``ja_JP.UTF-8``, ``EN``); other languages are refused."""
    lang = str(text).strip().lower().replace("-", "_").split("_")[0].split(".")[0]
    if lang not in LANGS:
        raise OptionError("language.unknown", text=str(text)[:40], known=list(LANGS))
    return lang


def default_language() -> str:
    """TAKUJO_LANG if set, else the locale's language if it is Japanese, else English."""
    chosen = os.environ.get("TAKUJO_LANG", "").strip()
    if chosen:
        return parse_language(chosen)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "ja" if loc.lower().startswith("ja") else "en"
