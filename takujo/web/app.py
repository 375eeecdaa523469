"""The web app: the public API (documented at /docs), the WebSocket, and the pages.

    uvicorn "takujo.web.app:create_app" --factory     # or: takujo serve

Every payload sent to a seat is built from that seat's view and event stream only
(`takujo.web.payload`); errors are JSON bodies that say what was wrong, in the client's
language, and never carry a stack trace or a file's contents (`takujo.web.errors`). Every
value from a client is typed and checked at the edge (`takujo.web.checks`), and every route
counts against a rate limit per client address (`takujo.web.ratelimit`).
"""
from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, AsyncIterator, Callable, Literal

from fastapi import Body, Depends, FastAPI, Header, Query, Request, WebSocket
from fastapi import Path as FPath
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..core.errors import OptionError, TakujoError
from ..core.registry import game_class, names
from ..present.catalogue import option_help
from ..present.howto import how_to_play, option_words, value_key
from .clocks import PROFILES, ClockRules
from .checks import MATCH_ID, client_name, client_player, file_options, value_prefixes
from .docs_page import install_docs
from .lab import ExperimentRequest, Lab
from .cardsets import MAX_SET_BYTES, builtin_text, problems_of, set_options
from .errors import BodyLimit, client_lang, engine_error_body, install_error_handlers, request_lang
from .health import install_health
from .metrics import Metrics, install_metrics
from .ratelimit import RateLimiter
from .replays import MAX_RECORD_BYTES, Replay, ReplayShelf, uploaded_record
from .service import Forbidden, MatchService, NotFound, viewer_seat
from .settings import Settings
from .sockets import MAX_WS_MESSAGE, SocketCounts, serve_socket
from .store import Store, open_store

STATIC = Path(__file__).with_name("static")
#: The largest request body (a decklist or a record upload is the largest thing sent).
MAX_BODY = MAX_RECORD_BYTES + 4096
MAX_DECKLIST = 64 * 1024
FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" '
           'fill="#17483a"/><text x="16" y="23" font-size="20" text-anchor="middle" fill="#fde68a">卓</text></svg>')
log = logging.getLogger("takujo.web")
__all__ = ["create_app", "MAX_BODY", "MAX_WS_MESSAGE"]


# ----- request and response models ---------------------------------------------------------
#: A browser's player key (a random secret it keeps, linking its seats: "Your games").
PlayerKey = Annotated[str | None, Header(alias="X-Takujo-Player", max_length=200)]


def need_player(key: str | None) -> str:
    """The hash of a required player key."""
    player = client_player(key)
    if player is None:
        raise OptionError("web.no_player_key")
    return player


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


class NameRequest(BaseModel):
    """A display name (any script, up to 24 characters)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=100, examples=["Hanako"])


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: StrictInt | None = Field(None, description="the version the action was chosen at (409 if stale); "
                                                        "a JSON integer")
    action: str = Field(max_length=200, examples=["play 23"])


class DecklistUpload(BaseModel):
    """A decklist's text (e.g. a file saved by ``takujo deck show``), for the game named."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, examples=["sengoku_taisen"])
    text: str = Field(max_length=MAX_DECKLIST, examples=["name: mine\nokugi: AO-OG\n4 AO-01\n…"])


class CardSetUpload(BaseModel):
    """A card file's text for one option of a game (the project's TOML card format)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, examples=["fuutei"])
    option: str = Field(max_length=40, examples=["cards"], description="the option it is for: cards, content or board")
    title: str = Field("", max_length=200, examples=["my balance patch"])
    text: str = Field(max_length=MAX_SET_BYTES + 1, description="the file's text (TOML), at most 512 KB")


class ErrorBody(BaseModel):
    error: dict[str, Any]


ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "missing or wrong token, or a seat that may not do this"},
    404: {"model": ErrorBody, "description": "no such match"},
    409: {"model": ErrorBody, "description": "stale version: someone acted in between"},
    422: {"model": ErrorBody, "description": "an illegal or unreadable action, or bad options"},
    429: {"model": ErrorBody, "description": "too many requests from this address (see Retry-After)"},
}


# ----- helpers ------------------------------------------------------------------------------
def _token(authorization: str | None, token: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return token or None


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


class _NoReferrer:
    """Pages carry seat tokens in their address: never pass them on as a referrer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"referrer-policy", b"no-referrer"))
                headers.append((b"x-content-type-options", b"nosniff"))
                message["headers"] = headers
            await send(message)
        await self.app(scope, receive, sending if scope["type"] == "http" else send)


