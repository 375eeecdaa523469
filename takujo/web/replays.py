"""Replays: the states of a finished match or of an uploaded record, step by step, for the
replay viewer (any seat's point of view, or the spectator's)."""
from __future__ import annotations

import json
import uuid
from collections import OrderedDict
from typing import Any, Iterable

from ..core.errors import RecordError
from ..core.state import State
from ..present import Renderer
from ..record import replay_states
from .payload import view_payload

#: The largest record a client may upload, and how many replays are kept in memory.
MAX_RECORD_BYTES = 4 * 1024 * 1024
KEEP = 32


class Replay:
    """Every state of one game, from setup to its last step."""

    def __init__(self, lines: Iterable[dict[str, Any]], where: str) -> None:
        self.frames: list[State] = [s.clone() for s in replay_states(lines, where)]
        self._renderers: dict[str, Renderer] = {}

    @property
    def game(self):  # noqa: ANN201 - a Game
        return self.frames[0].game

    @property
    def steps(self) -> int:
        return len(self.frames) - 1

    def payload(self, step: int, seat: int | None, lang: str) -> dict[str, Any]:
        if lang not in self._renderers:
            self._renderers[lang] = Renderer(self.game, lang, markup=False)
        state = self.frames[max(0, min(step, self.steps))]
        out = view_payload(state, seat, self._renderers[lang])
        return {**out, "step": state.version, "steps": self.steps}


def parse_record_text(text: str) -> list[dict[str, Any]]:
    """The lines of an uploaded record; `RecordError` names the first bad line."""
    lines = []
    for no, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError("web.record_line", no=no, detail=exc.msg) from None
        if not isinstance(obj, dict):
            raise RecordError("web.record_line", no=no, detail="not an object")
        lines.append(obj)
    return lines


class ReplayShelf:
    """The replays opened lately, by ID (uploaded records and finished matches)."""

    def __init__(self) -> None:
        self._items: OrderedDict[str, Replay] = OrderedDict()

    def add(self, replay: Replay, key: str | None = None) -> str:
        key = key or uuid.uuid4().hex[:12]
        self._items[key] = replay
        self._items.move_to_end(key)
        while len(self._items) > KEEP:
            self._items.popitem(last=False)
        return key

    def get(self, key: str) -> Replay | None:
        replay = self._items.get(key)
        if replay is not None:
            self._items.move_to_end(key)
        return replay
