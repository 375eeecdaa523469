"""The people at a match's seats: invite links, names, joining an open seat, handing an idle
seat to a bot and taking it back, and a player's own matches."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as FPath
from pydantic import BaseModel, ConfigDict, Field

from ..checks import client_name, client_player
from .common import ERRORS, Authorization, PlayerKey, Service, limited, need_player, token_of

router = APIRouter()


class NameRequest(BaseModel):
    """A display name (any script, up to 24 characters)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=100, examples=["Hanako"])


def seat_links(request: Request, match_id: str, tokens: dict[int, str], seats: list[str],
               match: Any = None) -> list[dict[str, Any]]:
    """Each seat's kind and name, with the token and join link of each person's seat in `tokens`."""
    base = str(request.base_url).rstrip("/")
    out = []
    for i, kind in enumerate(seats):
        row: dict[str, Any] = {"seat": i, "kind": "human" if kind == "human" else "bot",
                               "name": match.seats[i].name if match is not None else None}
        if i in tokens:
            row["token"] = tokens[i]
            row["join_url"] = f"{base}/match/{match_id}?token={tokens[i]}"
        else:
            row["bot"] = kind[4:]
        out.append(row)
    return out


@router.get("/api/matches/{match_id}/invites", responses=ERRORS,
            summary="The invite links of a match you created (your player key)")
async def invites(match_id: str, request: Request, service: Service, player: PlayerKey = None) -> dict[str, Any]:
    match, tokens = await service.people.invites(match_id, need_player(player))
    kinds = ["human" if s.kind == "human" else f"bot:{s.bot}" for s in match.seats]
    return {"match": match.id, "seats": seat_links(request, match.id, tokens, kinds, match)}


@router.post("/api/matches/{match_id}/seats/name", responses=ERRORS, dependencies=[Depends(limited("actions"))],
             summary="Give your seat's name (your seat's token), linking it to your player key")
async def name_seat(match_id: str, body: NameRequest, service: Service, token: str | None = None,
                    player: PlayerKey = None, authorization: Authorization = None) -> dict[str, Any]:
    match = await service.people.name_seat(match_id, token_of(authorization, token), client_name(body.name),
                                           client_player(player))
    return match.summary()


@router.post("/api/matches/{match_id}/seats/{seat}/join", status_code=201, responses=ERRORS,
             dependencies=[Depends(limited("create"))],
             summary="Take an open seat of a match listed in the lobby; its token")
async def join_seat(match_id: str, seat: Annotated[int, FPath(ge=0, lt=8)], body: NameRequest, request: Request,
                    service: Service, player: PlayerKey = None) -> dict[str, Any]:
    match, tok = await service.people.join(match_id, seat, client_name(body.name), client_player(player))
    base = str(request.base_url).rstrip("/")
    return {"match": match.id, "seat": seat, "token": tok, "join_url": f"{base}/match/{match.id}?token={tok}"}


@router.get("/api/me/matches", responses=ERRORS, summary="Your matches (your player key), newest first")
async def my_matches(request: Request, service: Service, player: PlayerKey = None,
                     limit: Annotated[int, Query(ge=1, le=100)] = 50) -> dict[str, Any]:
    base = str(request.base_url).rstrip("/")
    rows = await service.people.matches_of(need_player(player), limit)
    for row in rows:
        for mine in row["mine"]:
            mine["join_url"] = f"{base}/match/{row['match']}?token={mine['token']}"
    return {"matches": rows}


@router.post("/api/matches/{match_id}/seats/{seat}/stand-in", responses=ERRORS,
             dependencies=[Depends(limited("actions"))],
             summary="Hand an idle person's seat to a bot (another seat's token)")
async def stand_in(match_id: str, seat: int, service: Service, token: str | None = None,
                   authorization: Authorization = None) -> dict[str, Any]:
    return (await service.stand_in(match_id, token_of(authorization, token), seat)).summary()


@router.post("/api/matches/{match_id}/seats/return", responses=ERRORS, dependencies=[Depends(limited("actions"))],
             summary="Take your seat back from the bot that played it")
async def take_back(match_id: str, service: Service, token: str | None = None,
                    authorization: Authorization = None) -> dict[str, Any]:
    return (await service.take_back(match_id, token_of(authorization, token))).summary()
