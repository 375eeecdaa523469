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
from .core.errors import IllegalActionError, RecordError, TakujoError
from .core.events import visible_to
from .core.registry import load
from .core.state import State


def _chance(events: Iterable[dict]) -> list[dict]:
    return [e for e in events if e.get("chance")]


def record_lines(state: State, seed: int, seats: list[str] | None = None) -> list[dict[str, Any]]:
    """The record of a game played from ``game.new_state(seed)`` up to `state`."""
    log = state.log
    acts = [i for i, e in enumerate(log) if e["e"] == "act"]
    first = acts[0] if acts else len(log)
    lines: list[dict[str, Any]] = [{
        "type": "header", "takujo": __version__, "game": str(state.game), "seed": seed,
        "seats": seats or [f"player {p}" for p in range(state.game.players)],
        "chance": _chance(log[:first]),
    }]
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


def read_record(path: Path | str) -> list[dict[str, Any]]:
    lines = []
    with open(path, encoding="utf-8") as fh:
        for no, text in enumerate(fh, 1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RecordError(f"{path}: line {no}: not JSON ({exc.msg})") from None
            if not isinstance(obj, dict) or "type" not in obj:
                raise RecordError(f"{path}: line {no}: expected an object with a 'type'")
            lines.append(obj)
    return lines


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


def replay_states(lines: list[dict[str, Any]], where: str = "record") -> Iterator[State]:
    """Rebuild the game of a record, yielding the state after setup and after every step."""
    if not lines or lines[0].get("type") != "header":
        raise RecordError(f"{where}: the first line must be the header")
    head = lines[0]
    try:
        game = load(head["game"])
        seed = int(head["seed"])
    except (KeyError, TypeError, ValueError, TakujoError) as exc:
        raise RecordError(f"{where}: line 1: bad header: {exc}") from None
    state = game.new_state(seed)
    if _chance(state.log) != head.get("chance", []):
        raise RecordError(f"{where}: line 1: the setup's chance outcomes differ from the record")
    yield state
    ended = False
    for no, line in enumerate(lines[1:], 2):
        kind = line.get("type")
        if ended:
            raise RecordError(f"{where}: line {no}: lines after the end line")
        if kind == "step":
            if line.get("n") != state.steps:
                raise RecordError(f"{where}: line {no}: step number {line.get('n')} where {state.steps} was expected")
            mark = len(state.log)
            try:
                state.apply(state.parse_action(str(line["action"]), int(line["player"])))
            except (IllegalActionError, KeyError, ValueError, TypeError) as exc:
                raise RecordError(f"{where}: line {no}: step {line.get('n')}: {exc}") from None
            got = _chance(state.log[mark:])
            if got != line.get("chance", []):
                raise RecordError(f"{where}: line {no}: step {line['n']}: chance outcomes differ "
                                  f"from the record (engine: {_brief(got)}; record: {_brief(line.get('chance', []))})")
            yield state
        elif kind == "end":
            ended = True
            if state.outcome is None:
                raise RecordError(f"{where}: line {no}: the record ends the game but the game is not over")
            if state.outcome.to_json() != line.get("outcome"):
                raise RecordError(f"{where}: line {no}: outcome {line.get('outcome')} differs from the "
                                  f"replayed outcome {state.outcome.to_json()}")
        else:
            raise RecordError(f"{where}: line {no}: unknown line type {kind!r}")


def _brief(events: list[dict]) -> str:
    return "; ".join(f"{e['e']} {e.get('faces', e.get('order', ''))}" for e in events[:3]) or "none"


def replay(lines: list[dict[str, Any]], where: str = "record") -> State:
    """Rebuild and verify a whole record; return the final state."""
    state = None
    for state in replay_states(lines, where):
        pass
    assert state is not None
    return state
