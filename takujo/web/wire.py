"""JSON text from the server, encoded with orjson (several times faster than the standard
library's encoder on a state object or a snapshot, which are most of what the server writes):
WebSocket messages and the store's snapshots."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from fastapi import WebSocket

#: Integer keys become strings, as the standard library's encoder makes them.
OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(message: Any) -> str:
    """`message` as JSON text."""
    return orjson.dumps(message, option=OPTIONS).decode()


async def send(ws: "WebSocket", message: dict[str, Any]) -> None:
    """Send `message` to `ws` as one JSON text frame."""
    await ws.send_text(dumps(message))
