"""Game records as JSON Lines, and replay that rebuilds and checks every state.

A record is a header line, one line per action with the chance outcomes it realised, and an
end line with the outcome::

    {"type": "header", "takujo": "0.1.0", "game": "fuutei(players=3)", "seed": 1, "seats": [...], "chance": [...]}
    {"type": "step", "n": 0, "player": 0, "action": "play 17", "chance": []}
    {"type": "end", "outcome": {...}, "steps": 123}

`replay` refuses, with a `RecordError` naming the line, any record that this engine cannot
reproduce exactly: an unknown game, an illegal action, different dice, a different end.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator

from . import __version__
from .core import sources
from .core.errors import IllegalActionError, Phrase, RecordError, TakujoError
from .core.events import visible_to
from .core.registry import load
from .core.state import State


def _chance(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e.get("chance")]


def record_lines(state: State, seed: int, seats: list[str] | None = None,
                 names: list[str | None] | None = None, sets: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The record of a game played from ``game.new_state(seed)`` up to `state`; `names`: the
    players' display names by seat, when they have any (the header's ``names``); `sets`: the
    texts of the uploaded card sets its game string names (``set:…``), so that the record
    replays anywhere (the header's ``sets``)."""
    log = state.log
    acts = [i for i, e in enumerate(log) if e["e"] == "act"]
    first = acts[0] if acts else len(log)
    lines: list[dict[str, Any]] = [{
        "type": "header", "takujo": __version__, "game": str(state.game), "seed": seed,
        "seats": seats or [f"player {p}" for p in range(state.game.players)],
        "chance": _chance(log[:first]),
    }]
    if names and any(names):
        lines[0]["names"] = list(names)
    if sets:
        lines[0]["sets"] = dict(sets)
    for n, i in enumerate(acts):
        end = acts[n + 1] if n + 1 < len(acts) else len(log)
        e = log[i]
        step = {"type": "step", "n": n, "player": e["player"], "action": e["action"],
                "chance": _chance(log[i + 1:end])}
        if e.get("to") is not None:
            step["hidden"] = True
        lines.append(step)
    if state.outcome is not None:
        lines.append({"type": "end", "outcome": state.outcome.to_json(), "steps": len(acts)})
    return lines


def write_record(path: Path | str, state: State, seed: int, seats: list[str] | None = None) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for line in record_lines(state, seed, seats):
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")


#: A record line longer than this is refused (a step line is well under 1 kB).
MAX_LINE_BYTES = 1 << 20


def iter_record(path: Path | str) -> Iterator[dict[str, Any]]:
    """The lines of a record file one by one, read as they are needed (a long record is never
    held in memory whole). Every problem is a `RecordError` naming the file and the line;
    the file's contents are never quoted."""
    path = Path(path)
    if path.is_dir():
        raise RecordError("record.folder", path=path)
    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        raise RecordError("record.not_found", path=path) from None
    except OSError as exc:
        raise RecordError("record.unreadable", path=path, reason=exc.strerror or type(exc).__name__) from None
    with fh:
        no = 0
        while True:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            no += 1
            if len(raw) > MAX_LINE_BYTES:
                raise _at(path, no, Phrase("record.long_line", limit=MAX_LINE_BYTES))
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise _at(path, no, Phrase("record.not_utf8")) from None
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise _at(path, no, Phrase("record.not_json", detail=exc.msg)) from None
            if not isinstance(obj, dict) or "type" not in obj:
                raise _at(path, no, Phrase("record.no_type"))
            yield obj


def read_record(path: Path | str) -> list[dict[str, Any]]:
    """Every line of a record file (see `iter_record` to stream a long one)."""
    return list(iter_record(path))


def redact(lines: list[dict[str, Any]], player: int | None) -> list[dict[str, Any]]:
    """A copy of a record holding only what `player` may see (for clients)."""
    out = []
    for line in lines:
        line = dict(line)
        if "chance" in line:
            line["chance"] = [e for e in line["chance"] if visible_to(e, player)]
        if line["type"] == "step" and line["player"] != player and line.get("hidden"):
            line["action"] = None
        out.append(line)
    return out


#: The most card sets one record may carry.
MAX_SETS = 4


