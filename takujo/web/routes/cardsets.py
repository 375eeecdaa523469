"""Card sets: checking a card file, uploading one (kept by the hash of its text), reading one
back, a game's built-in files to start from, and the sets a player uploaded."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as FPath
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from ...core.errors import TakujoError
from ...core.registry import names
from ..cardsets import MAX_SET_BYTES, builtin_text, problems_of
from ..checks import client_player
from ..errors import engine_error_body, request_lang
from ..service import NotFound
from .common import ERRORS, PlayerKey, Service, limited, need_player

router = APIRouter()


class CardSetUpload(BaseModel):
    """A card file's text for one option of a game (the project's TOML card format)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, examples=["fuutei"])
    option: str = Field(max_length=40, examples=["cards"], description="the option it is for: cards, content or board")
    title: str = Field("", max_length=200, examples=["my balance patch"])
    text: str = Field(max_length=MAX_SET_BYTES + 1, description="the file's text (TOML), at most 512 KB")


def refused_set(exc: TakujoError, lang: str) -> JSONResponse:
    """The error body of a refused card file, with every problem found in it."""
    body = engine_error_body(exc, lang)
    return JSONResponse({"error": {**body, "problems": problems_of(exc, lang)}}, status_code=body["status"])


@router.post("/api/cardsets/check", responses=ERRORS, dependencies=[Depends(limited("checks"))],
             summary="Check a card file for a game's option (nothing is kept): what it holds, or every problem")
def check_card_set(body: CardSetUpload, request: Request, service: Service) -> Any:
    try:
        return {"ok": True, **service.cardsets.check(body.game, body.option, body.text)}
    except TakujoError as exc:
        return refused_set(exc, request_lang(request))


@router.post("/api/cardsets", status_code=201, responses=ERRORS, dependencies=[Depends(limited("uploads"))],
             summary="Upload a card set: checked by the game's loader, kept by the hash of its text")
async def upload_card_set(body: CardSetUpload, request: Request, service: Service, player: PlayerKey = None) -> Any:
    try:
        kept, checked = await service.cardsets.upload(body.game, body.option, body.title, body.text,
                                                      client_player(player))
    except TakujoError as exc:
        return refused_set(exc, request_lang(request))
    return {**kept.to_json(), "game_string": checked["game_string"], "cards": checked["cards"]}


@router.get("/api/cardsets/{name}", responses=ERRORS, summary="An uploaded card set, with its text")
async def get_card_set(name: Annotated[str, FPath(max_length=80)], service: Service) -> Any:
    return (await service.cardsets.get(name)).to_json(with_text=True)


@router.get("/api/cardsets/{name}/file", responses=ERRORS, summary="An uploaded card set's text, as a file")
async def download_card_set(name: Annotated[str, FPath(max_length=80)], service: Service) -> PlainTextResponse:
    found = await service.cardsets.get(name)
    return PlainTextResponse(found.text, media_type="application/toml",
                             headers={"Content-Disposition": f'attachment; filename="{found.game}-{found.name[4:16]}.toml"'})


@router.get("/api/games/{name}/builtin/{option}", responses=ERRORS,
            summary="The text of a game's built-in card file for an option (where a designer starts)")
def builtin_card_file(name: Annotated[str, FPath(max_length=40)],
                      option: Annotated[str, FPath(max_length=40)]) -> PlainTextResponse:
    if name not in names():
        raise NotFound("web.no_game", name=name[:40])
    return PlainTextResponse(builtin_text(name, option), media_type="application/toml")


@router.get("/api/me/cardsets", responses=ERRORS, summary="The card sets you uploaded (your player key)")
async def my_card_sets(service: Service, player: PlayerKey = None) -> dict[str, Any]:
    return {"sets": [c.to_json() for c in await service.store.card_sets(need_player(player))]}