class RedactTokens(logging.Filter):
    """Access logs never show a token: ``token=...`` in a logged address becomes ``token=***``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args and isinstance(record.args, tuple):
            record.args = tuple(_redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = _redact(record.msg)
        return True


def _redact(text: str) -> str:
    return re.sub(r"(token=)[^&\s\"']+", r"\1***", text)


def _address(request: HTTPConnection) -> str:
    return request.client.host if request.client else "?"


# ----- the app ------------------------------------------------------------------------------
def create_app(db: Path | str = ":memory:", *, settings: Settings | None = None, bot_delay: float | None = None,
               bot_workers: int | None = None, store: Store | None = None) -> FastAPI:
    """The web app on the database `db`: a SQLite file, or a ``postgresql://`` address that
    several server processes may share. Matches are loaded from it as they are used."""
    settings = settings or Settings()
    if bot_delay is not None or bot_workers is not None:
        from dataclasses import replace
        settings = replace(settings, bot_delay=bot_delay if bot_delay is not None else settings.bot_delay,
                           bot_workers=bot_workers if bot_workers is not None else settings.bot_workers)
    metrics = Metrics()
    service = MatchService(store or open_store(db), settings, metrics)
    limiter = RateLimiter(settings.limits)
    sockets = SocketCounts()
    shelf = ReplayShelf()
    lab = Lab(lab_folder(settings, db), settings.operator_token, settings.lab_slots, settings.bot_levels)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for name in ("uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).addFilter(RedactTokens())
        await service.start()

        async def expire_counts() -> None:
            while True:
                await asyncio.sleep(10)
                limiter.expire()
        expiring = asyncio.get_running_loop().create_task(expire_counts())
        yield
        expiring.cancel()
        lab.close()
        await service.close()

    async def count_request(request: HTTPConnection) -> None:
        if request.scope["type"] == "http":  # sockets count against their own limits
            limiter.hit("requests", _address(request))
        metrics.bot_queue.set(service.bot_queue())

    def limited(kind: str) -> Callable[[Request], None]:
        def check(request: Request) -> None:
            limiter.hit(kind, _address(request))
        return check

    app = FastAPI(title="takujo", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  dependencies=[Depends(count_request)],
                  description="Play takujo's games over HTTP and WebSockets: create a match, act with "
                              "your seat's token, watch its state. Every payload holds only what the "
                              "seat may see. Errors are `{\"error\": {status, code, message, id}}`; "
                              "requests are rate-limited per address (429 with Retry-After).")
    app.state.service = service
    app.state.metrics = metrics
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(_NoReferrer)
    install_error_handlers(app)
    install_metrics(app, metrics)
    install_docs(app)

    async def health() -> dict[str, Any]:
        await service.store.ping()
        return {"store": "ok", "live_matches": len(service.matches)}
    install_health(app, health)

    # ----- the interface's texts -------------------------------------------------------
    @app.get("/api/ui", summary="The browser client's texts in one language")
    def ui_texts(lang: str | None = None) -> dict[str, str]:
        return client_texts(client_lang(lang))

    # ----- games --------------------------------------------------------------------
    @app.get("/api/games", summary="The games this server plays, with their options and bot levels")
    def games(lang: str | None = None) -> list[dict[str, Any]]:
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

    # ----- card sets -----------------------------------------------------------------
    def refused_set(exc: TakujoError, lang: str) -> JSONResponse:
        body = engine_error_body(exc, lang)
        return JSONResponse({"error": {**body, "problems": problems_of(exc, lang)}}, status_code=body["status"])

    @app.post("/api/cardsets/check", responses=ERRORS, dependencies=[Depends(limited("checks"))],
              summary="Check a card file for a game's option (nothing is kept): what it holds, or every problem")
    def check_card_set(body: CardSetUpload, request: Request) -> Any:
        try:
            return {"ok": True, **service.cardsets.check(body.game, body.option, body.text)}
        except TakujoError as exc:
            return refused_set(exc, request_lang(request))

    @app.post("/api/cardsets", status_code=201, responses=ERRORS, dependencies=[Depends(limited("uploads"))],
              summary="Upload a card set: checked by the game's loader, kept by the hash of its text")
    async def upload_card_set(body: CardSetUpload, request: Request, player: PlayerKey = None) -> Any:
        try:
            kept, checked = await service.cardsets.upload(body.game, body.option, body.title, body.text,
                                                          client_player(player))
        except TakujoError as exc:
            return refused_set(exc, request_lang(request))
        return {**kept.to_json(), "game_string": checked["game_string"], "cards": checked["cards"]}

    @app.get("/api/cardsets/{name}", responses=ERRORS, summary="An uploaded card set, with its text")
    async def get_card_set(name: Annotated[str, FPath(max_length=80)]) -> Any:
        return (await service.cardsets.get(name)).to_json(with_text=True)

    @app.get("/api/cardsets/{name}/file", responses=ERRORS, summary="An uploaded card set's text, as a file")
    async def download_card_set(name: Annotated[str, FPath(max_length=80)]) -> PlainTextResponse:
        found = await service.cardsets.get(name)
        return PlainTextResponse(found.text, media_type="application/toml",
                                 headers={"Content-Disposition": f'attachment; filename="{found.game}-{found.name[4:16]}.toml"'})

    @app.get("/api/games/{name}/builtin/{option}", responses=ERRORS,
             summary="The text of a game's built-in card file for an option (where a designer starts)")
    def builtin_card_file(name: Annotated[str, FPath(max_length=40)], option: Annotated[str, FPath(max_length=40)]) -> PlainTextResponse:
        if name not in names():
            raise NotFound("web.no_game", name=name[:40])
        return PlainTextResponse(builtin_text(name, option), media_type="application/toml")

    @app.get("/api/me/cardsets", responses=ERRORS, summary="The card sets you uploaded (your player key)")
    async def my_card_sets(player: PlayerKey = None) -> dict[str, Any]:
        return {"sets": [c.to_json() for c in await service.store.card_sets(need_player(player))]}

    @app.get("/api/games/{name}/howto", summary="How to play a game (its default options), in one language")
    def game_howto(name: str, lang: str | None = None) -> Any:
        if name not in names():
            raise NotFound("web.no_game", name=name[:40])
        return how_to_play(service.default_game(name), client_lang(lang))

    @app.get("/api/matches/{match_id}/howto", responses=ERRORS,
             summary="How to play this match's game, with the options chosen for it")
    async def match_howto(match_id: str, request: Request) -> Any:
        return how_to_play((await service.get(match_id)).game, request_lang(request))

    @app.get("/api/games/{name}/catalogue", summary="Every card, square or province of a game, in both languages")
    def catalogue(name: str) -> Any:
        if name not in names():  # a name, never a game string (which could name server files)
            raise NotFound("web.no_game", name=name[:40])
        return _catalogue(name)

    @app.post("/api/decklists", responses=ERRORS, dependencies=[Depends(limited("uploads"))],
              summary="Check an uploaded decklist; its deck code is the value of a deck option")
    def decklist(body: DecklistUpload) -> dict[str, Any]:
        if body.game not in names():
            raise NotFound("web.no_game", name=body.game[:40])
        return {"game": body.game, "deck": game_class(body.game).deck_from_text(body.text)}

    # ----- matches ------------------------------------------------------------------
    def seat_links(request: Request, match_id: str, tokens: dict[int, str], seats: list[str],
                   match: Any = None) -> list[dict[str, Any]]:
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

    @app.post("/api/matches", status_code=201, responses=ERRORS, dependencies=[Depends(limited("create"))],
              summary="Create a match")
    async def create(request: Request, body: CreateMatch, player: PlayerKey = None) -> dict[str, Any]:
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

    @app.get("/api/matches/{match_id}/invites", responses=ERRORS,
             summary="The invite links of a match you created (your player key)")
    async def invites(match_id: str, request: Request, player: PlayerKey = None) -> dict[str, Any]:
        match, tokens = await service.people.invites(match_id, need_player(player))
        kinds = ["human" if s.kind == "human" else f"bot:{s.bot}" for s in match.seats]
        return {"match": match.id, "seats": seat_links(request, match.id, tokens, kinds, match)}

    @app.post("/api/matches/{match_id}/seats/name", responses=ERRORS, dependencies=[Depends(limited("actions"))],
              summary="Give your seat's name (your seat's token), linking it to your player key")
    async def name_seat(match_id: str, body: NameRequest, token: str | None = None, player: PlayerKey = None,
                        authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        match = await service.people.name_seat(match_id, _token(authorization, token), client_name(body.name),
                                               client_player(player))
        return match.summary()

    @app.post("/api/matches/{match_id}/seats/{seat}/join", status_code=201, responses=ERRORS,
              dependencies=[Depends(limited("create"))],
              summary="Take an open seat of a match listed in the lobby; its token")
    async def join_seat(match_id: str, seat: Annotated[int, FPath(ge=0, lt=8)], body: NameRequest, request: Request,
                        player: PlayerKey = None) -> dict[str, Any]:
        match, tok = await service.people.join(match_id, seat, client_name(body.name), client_player(player))
        base = str(request.base_url).rstrip("/")
        return {"match": match.id, "seat": seat, "token": tok, "join_url": f"{base}/match/{match.id}?token={tok}"}

    @app.get("/api/me/matches", responses=ERRORS, summary="Your matches (your player key), newest first")
    async def my_matches(request: Request, player: PlayerKey = None,
                         limit: Annotated[int, Query(ge=1, le=100)] = 50) -> dict[str, Any]:
        base = str(request.base_url).rstrip("/")
        rows = await service.people.matches_of(need_player(player), limit)
        for row in rows:
            for mine in row["mine"]:
                mine["join_url"] = f"{base}/match/{row['match']}?token={mine['token']}"
        return {"matches": rows}

    @app.get("/api/matches", responses=ERRORS, summary="Matches, newest first, a page at a time")
    async def list_matches(status: Literal["running", "finished", "open"] | None = None,
                           game: Annotated[str | None, Query(max_length=40, pattern=r"^[a-z_]+$")] = None,
                           limit: Annotated[int, Query(ge=1, le=1000)] = 50,
                           cursor: Annotated[str | None, Query(max_length=200)] = None) -> dict[str, Any]:
        limit = min(limit, settings.limits.page)
        heads = await service.store.list_matches(status=status, game=game, limit=limit + 1,
                                                 before=decode_cursor(cursor) if cursor else None)
        page = heads[:limit]
        nxt = encode_cursor(page[-1].created, page[-1].id) if len(heads) > limit else None
        return {"matches": await service.summaries(page), "next": nxt}

    @app.get("/api/matches/{match_id}", responses=ERRORS, summary="A match's public summary")
    async def summary(match_id: str) -> dict[str, Any]:
        return (await service.get(match_id)).summary()

    @app.get("/api/matches/{match_id}/catalogue", responses=ERRORS,
             summary="The cards of this match's game (its decks and options), in both languages")
    async def match_catalogue(match_id: str) -> Any:
        return _catalogue_of((await service.get(match_id)).game)

    @app.get("/api/matches/{match_id}/state", responses=ERRORS,
             summary="The state for your seat (with its token), or the spectator's")
    async def state(match_id: str, request: Request, since: Annotated[int | None, Query(ge=0, lt=2**53)] = None,
                    token: str | None = None,
                    authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        match = await service.get(match_id)
        seat = viewer_seat(match, _token(authorization, token))
        return service.payload(match, seat, request_lang(request), since)

    @app.post("/api/matches/{match_id}/actions", responses=ERRORS, dependencies=[Depends(limited("actions"))],
              summary="Play an action")
    async def act(match_id: str, request: Request, body: ActionRequest, token: str | None = None,
                  authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        match, seat = await service.act(match_id, _token(authorization, token), body.action, body.version)
        return service.payload(match, seat, request_lang(request))

    @app.post("/api/matches/{match_id}/undo", responses=ERRORS, dependencies=[Depends(limited("actions"))],
              summary="Take back your last action")
    async def undo(match_id: str, request: Request, token: str | None = None,
                   authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        tok = _token(authorization, token)
        match = await service.undo(match_id, tok)
        return service.payload(match, match.seat_of(tok), request_lang(request))

    @app.post("/api/matches/{match_id}/seats/{seat}/stand-in", responses=ERRORS,
              dependencies=[Depends(limited("actions"))],
              summary="Hand an idle person's seat to a bot (another seat's token)")
    async def stand_in(match_id: str, seat: int,
                       token: str | None = None,
                       authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return (await service.stand_in(match_id, _token(authorization, token), seat)).summary()

    @app.post("/api/matches/{match_id}/seats/return", responses=ERRORS, dependencies=[Depends(limited("actions"))],
              summary="Take your seat back from the bot that played it")
    async def take_back(match_id: str, token: str | None = None,
                        authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return (await service.take_back(match_id, _token(authorization, token))).summary()

    @app.post("/api/matches/{match_id}/rematch", responses=ERRORS, dependencies=[Depends(limited("create"))],
              summary="The rematch of a finished match, and your seat's token in it")
    async def rematch(match_id: str, request: Request, token: str | None = None,
                      authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        new, seat, tok = await service.rematch(match_id, _token(authorization, token))
        base = str(request.base_url).rstrip("/")
        return {"match": new.id, "seat": seat, "token": tok, "join_url": f"{base}/match/{new.id}?token={tok}"}

    @app.get("/api/matches/{match_id}/record", responses=ERRORS,
             summary="The JSONL record: redacted for your seat while the game runs, whole once it is over")
    async def record(match_id: str, token: str | None = None,
                     authorization: Annotated[str | None, Header()] = None) -> Response:
        match = await service.get(match_id)
        seat = viewer_seat(match, _token(authorization, token))
        body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in match.record(seat))
        return PlainTextResponse(body, media_type="application/x-ndjson",
                                 headers={"content-disposition": f'attachment; filename="{match.id}.jsonl"'})

    # ----- replays ------------------------------------------------------------------
    @app.post("/api/replays", status_code=201, responses=ERRORS, dependencies=[Depends(limited("uploads"))],
              summary="Open an uploaded record in the replay viewer")
    def upload_replay(text: Annotated[str, Body(media_type="text/plain", max_length=MAX_RECORD_BYTES)]) -> dict[str, Any]:
        replay = Replay(uploaded_record(text), "record")
        key = shelf.add(replay)
        return {"replay": key, "game": str(replay.game), "steps": replay.steps, "players": replay.game.players}

    async def finished_replay(key: str, request: Request) -> Replay | None:
        """The replay of a finished match `key`, opened on first use (None: no such match);
        opening one replays the whole game, so it counts as an upload against the limits."""
        if not MATCH_ID.fullmatch(key):
            return None
        limiter.hit("uploads", _address(request))
        try:
            match = await service.get(key)
        except NotFound:
            return None
        if match.status != "finished":
            raise Forbidden("web.replay_running")
        replay = Replay(match.record(None), match.id)
        shelf.add(replay, key)
        return replay

    @app.get("/api/replays/{key}/catalogue", responses=ERRORS, summary="The cards of a replay's game")
    async def replay_catalogue(key: str) -> Any:
        replay = shelf.get(key)
        if replay is not None:
            return _catalogue_of(replay.game)
        try:
            return _catalogue_of((await service.get(key)).game)  # a finished match's id
        except NotFound:
            raise NotFound("web.no_replay", replay=key[:40]) from None

    @app.get("/api/replays/{key}", responses=ERRORS, summary="One step of a replay from a seat's point of view")
    async def replay_step(key: str, request: Request, step: Annotated[int, Query(ge=0, lt=2**31)] = 0,
                          seat: Annotated[int | None, Query(ge=0, lt=64)] = None) -> dict[str, Any]:
        replay = shelf.get(key) or await finished_replay(key, request)
        if replay is None:
            raise NotFound("web.no_replay", replay=key[:40])
        if seat is not None and not 0 <= seat < replay.game.players:
            raise NotFound("web.no_seat", seat=seat)
        return replay.payload(step, seat, request_lang(request))

    # ----- the WebSocket --------------------------------------------------------------
    @app.websocket("/ws/matches/{match_id}")
    async def watch(ws: WebSocket, match_id: str, token: str | None = None, lang: str | None = None) -> None:
        await serve_socket(ws, service, limiter, settings.limits, sockets, match_id, token, lang, metrics)

    # ----- pages --------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml")

    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/match/{match_id}", include_in_schema=False)
    def match_page(match_id: str) -> FileResponse:
        return FileResponse(STATIC / "match.html")

    @app.get("/replay/{key}", include_in_schema=False)
    def replay_page(key: str) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/replay", include_in_schema=False)
    def replay_upload_page() -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    # ----- the Lab page: experiments ------------------------------------------------------
    @app.get("/lab", include_in_schema=False)
    def lab_page() -> FileResponse:
        return FileResponse(STATIC / "lab.html")

    @app.get("/api/lab/experiments", summary="The Lab's experiments, newest first (anyone may read them)")
    def experiments(request: Request, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return {"experiments": [e.to_json() for e in lab.list()],
                "operator": lab.operator(_address(request), _token(authorization, None)), "slots": lab.slots}

    @app.post("/api/lab/experiments", status_code=201, responses=ERRORS, dependencies=[Depends(limited("create"))],
              summary="Start an experiment (the operator only: from the server's machine, or with the operator token)")
    async def start_experiment(body: ExperimentRequest, request: Request,
                               authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        if not lab.operator(_address(request), _token(authorization, None)):
            raise Forbidden("web.not_operator")
        if body.kind == "cards":
            await service.cardsets.ensure({f"v{i}": v for i, v in enumerate(body.values) if v})
        return lab.start(body).to_json()

    @app.get("/api/lab/experiments/{exp_id}", responses=ERRORS, summary="An experiment's progress")
    def experiment(exp_id: str) -> dict[str, Any]:
        return lab.get(exp_id).to_json()

    @app.get("/api/lab/experiments/{exp_id}/report", responses=ERRORS, include_in_schema=False)
    def experiment_report(exp_id: str) -> FileResponse:
        path = lab.get(exp_id).report_path()
        if path is None:
            raise NotFound("web.no_experiment", id=exp_id)
        return FileResponse(path, media_type="text/html")

    return app


@lru_cache(maxsize=64)
def _catalogue_of(game: Any) -> Any:
    """The card catalogue of a game the server holds (games are immutable and hash by their
    game string; one with an uploaded card set is not loaded again from its name)."""
    return game.export_catalogue()


@lru_cache(maxsize=64)
def _catalogue(spec: str) -> Any:
    """A configured game's card catalogue (the instances of its own decks)."""
    from ..core.registry import load
    return load(spec).export_catalogue()


def lab_folder(settings: Settings, db: Path | str) -> Path:
    """Where the Lab's experiments are kept: the setting, else beside a SQLite database,
    else in the user's data folder."""
    if settings.lab_dir:
        return Path(settings.lab_dir)
    if isinstance(db, Path) or (isinstance(db, str) and db != ":memory:" and "://" not in db):
        return Path(db).parent / "lab"
    import platformdirs
    return Path(platformdirs.user_data_dir("takujo")) / "lab"


def client_texts(lang: str) -> dict[str, str]:
    """Every ``ui.web.client.*`` message of present/ui.toml in `lang`, by its last part."""
    from ..present.catalogue import UI_FILE, _cached
    cat = _cached(str(UI_FILE))
    prefix = "ui.web.client."
    return {k[len(prefix):]: cat.template(k, lang) or k for k in cat.ids(prefix)}


def _title(cls: type, lang: str | None) -> str:
    from ..present import Renderer
    from ..core.registry import make_game
    try:
        return Renderer(make_game(cls.name, None, {}), client_lang(lang), markup=False).title()  # type: ignore[attr-defined]
    except TakujoError:
        return str(getattr(cls, "title", cls.name))  # type: ignore[attr-defined]
