"""Card sets from the browser: a designer uploads (or edits) a card file for one option of a
game (`cards`, `content`, `board`), the server checks it with the game's own loader (every
problem named by card and field, in the client's language), keeps it in its database by the
hash of its text (never on a server path), and a match, a replay or an experiment names it
as ``option=set:<hash>`` (`takujo.core.sources`). Sizes and counts are bounded."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..core import sources
from ..core.errors import CardDataError, OptionError, TakujoError
from ..core.registry import game_class, make_game, names
from .checks import file_options, value_prefixes
from .store import CardSet

if TYPE_CHECKING:
    from .service import MatchService

#: The largest card set text (bytes) and title (characters).
MAX_SET_BYTES = 512 * 1024
MAX_TITLE = 60


def set_options(game: str) -> list[str]:
    """The options of a game that take an uploaded card set."""
    cls = game_class(game)
    return [k for k in file_options(cls) if sources.PREFIX in value_prefixes(cls, k)]


def builtin_text(game: str, option: str) -> str:
    """The text of the built-in (stand-in) card file a game uses for `option`: where a
    designer starts from. Only these package files are ever read for a client."""
    from ..games.draft_daimyo import board as dsd_board, cards as dsd_cards
    from ..games.fuutei import cards as ftr_cards
    from ..games.ibara import content as ibr_content
    from ..games.sengoku_taisen import cards as sgt_cards
    files = {("fuutei", "cards"): ftr_cards.CARD_FILE, ("sengoku_taisen", "cards"): sgt_cards.CARD_FILE,
             ("ibara", "content"): ibr_content.CONTENT_FILE, ("draft_daimyo", "cards"): dsd_cards.CARD_FILE,
             ("draft_daimyo", "board"): dsd_board.MAP_FILE}
    path = files.get((game, option))
    if path is None:
        raise OptionError("web.set_option", option=str(option)[:40], options=", ".join(set_options(game))
                          if game in names() else "")
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def problems_of(exc: TakujoError, lang: str) -> list[str]:
    """Each problem of a refused card file as its own line (the loader lists them all)."""
    lines = exc.message_args.get("lines") if isinstance(exc, CardDataError) else None
    if isinstance(lines, (list, tuple)) and lines:
        return [line.text(lang) if isinstance(line, TakujoError) else str(line) for line in lines]
    return [exc.text(lang)]


class CardSets:
    """The card sets of a `MatchService`'s store, and the texts its matches need in memory."""

    def __init__(self, service: "MatchService") -> None:
        self.service = service

    def check(self, game: str, option: str, text: object) -> dict[str, Any]:
        """Check a card file's text for `option` of `game` with the game's loader; what it
        holds. `CardDataError` (every problem) or `OptionError` if it cannot be used."""
        if game not in names():
            raise OptionError("web.no_game", name=str(game)[:40])
        if option not in set_options(game):
            raise OptionError("web.set_option", option=str(option)[:40], options=", ".join(set_options(game)))
        if not isinstance(text, str) or not text.strip():
            raise OptionError("web.empty_set")
        if len(text.encode("utf-8")) > MAX_SET_BYTES:
            raise OptionError("web.set_too_large", kb=MAX_SET_BYTES // 1024)
        held = sources.text_of(sources.name_of(text)) is not None
        name = sources.register(text)
        try:   # loaders cache by the name: a text held only for this check is dropped after it
            built = make_game(game, None, {option: name})
            catalogue = built.export_catalogue()
        finally:
            if not held:
                sources.forget(name)
        return {"set": name, "game": game, "option": option, "game_string": str(built),
                "cards": len(catalogue.get("cards", [])), "stand_in": bool(catalogue.get("stand_in"))}

    async def upload(self, game: str, option: str, title: object, text: object,
                     owner: str | None) -> tuple[CardSet, dict[str, Any]]:
        """Check and keep a card set; the kept set (the same one again if its text was kept
        before) and what the check found in it."""
        checked = self.check(game, option, text)
        assert isinstance(text, str)
        store = self.service.store
        old = await store.card_set(checked["set"])
        if old is not None and (old.owner == owner or owner is None):
            return old, checked  # the same text is the same set (another uploader keeps it too, below)
        if old is None and await store.count_card_sets() >= self.service.settings.limits.card_sets:
            raise OptionError("web.too_many_sets", limit=self.service.settings.limits.card_sets)
        shown = " ".join(str(title or "").split())[:MAX_TITLE] or checked["set"][4:16]
        card_set = CardSet(name=checked["set"], game=game, option=option, title=shown, text=text,
                           size=len(text.encode("utf-8")), created=time.time(), owner=owner)
        await store.add_card_set(card_set)
        return card_set, checked

    async def get(self, name: str) -> CardSet:
        """A kept card set; `NotFound` (404) if there is none by that name."""
        from .service import NotFound
        if not sources.NAME.fullmatch(str(name)):
            raise NotFound("web.no_card_set", name=str(name)[:20])
        found = await self.service.store.card_set(name)
        if found is None:
            raise NotFound("web.no_card_set", name=str(name)[:20])
        return found

    async def ensure(self, options: dict[str, Any]) -> None:
        """Hold in memory the texts of the card sets these game options name (read from the
        store the first time, in this process), so that the game can be loaded."""
        for name in sources.names_in(options):
            if sources.text_of(name) is None:
                sources.register((await self.get(name)).text)
