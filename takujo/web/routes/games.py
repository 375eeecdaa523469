"""The games this server plays: their options and bot levels, how to play them, their cards,
and checking an uploaded decklist."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from ...core import sources
from ...core.errors import TakujoError
from ...core.registry import game_class, load, make_game, names
from ...present import Renderer
from ...present.catalogue import option_help
from ...present.howto import how_to_play, option_words, value_key
from ..cardsets import set_options
from ..checks import file_options, value_prefixes
from ..clocks import PROFILES
from ..errors import client_lang
from ..service import NotFound
from .common import ERRORS, Service, limited

MAX_DECKLIST = 64 * 1024
router = APIRouter()


class DecklistUpload(BaseModel):
    """A decklist's text (e.g. a file saved by ``takujo deck show``), for the game named."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, examples=["sengoku_taisen"])
    text: str = Field(max_length=MAX_DECKLIST, examples=["name: mine\nokugi: AO-OG\n4 AO-01\n…"])
    cards: str | None = Field(None, max_length=68, description="an uploaded card pool (set:…) to check the deck "
                              "against, for a match that plays that pool; default the game's own")


@router.get("/api/games", summary="The games this server plays, with their options and bot levels")
def games(service: Service, lang: str | None = None) -> list[dict[str, Any]]:
    out = []
    for name in names():
        cls = game_class(name)
        schema = cls.Options.model_json_schema()
        files = file_options(cls)
        takes_sets = set_options(name)
        props = {k: v for k, v in schema.get("properties", {}).items()
                 if k not in files or files[k] or k in takes_sets}   # (a kept card set may be chosen)
        words = option_words(cls, client_lang(lang))
        for k in props:
            said = words.get(k)
            props[k] = {**props[k], "description": said["description"] if said else option_help(cls, k, client_lang(lang))}
            if said:   # in words, for people: "Centre regions", "Can be invaded"
                props[k]["label"] = said["label"]
                props[k]["value_labels"] = {value_key(v["value"]): v["label"] for v in said["values"]}
            if k in files:
                props[k] = {**props[k], "enum": ["", *files[k]] if props[k].get("default") == "" else files[k]}
                if value_prefixes(cls, k):
                    props[k]["upload"] = True  # a decklist may be uploaded: POST /api/decklists
        players = schema["properties"]["players"]
        out.append({"name": name, "title": _title(cls, lang), "title_ja": _title(cls, "ja"),
                    "title_en": _title(cls, "en"),
                    "players": {"min": players.get("minimum", 2), "max": players.get("maximum", 8),
                                "default": players.get("default")},
                    "options": props, "bots": service.bot_levels(name), "set_options": set_options(name),
                    "clocks": {k: {"kind": v[0], "initial": v[1], "increment": v[2]} for k, v in PROFILES.items()}})
    return out


@router.get("/api/games/{name}/howto", summary="How to play a game (its default options), in one language")
def game_howto(name: str, service: Service, lang: str | None = None) -> Any:
    if name not in names():
        raise NotFound("web.no_game", name=name[:40])
    return how_to_play(service.default_game(name), client_lang(lang))


@router.get("/api/games/{name}/catalogue", summary="Every card, square or province of a game, in both languages")
def catalogue(name: str) -> Any:
    if name not in names():  # a name, never a game string (which could name server files)
        raise NotFound("web.no_game", name=name[:40])
    return _catalogue(name)


@router.post("/api/decklists", responses=ERRORS, dependencies=[Depends(limited("uploads"))],
             summary="Check an uploaded decklist; its deck code is the value of a deck option")
async def decklist(body: DecklistUpload, service: Service) -> dict[str, Any]:
    if body.game not in names():
        raise NotFound("web.no_game", name=body.game[:40])
    if body.cards is not None:
        if "cards" not in set_options(body.game) or not sources.NAME.fullmatch(body.cards):
            raise NotFound("web.no_card_set", name=body.cards[:20])
        await service.cardsets.ensure({"cards": body.cards})      # a kept set, read from the store
    return {"game": body.game, "deck": game_class(body.game).deck_from_text(body.text, body.cards),
            "cards": body.cards}


@lru_cache(maxsize=64)
def _catalogue(spec: str) -> Any:
    """A configured game's card catalogue (the instances of its own decks)."""
    return load(spec).export_catalogue()


def _title(cls: type, lang: str | None) -> str:
    try:
        return Renderer(make_game(cls.name, None, {}), client_lang(lang), markup=False).title()  # type: ignore[attr-defined]
    except TakujoError:
        return str(getattr(cls, "title", cls.name))  # type: ignore[attr-defined]
