"""Matches: creating and listing them, a match's summary, cards, rules and state, playing
and taking back actions, the rematch, the record, and watching it over a WebSocket."""
from __future__ import annotations

import base64
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, WebSocket
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from ...core.errors import OptionError
from ...present.howto import how_to_play
from ..checks import MATCH_ID, client_name, client_player
from ..clocks import PROFILES, ClockRules
from ..errors import request_lang
from ..service import viewer_seat
from ..sockets import serve_socket
from .common import (ERRORS, AppMetrics, AppSettings, Authorization, Limiter, PlayerKey, Service, Sockets,
                     catalogue_of, limited, token_of)
from .seats import seat_links

router = APIRouter()


class CreateMatch(BaseModel):
    """A new match: the game string, one entry a seat, and optionally the seed."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=400, examples=["fuutei(players=3)"])
    seats: list[str] = Field(min_length=1, max_length=8, examples=[["human", "bot:heuristic", "bot:ismcts:200"]])
    seed: StrictInt | None = Field(None, ge=0, lt=2**53)
    idle_limit: float | None = Field(None, ge=10, le=7 * 24 * 3600,
                                     description="seconds a person may stay idle on their turn before "
                                                 "the others may hand their seat to a bot")
    name: str | None = Field(None, max_length=100, description="the creator's display name: they take `seat`")
    seat: StrictInt | None = Field(None, ge=0, lt=8, description="the creator's seat (default: the first person's)")
    listed: bool = Field(False, description="offer the open seats in the lobby (else: invite links only)")
    clock: str | None = Field(None, max_length=20, examples=["normal"],
                              description="the seats' clocks: " + ", ".join(PROFILES) + " (default: none)")
    clock_grace: float | None = Field(None, ge=0, le=7 * 86400,
                                      description="seconds past zero after which a seat out of time is handed "
                                                  "to a bot by itself (default: only when the others choose)")


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: StrictInt | None = Field(None, description="the version the action was chosen at (409 if stale); "
                                                        "a JSON integer")
    action: str = Field(max_length=200, examples=["play 23"])


def encode_cursor(created: float, match_id: str) -> str:
    """The opaque position after which the next page of matches starts."""
    return base64.urlsafe_b64encode(f"{created!r}:{match_id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[float, str]:
    try:
        created, _, match_id = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode().partition(":")
        value = float(created)
    except (ValueError, UnicodeDecodeError):
        raise OptionError("web.bad_cursor") from None
    if not MATCH_ID.fullmatch(match_id) or value != value:
        raise OptionError("web.bad_cursor")
    return value, match_id


@router.post("/api/matches", status_code=201, responses=ERRORS, dependencies=[Depends(limited("create"))],
             summary="Create a match")
async def create(request: Request, body: CreateMatch, service: Service, player: PlayerKey = None) -> dict[str, Any]:
    creator = client_player(player)
    names: dict[int, str] = {}
    if body.name is not None:
        seat = body.seat if body.seat is not None else next(
            (i for i, kind in enumerate(body.seats) if kind == "human"), 0)
        if not 0 <= seat < len(body.seats) or body.seats[seat] != "human":
            raise OptionError("web.bad_seat")
        names[seat] = client_name(body.name)
    clock = ClockRules.from_client(body.clock, body.clock_grace)
    match, tokens = await service.create(body.game, body.seats, body.seed, body.idle_limit,
                                         listed=body.listed, creator=creator, names=names,
                                         clock=clock if clock.kind != "none" else None)
    base = str(request.base_url).rstrip("/")
    return {"match": match.id, "game": str(match.game), "seed": match.seed,
            "seats": seat_links(request, match.id, tokens, body.seats, match),
            "spectate_url": f"{base}/match/{match.id}", "your_seat": next(iter(names), None)}


@router.get("/api/matches", responses=ERRORS, summary="Matches, newest first, a page at a time")
async def list_matches(service: Service, settings: AppSettings,
                       status: Literal["running", "finished", "open"] | None = None,
                       game: Annotated[str | None, Query(max_length=40, pattern=r"^[a-z_]+$")] = None,
                       limit: Annotated[int, Query(ge=1, le=1000)] = 50,
                       cursor: Annotated[str | None, Query(max_length=200)] = None) -> dict[str, Any]:
    limit = min(limit, settings.limits.page)
    heads = await service.store.list_matches(status=status, game=game, limit=limit + 1,
                                             before=decode_cursor(cursor) if cursor else None)
    page = heads[:limit]
    nxt = encode_cursor(page[-1].created, page[-1].id) if len(heads) > limit else None
    return {"matches": await service.summaries(page), "next": nxt}


@router.get("/api/matches/{match_id}", responses=ERRORS, summary="A match's public summary")
async def summary(match_id: str, service: Service) -> dict[str, Any]:
    return (await service.get(match_id)).summary()


@router.get("/api/matches/{match_id}/catalogue", responses=ERRORS,
            summary="The cards of this match's game (its decks and options), in both languages")
async def match_catalogue(match_id: str, service: Service) -> Any:
    return catalogue_of((await service.get(match_id)).game)


@router.get("/api/matches/{match_id}/howto", responses=ERRORS,
            summary="How to play this match's game, with the options chosen for it")
async def match_howto(match_id: str, request: Request, service: Service) -> Any:
    return how_to_play((await service.get(match_id)).game, request_lang(request))


@router.get("/api/matches/{match_id}/state", responses=ERRORS,
            summary="The state for your seat (with its token), or the spectator's")
async def state(match_id: str, request: Request, service: Service,
                since: Annotated[int | None, Query(ge=0, lt=2**53)] = None,
                token: str | None = None, authorization: Authorization = None) -> dict[str, Any]:
    match = await service.get(match_id)
    seat = viewer_seat(match, token_of(authorization, token))
    return service.payload(match, seat, request_lang(request), since)


@router.post("/api/matches/{match_id}/actions", responses=ERRORS, dependencies=[Depends(limited("actions"))],
             summary="Play an action")
async def act(match_id: str, request: Request, body: ActionRequest, service: Service, token: str | None = None,
              authorization: Authorization = None) -> dict[str, Any]:
    match, seat = await service.act(match_id, token_of(authorization, token), body.action, body.version)
    return service.payload(match, seat, request_lang(request))


@router.post("/api/matches/{match_id}/undo", responses=ERRORS, dependencies=[Depends(limited("actions"))],
             summary="Take back your last action")
async def undo(match_id: str, request: Request, service: Service, token: str | None = None,
               authorization: Authorization = None) -> dict[str, Any]:
    tok = token_of(authorization, token)
    match = await service.undo(match_id, tok)
    return service.payload(match, match.seat_of(tok), request_lang(request))


@router.post("/api/matches/{match_id}/rematch", responses=ERRORS, dependencies=[Depends(limited("create"))],
             summary="The rematch of a finished match, and your seat's token in it")
async def rematch(match_id: str, request: Request, service: Service, token: str | None = None,
                  authorization: Authorization = None) -> dict[str, Any]:
    new, seat, tok = await service.rematch(match_id, token_of(authorization, token))
    base = str(request.base_url).rstrip("/")
    return {"match": new.id, "seat": seat, "token": tok, "join_url": f"{base}/match/{new.id}?token={tok}"}


@router.get("/api/matches/{match_id}/record", responses=ERRORS,
            summary="The JSONL record: redacted for your seat while the game runs, whole once it is over")
async def record(match_id: str, service: Service, token: str | None = None,
                 authorization: Authorization = None) -> Response:
    match = await service.get(match_id)
    seat = viewer_seat(match, token_of(authorization, token))
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in match.record(seat))
    return PlainTextResponse(body, media_type="application/x-ndjson",
                             headers={"content-disposition": f'attachment; filename="{match.id}.jsonl"'})


@router.websocket("/ws/matches/{match_id}")
async def watch(ws: WebSocket, match_id: str, service: Service, limiter: Limiter, settings: AppSettings,
                sockets: Sockets, metrics: AppMetrics, token: str | None = None, lang: str | None = None) -> None:
    await serve_socket(ws, service, limiter, settings.limits, sockets, match_id, token, lang, metrics)
