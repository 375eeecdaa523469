"""The web app's routes, one router a resource; `takujo.web.app.create_app` includes them."""
from __future__ import annotations

from fastapi import APIRouter

from . import cardsets, games, lab, matches, pages, replays, seats

#: In the order the API documents them (``/docs``); the pages come last.
ROUTERS: tuple[APIRouter, ...] = (games.router, cardsets.router, matches.router, seats.router, replays.router,
                                  lab.router, pages.router)

__all__ = ["ROUTERS"]
