"""Messages and their rendering in Japanese and English, for every client.

Events, prompts, action labels and phase names are message IDs with named arguments; each game
declares them in its ``messages.toml`` (beside the game's code), the terminal's own strings are
in ``takujo/present/ui.toml``. One `Renderer` turns an event or an action into text in the
viewer's language, as rich markup or plain text. Records stay language-neutral.
"""
from .catalogue import LANGS, Catalogue, help_text, load_catalogue
from .language import default_language, parse_language
from .outcome import outcome_text
from .render import Markup, Msg, Renderer

__all__ = ["LANGS", "Catalogue", "Markup", "Msg", "Renderer", "default_language", "help_text", "load_catalogue",
           "outcome_text", "parse_language"]