def register_sets(sets: object) -> None:
    """Hold the card sets a record's header carries (``{"set:<sha256>": text}``), each
    checked against its name, so that its game string's ``set:`` values load."""
    if sets is None:
        return
    if not isinstance(sets, dict) or len(sets) > MAX_SETS:
        raise RecordError("record.bad_sets", limit=MAX_SETS)
    for name, text in sets.items():
        if not isinstance(text, str) or not sources.NAME.fullmatch(str(name)) or sources.name_of(text) != name:
            raise RecordError("record.set_mismatch", name=str(name)[:20])
        sources.register(text)


def replay_states(lines: Iterable[dict[str, Any]], where: str = "record") -> Iterator[State]:
    """Rebuild the game of a record, yielding the state after setup and after every step.
    `lines` may be any iterable (e.g. `iter_record`), consumed one line at a time."""
    it = iter(lines)
    head = next(it, None)
    if not isinstance(head, dict) or head.get("type") != "header":
        raise RecordError("record.no_header", where=where)
    try:
        register_sets(head.get("sets"))
        game = load(head["game"])
        seed = head["seed"]
        if type(seed) is not int:
            raise RecordError("record.seed_not_int", seed=str(seed)[:40])
    except KeyError as exc:
        raise _at(where, 1, Phrase("record.header_field", field=str(exc.args[0]))) from None
    except TakujoError as exc:
        raise _at(where, 1, Phrase("record.bad_header", error=exc)) from None
    except (TypeError, ValueError) as exc:
        raise _at(where, 1, Phrase("record.bad_header", error=str(exc)[:200])) from None
    state = game.new_state(seed)
    if _chance(state.log) != _events(head.get("chance", []), where, 1):
        raise _at(where, 1, Phrase("record.setup_differs"))
    yield state
    ended = False
    for no, line in enumerate(it, 2):
        kind = line.get("type")
        if ended:
            raise _at(where, no, Phrase("record.after_end"))
        if kind == "step":
            if line.get("n") != state.steps:
                raise _at(where, no, Phrase("record.step_number", got=str(line.get("n"))[:20],
                                            expected=state.steps))
            action, player = line.get("action"), line.get("player")
            if not isinstance(action, str):
                raise _at(where, no, Phrase("record.no_action", step=state.steps))
            if type(player) is not int:
                raise _at(where, no, Phrase("record.no_player", step=state.steps))
            recorded = _events(line.get("chance", []), where, no)
            mark = len(state.log)
            try:
                state.apply(state.parse_action(action, player))
            except IllegalActionError as exc:
                raise _at(where, no, Phrase("record.step_refused", step=state.steps, error=exc)) from None
            got = _chance(state.log[mark:])
            if got != recorded:
                raise _at(where, no, Phrase("record.chance_differs", step=line["n"], engine=_brief(got),
                                            record=_brief(recorded)))
            yield state
        elif kind == "end":
            ended = True
            if state.outcome is None:
                raise _at(where, no, Phrase("record.not_over"))
            if state.outcome.to_json() != line.get("outcome"):
                raise _at(where, no, Phrase("record.outcome_differs", recorded=str(line.get("outcome"))[:200],
                                            replayed=state.outcome.to_json()))
        else:
            raise _at(where, no, Phrase("record.line_type", kind=str(kind)[:40]))


def _events(chance: object, where: str, no: int) -> list[dict[str, Any]]:
    """A line's recorded chance outcomes: a list of event objects, or a RecordError."""
    if not isinstance(chance, list) or not all(isinstance(e, dict) and isinstance(e.get("e"), str)
                                               for e in chance):
        raise _at(where, no, Phrase("record.bad_chance"))
    return chance


def _at(where: object, no: int, problem: Phrase) -> RecordError:
    """A problem of one line of a record."""
    return RecordError("record.at_line", where=where, no=no, problem=problem)


def _brief(events: list[dict[str, Any]]) -> str:
    return "; ".join(f"{e['e']} {str(e.get('faces', e.get('order', '')))[:60]}" for e in events[:3]) or "none"


def replay(lines: list[dict[str, Any]], where: str = "record") -> State:
    """Rebuild and verify a whole record; return the final state."""
    state = None
    for state in replay_states(lines, where):
        pass
    assert state is not None
    return state
