"""Replays: the states of a finished match or of an uploaded record, step by step, for the
replay viewer (any seat's point of view, or the spectator's)."""
from __future__ import annotations

import json
import uuid
from collections import OrderedDict
from typing import Any, Iterable

from ..core.errors import RecordError, TakujoError
from ..core.game import Game
from ..core.state import State
from ..present import Renderer
from ..record import replay_states
from .checks import client_game, client_name
from .payload import view_payload

#: The largest record a client may upload, the most steps a replay may have, and how many
#: replays are kept in memory.
MAX_RECORD_BYTES = 4 * 1024 * 1024
MAX_STEPS = 20_000
KEEP = 32
#: The most seats a record's header may name.
MAX_NAMES = 8
#: A replay keeps the state of every this many steps, and plays forward from the nearest.
CHECKPOINT_EVERY = 32


class Replay:
    """One game's states from setup to its last step, verified once when it is opened; the
    state of every `CHECKPOINT_EVERY` steps is kept, so memory grows with the game's length
    divided by that, and a step costs at most that many actions to reach."""

    def __init__(self, lines: Iterable[dict[str, Any]], where: str) -> None:
        lines = list(lines)
        self.names = header_names(lines[0] if lines else {})
        self.checkpoints: list[State] = []
        self.moves: list[tuple[int, str]] = []  # (player, notation) of every step
        last: State | None = None
        for state in replay_states(lines, where):
            if state.version > MAX_STEPS:
                raise RecordError("web.replay_steps", steps=f"> {MAX_STEPS}", limit=MAX_STEPS)
            if last is not None:
                act = next(e for e in reversed(state.log) if e["e"] == "act")
                self.moves.append((int(act["player"]), str(act["action"])))
            if state.version % CHECKPOINT_EVERY == 0:
                self.checkpoints.append(state.clone())
            last = state
        assert last is not None  # replay_states yields the setup at least
        self.last = last.clone()
        self._renderers: dict[str, Renderer] = {}

    @property
    def game(self) -> Game:
        return self.checkpoints[0].game

    @property
    def steps(self) -> int:
        return len(self.moves)

    def state(self, step: int) -> State:
        """The state after `step` steps (clamped to the game)."""
        step = max(0, min(step, self.steps))
        if step == self.steps:
            return self.last
        state = self.checkpoints[step // CHECKPOINT_EVERY].clone()
        for player, notation in self.moves[state.version:step]:
            state.apply(notation, player)
        return state

    def payload(self, step: int, seat: int | None, lang: str) -> dict[str, Any]:
        if lang not in self._renderers:
            self._renderers[lang] = Renderer(self.game, lang, markup=False, names=self.names)
        state = self.state(step)
        out = view_payload(state, seat, self._renderers[lang])
        seats = [{"seat": i, "name": self.names[i] if i < len(self.names) else None} for i in range(state.game.players)]
        return {**out, "step": state.version, "steps": self.steps, "names": self.names, "seats": seats}


def header_names(header: dict[str, Any]) -> list[str | None]:
    """The players' names a record's header gives, each checked as a client's name would be
    (an unusable one is dropped: the replay says "player N" there)."""
    raw = header.get("names")
    if not isinstance(raw, list):
        return []
    out: list[str | None] = []
    for value in raw[:MAX_NAMES]:
        try:
            out.append(client_name(value) if value is not None else None)
        except TakujoError:
            out.append(None)
    return out


def uploaded_record(text: str) -> list[dict[str, Any]]:
    """The lines of a record a client uploaded, its game string checked like every game
    string from a client (no option that names a server file) before anything is loaded."""
    lines = parse_record_text(text)
    if lines and lines[0].get("type") == "header" and "game" in lines[0]:
        client_game(lines[0]["game"])
    return lines


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
