"""The web app: the public API (documented at /docs), the WebSocket, and the pages.

    uvicorn "takujo.web.app:create_app" --factory     # or: takujo serve

Every payload sent to a seat is built from that seat's view and event stream only
(`takujo.web.payload`); errors are JSON bodies that say what was wrong, in the client's
language, and never carry a stack trace or a file's contents.
"""
from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, AsyncIterator, Literal

from fastapi import Body, FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..core.errors import (IllegalActionError, NotSupportedError, OptionError, RecordError,
                           StaleActionError, TakujoError)
from ..core.registry import game_class, names
from ..present.catalogue import option_help, ui_text
from ..present.language import parse_language
from .replays import MAX_RECORD_BYTES, Replay, ReplayShelf, parse_record_text
from .service import (Forbidden, MatchService, NotFound, Watcher, file_options, value_prefixes,
                      viewer_seat)
from .store import Store

STATIC = Path(__file__).with_name("static")
#: The largest request body (a decklist or a record upload is the largest thing sent) and
#: the largest WebSocket message a client may send.
MAX_BODY = MAX_RECORD_BYTES + 4096
MAX_WS_MESSAGE = 16 * 1024
MAX_DECKLIST = 64 * 1024
FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" '
           'fill="#17483a"/><text x="16" y="23" font-size="20" text-anchor="middle" fill="#fde68a">卓</text></svg>')
log = logging.getLogger("takujo.web")


# ----- request and response models ---------------------------------------------------------
class CreateMatch(BaseModel):
    """A new match: the game string, one entry a seat, and optionally the seed."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=400, examples=["fuutei(players=3)"])
    seats: list[str] = Field(min_length=1, max_length=8, examples=[["human", "bot:heuristic", "bot:ismcts:200"]])
    seed: int | None = Field(None, ge=0, lt=2**53)
    idle_limit: float | None = Field(None, description="seconds a person may stay idle on their turn before "
                                                       "the others may hand their seat to a bot")


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int | None = Field(None, description="the version the action was chosen at (409 if stale)")
    action: str = Field(max_length=200, examples=["play 23"])


class DecklistUpload(BaseModel):
    """A decklist's text (e.g. a file saved by ``takujo deck show``), for the game named."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, examples=["sengoku_taisen"])
    text: str = Field(max_length=MAX_DECKLIST, examples=["name: mine\nokugi: AO-OG\n4 AO-01\n…"])


class ErrorBody(BaseModel):
    error: dict[str, Any]


ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "missing or wrong token, or a seat that may not do this"},
    404: {"model": ErrorBody, "description": "no such match"},
    409: {"model": ErrorBody, "description": "stale version: someone acted in between"},
    422: {"model": ErrorBody, "description": "an illegal or unreadable action, or bad options"},
}


# ----- helpers ------------------------------------------------------------------------------
def _lang(request_lang: str | None, accept: str | None = None) -> str:
    if request_lang:
        try:
            return parse_language(request_lang)
        except OptionError:
            return "en"
    if accept and accept.strip().lower().startswith("ja"):
        return "ja"
    return "en"


def _token(authorization: str | None, token: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return token or None


def _error(status: int, code: str, message: str, msg_id: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"status": status, "code": code, "message": message, "id": msg_id}},
                        status_code=status)


def _status(exc: TakujoError) -> tuple[int, str]:
    if isinstance(exc, Forbidden):
        return 403, "forbidden"
    if isinstance(exc, NotFound):
        return 404, "not_found"
    if isinstance(exc, StaleActionError):
        return 409, "stale"
    if isinstance(exc, IllegalActionError):
        from .match import NotYourTurn
        return (403, "not_your_turn") if isinstance(exc, NotYourTurn) else (422, "illegal")
    if isinstance(exc, (OptionError, RecordError, NotSupportedError)):
        return 422, "bad_request"
    return 422, "bad_request"


def _request_lang(request: Request) -> str:
    return _lang(request.query_params.get("lang"), request.headers.get("accept-language"))


