"""Replays: an uploaded record, or a finished match, step by step from any seat's point of view."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request

from ..checks import MATCH_ID
from ..errors import request_lang
from ..ratelimit import RateLimiter
from ..replays import MAX_RECORD_BYTES, Replay, ReplayShelf, uploaded_record
from ..service import Forbidden, MatchService, NotFound
from .common import ERRORS, Limiter, Service, Shelf, address, catalogue_of, limited

router = APIRouter()


@router.post("/api/replays", status_code=201, responses=ERRORS, dependencies=[Depends(limited("uploads"))],
             summary="Open an uploaded record in the replay viewer")
def upload_replay(text: Annotated[str, Body(media_type="text/plain", max_length=MAX_RECORD_BYTES)],
                  shelf: Shelf) -> dict[str, Any]:
    replay = Replay(uploaded_record(text), "record")
    key = shelf.add(replay)
    return {"replay": key, "game": str(replay.game), "steps": replay.steps, "players": replay.game.players}


async def finished_replay(key: str, request: Request, service: MatchService, shelf: ReplayShelf,
                          limiter: RateLimiter) -> Replay | None:
    """The replay of a finished match `key`, opened on first use (None: no such match);
    opening one replays the whole game, so it counts as an upload against the limits."""
    if not MATCH_ID.fullmatch(key):
        return None
    limiter.hit("uploads", address(request))
    try:
        match = await service.get(key)
    except NotFound:
        return None
    if match.status != "finished":
        raise Forbidden("web.replay_running")
    replay = Replay(match.record(None), match.id)
    shelf.add(replay, key)
    return replay


@router.get("/api/replays/{key}/catalogue", responses=ERRORS, summary="The cards of a replay's game")
async def replay_catalogue(key: str, service: Service, shelf: Shelf) -> Any:
    replay = shelf.get(key)
    if replay is not None:
        return catalogue_of(replay.game)
    try:
        return catalogue_of((await service.get(key)).game)  # a finished match's id
    except NotFound:
        raise NotFound("web.no_replay", replay=key[:40]) from None


@router.get("/api/replays/{key}", responses=ERRORS, summary="One step of a replay from a seat's point of view")
async def replay_step(key: str, request: Request, service: Service, shelf: Shelf, limiter: Limiter,
                      step: Annotated[int, Query(ge=0, lt=2**31)] = 0,
                      seat: Annotated[int | None, Query(ge=0, lt=64)] = None) -> dict[str, Any]:
    replay = shelf.get(key) or await finished_replay(key, request, service, shelf, limiter)
    if replay is None:
        raise NotFound("web.no_replay", replay=key[:40])
    if seat is not None and not 0 <= seat < replay.game.players:
        raise NotFound("web.no_seat", seat=seat)
    return replay.payload(step, seat, request_lang(request))
