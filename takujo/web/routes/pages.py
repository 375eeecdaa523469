"""The pages (lobby, match, replay, Lab), their static files, and the browser client's texts."""
from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from ..errors import client_lang

STATIC = Path(__file__).parent.parent / "static"
FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" '
           'fill="#17483a"/><text x="16" y="23" font-size="20" text-anchor="middle" fill="#fde68a">卓</text></svg>')
router = APIRouter()


def static_files() -> StaticFiles:
    """The front end's files, for ``/static`` (plain ES modules and CSS: no build step)."""
    return StaticFiles(directory=STATIC)


@router.get("/api/ui", summary="The browser client's texts in one language")
def ui_texts(lang: str | None = None) -> dict[str, str]:
    return client_texts(client_lang(lang))


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    return Response(FAVICON, media_type="image/svg+xml")


@router.get("/", include_in_schema=False)
def lobby_page() -> FileResponse:
    return FileResponse(STATIC / "lobby.html")


@router.get("/match/{match_id}", include_in_schema=False)
def match_page(match_id: str) -> FileResponse:
    return FileResponse(STATIC / "match.html")


@router.get("/replay/{key}", include_in_schema=False)
def replay_page(key: str) -> FileResponse:
    return FileResponse(STATIC / "replay.html")


@router.get("/replay", include_in_schema=False)
def replay_upload_page() -> FileResponse:
    return FileResponse(STATIC / "replay.html")


@router.get("/lab", include_in_schema=False)
def lab_page() -> FileResponse:
    return FileResponse(STATIC / "lab.html")


def client_texts(lang: str) -> dict[str, str]:
    """Every ``ui.web.client.*`` message of present/ui.toml in `lang`, by its last part."""
    from ...present.catalogue import UI_FILE, _cached
    cat = _cached(str(UI_FILE))
    prefix = "ui.web.client."
    return {k[len(prefix):]: cat.template(k, lang) or k for k in cat.ids(prefix)}