class BodyLimit:
    """Refuses request bodies larger than `limit` bytes (413) before they are read whole."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _error(413, "too_large", f"request body over {self.limit} bytes")(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _error(413, "too_large", f"request body over {self.limit} bytes")(scope, receive, send)


class _TooLarge(Exception):
    pass


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
    import re
    return re.sub(r"(token=)[^&\s\"']+", r"\1***", text)


# ----- the app ------------------------------------------------------------------------------
def create_app(db: Path | str = ":memory:", *, bot_delay: float = 0.0, bot_workers: int | None = None) -> FastAPI:
    """The web app on the SQLite database `db` (its matches resume when it starts)."""
    store = Store(db)
    service = MatchService(store, bot_delay=bot_delay, bot_workers=bot_workers)
    shelf = ReplayShelf()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        for name in ("uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).addFilter(RedactTokens())
        resumed = service.resume()
        if resumed:
            log.info("resumed %d matches", resumed)
        service.start_bots()
        yield
        await service.close()
        store.close()

    app = FastAPI(title="takujo", version=__version__, lifespan=lifespan,
                  description="Play takujo's games over HTTP and WebSockets: create a match, act with "
                              "your seat's token, watch its state. Every payload holds only what the "
                              "seat may see.")
    app.state.service = service
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(_NoReferrer)

    @app.exception_handler(TakujoError)
    async def engine_error(request: Request, exc: TakujoError) -> JSONResponse:
        status, code = _status(exc)
        return _error(status, code, exc.text(_request_lang(request)), exc.message_id)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        from ..core.validation import field_name, problem
        lang = _request_lang(request)
        problems = [f"{field_name(e, 'body')}: {problem(e).text(lang)}" for e in exc.errors()]
        return _error(422, "bad_request", "; ".join(problems))

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s", request.url.path)
        return _error(500, "internal", ui_text("ui.web.internal", _request_lang(request)))

    # ----- the interface's texts -------------------------------------------------------
    @app.get("/api/ui", summary="The browser client's texts in one language")
    def ui_texts(lang: str | None = None) -> dict[str, str]:
        return client_texts(_lang(lang))

    # ----- games --------------------------------------------------------------------
    @app.get("/api/games", summary="The games this server plays, with their options")
    def games(lang: str | None = None) -> list[dict[str, Any]]:
        out = []
        for name in names():
            cls = game_class(name)
            schema = cls.Options.model_json_schema()
            files = file_options(cls)
            props = {k: v for k, v in schema.get("properties", {}).items() if k not in files or files[k]}
            for k in props:
                props[k] = {**props[k], "description": option_help(cls, k, _lang(lang))}
                if k in files:
                    props[k] = {**props[k], "enum": ["", *files[k]] if props[k].get("default") == "" else files[k]}
                    if value_prefixes(cls, k):
                        props[k]["upload"] = True  # a decklist may be uploaded: POST /api/decklists
            players = schema["properties"]["players"]
            out.append({"name": name, "title": _title(cls, lang), "title_ja": _title(cls, "ja"),
                        "title_en": _title(cls, "en"),
                        "players": {"min": players.get("minimum", 2), "max": players.get("maximum", 8),
                                    "default": players.get("default")},
                        "options": props, "bots": _bots(cls)})
        return out

    @app.get("/api/games/{name}/catalogue", summary="Every card, square or province of a game, in both languages")
    def catalogue(name: str) -> Any:
        if name not in names():  # a name, never a game string (which could name server files)
            raise NotFound("web.no_game", name=name[:40])
        return _catalogue(name)

    @app.post("/api/decklists", responses=ERRORS,
              summary="Check an uploaded decklist; its deck code is the value of a deck option")
    def decklist(body: DecklistUpload) -> dict[str, Any]:
        return {"game": body.game, "deck": game_class(body.game).deck_from_text(body.text)}

    # ----- matches ------------------------------------------------------------------
    def seat_links(request: Request, match_id: str, tokens: dict[int, str], seats: list[str]) -> list[dict[str, Any]]:
        base = str(request.base_url).rstrip("/")
        out = []
        for i, kind in enumerate(seats):
            row: dict[str, Any] = {"seat": i, "kind": "human" if kind == "human" else "bot"}
            if i in tokens:
                row["token"] = tokens[i]
                row["join_url"] = f"{base}/match/{match_id}?token={tokens[i]}"
            else:
                row["bot"] = kind[4:]
            out.append(row)
        return out

    @app.post("/api/matches", status_code=201, responses=ERRORS, summary="Create a match")
    async def create(request: Request, body: CreateMatch) -> dict[str, Any]:
        match, tokens = service.create(body.game, body.seats, body.seed, body.idle_limit)
        base = str(request.base_url).rstrip("/")
        return {"match": match.id, "game": str(match.game), "seed": match.seed,
                "seats": seat_links(request, match.id, tokens, body.seats),
                "spectate_url": f"{base}/match/{match.id}"}

    @app.get("/api/matches", summary="Every match: open, running and finished")
    def list_matches(status: Literal["running", "finished"] | None = None) -> list[dict[str, Any]]:
        rows = [m.summary() for m in service.matches.values() if status is None or m.status == status]
        return sorted(rows, key=lambda r: -r["created"])

    @app.get("/api/matches/{match_id}", responses=ERRORS, summary="A match's public summary")
    def summary(match_id: str) -> dict[str, Any]:
        return service.get(match_id).summary()

    @app.get("/api/matches/{match_id}/catalogue", responses=ERRORS,
             summary="The cards of this match's game (its decks and options), in both languages")
    def match_catalogue(match_id: str) -> Any:
        return _catalogue(str(service.get(match_id).game))

    @app.get("/api/matches/{match_id}/state", responses=ERRORS,
             summary="The state for your seat (with its token), or the spectator's")
    def state(match_id: str, request: Request, since: Annotated[int | None, Query(ge=0)] = None,
              token: str | None = None, authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        match = service.get(match_id)
        seat = viewer_seat(match, _token(authorization, token))
        return service.payload(match, seat, _request_lang(request), since)

    @app.post("/api/matches/{match_id}/actions", responses=ERRORS, summary="Play an action")
    async def act(match_id: str, request: Request, body: ActionRequest, token: str | None = None,
                  authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        match, seat = await service.act(match_id, _token(authorization, token), body.action, body.version)
        return service.payload(match, seat, _request_lang(request))

    @app.post("/api/matches/{match_id}/undo", responses=ERRORS, summary="Take back your last action")
    async def undo(match_id: str, request: Request, token: str | None = None,
                   authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        tok = _token(authorization, token)
        match = await service.undo(match_id, tok)
        return service.payload(match, match.seat_of(tok), _request_lang(request))

    @app.post("/api/matches/{match_id}/seats/{seat}/stand-in", responses=ERRORS,
              summary="Hand an idle person's seat to a bot (another seat's token)")
    async def stand_in(match_id: str, seat: int, token: str | None = None,
                       authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return (await service.stand_in(match_id, _token(authorization, token), seat)).summary()

    @app.post("/api/matches/{match_id}/seats/return", responses=ERRORS,
              summary="Take your seat back from the bot that played it")
    async def take_back(match_id: str, token: str | None = None,
                        authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return (await service.take_back(match_id, _token(authorization, token))).summary()

    @app.post("/api/matches/{match_id}/rematch", responses=ERRORS,
              summary="The rematch of a finished match, and your seat's token in it")
    async def rematch(match_id: str, request: Request, token: str | None = None,
                authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        new, seat, tok = service.rematch(match_id, _token(authorization, token))
        base = str(request.base_url).rstrip("/")
        return {"match": new.id, "seat": seat, "token": tok, "join_url": f"{base}/match/{new.id}?token={tok}"}

    @app.get("/api/matches/{match_id}/record", responses=ERRORS,
             summary="The JSONL record: redacted for your seat while the game runs, whole once it is over")
    def record(match_id: str, token: str | None = None,
               authorization: Annotated[str | None, Header()] = None) -> Response:
        match = service.get(match_id)
        seat = viewer_seat(match, _token(authorization, token))
        body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in match.record(seat))
        return PlainTextResponse(body, media_type="application/x-ndjson",
                                 headers={"content-disposition": f'attachment; filename="{match.id}.jsonl"'})

    # ----- replays ------------------------------------------------------------------
    @app.post("/api/replays", status_code=201, responses=ERRORS, summary="Open an uploaded record in the replay viewer")
    def upload_replay(text: Annotated[str, Body(media_type="text/plain", max_length=MAX_RECORD_BYTES)]) -> dict[str, Any]:
        replay = Replay(parse_record_text(text), "record")
        key = shelf.add(replay)
        return {"replay": key, "game": str(replay.game), "steps": replay.steps, "players": replay.game.players}

    @app.get("/api/replays/{key}/catalogue", responses=ERRORS, summary="The cards of a replay's game")
    def replay_catalogue(key: str) -> Any:
        replay = shelf.get(key)
        if replay is None and key in service.matches:
            return _catalogue(str(service.matches[key].game))
        if replay is None:
            raise NotFound("web.no_replay", replay=key[:40])
        return _catalogue(str(replay.game))

    @app.get("/api/replays/{key}", responses=ERRORS, summary="One step of a replay from a seat's point of view")
    def replay_step(key: str, request: Request, step: Annotated[int, Query(ge=0)] = 0,
                    seat: int | None = None) -> dict[str, Any]:
        replay = shelf.get(key)
        if replay is None and key in service.matches:
            match = service.matches[key]
            if match.status != "finished":
                raise Forbidden("web.replay_running")
            lines = match.record(None)
            replay = Replay(lines, match.id)
            shelf.add(replay, key)
        if replay is None:
            raise NotFound("web.no_replay", replay=key[:40])
        if seat is not None and not 0 <= seat < replay.game.players:
            raise NotFound("web.no_seat", seat=seat)
        return replay.payload(step, seat, _request_lang(request))

    # ----- the WebSocket --------------------------------------------------------------
    @app.websocket("/ws/matches/{match_id}")
    async def watch(ws: WebSocket, match_id: str, token: str | None = None, lang: str | None = None) -> None:
        await ws.accept()
        language = _lang(lang)
        try:
            match = service.get(match_id)
        except NotFound as exc:
            await ws.send_json({"type": "error", "status": 404, "message": exc.text(language)})
            await ws.close(code=4404)
            return
        try:
            seat = viewer_seat(match, token)
        except Forbidden as exc:
            await ws.send_json({"type": "error", "status": 403, "message": exc.text(language)})
            await ws.close(code=4403)
            return
        watcher = Watcher(seat=seat, lang=language, send=ws.send_json, token=token if seat is not None else None)
        service.watch(match, watcher)
        sender = asyncio.get_running_loop().create_task(service.send_changes(match, watcher))
        try:
            service.notify(match)  # everyone sees who is connected (this watcher its first state)
            while True:
                raw = await ws.receive_text()
                if len(raw) > MAX_WS_MESSAGE:
                    await ws.send_json({"type": "error", "status": 413, "message": "message too large"})
                    continue
                await _ws_message(ws, watcher, match, raw)
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            service.unwatch(match, watcher)

    async def _ws_message(ws: WebSocket, watcher: Watcher, match: Any, raw: str) -> None:
        try:
            msg = json.loads(raw)
            if not isinstance(msg, dict):
                raise ValueError
        except ValueError:
            await ws.send_json({"type": "error", "status": 422, "message": "not a JSON object"})
            return
        kind = msg.get("type")
        try:
            if kind == "lang":
                watcher.lang = _lang(str(msg.get("lang", "")))
                watcher.cursor = None
                watcher.wake.set()
            elif kind == "act":
                version = msg.get("version")
                await service.act(match.id, watcher.token, str(msg.get("action", ""))[:200],
                                  version if type(version) is int else None)
            elif kind == "undo":
                await service.undo(match.id, watcher.token)
            elif kind == "refresh":
                watcher.cursor = None
                watcher.wake.set()
            else:
                await ws.send_json({"type": "error", "status": 422, "message": "unknown message type"})
        except TakujoError as exc:
            status, code = _status(exc)
            await ws.send_json({"type": "error", "status": status, "code": code,
                                "message": exc.text(watcher.lang), "id": exc.message_id})

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

    return app


@lru_cache(maxsize=64)
def _catalogue(spec: str) -> Any:
    """A configured game's card catalogue (the instances of its own decks)."""
    from ..core.registry import load
    return load(spec).export_catalogue()


def client_texts(lang: str) -> dict[str, str]:
    """Every ``ui.web.client.*`` message of present/ui.toml in `lang`, by its last part."""
    from ..present.catalogue import UI_FILE, _cached
    cat = _cached(str(UI_FILE))
    prefix = "ui.web.client."
    return {k[len(prefix):]: cat.template(k, lang) or k for k in cat.ids(prefix)}


def _title(cls: type, lang: str | None) -> str:
    from ..present import Renderer
    from ..sim import make_game
    try:
        return Renderer(make_game(cls.name, None, {}), _lang(lang), markup=False).title()  # type: ignore[attr-defined]
    except TakujoError:
        return str(getattr(cls, "title", cls.name))  # type: ignore[attr-defined]


def _bots(cls: type) -> list[str]:
    levels = ["random"]
    try:
        from ..sim import make_game
        make_game(cls.name, None, {}).heuristic_bot()  # type: ignore[attr-defined]
        levels.append("heuristic")
    except (NotImplementedError, TakujoError):
        pass
    return levels + ["ismcts:200", "ismcts:1000"]
