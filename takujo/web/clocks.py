"""Game clocks, as Board Game Arena's: none, real time (a bank of time to start with and time
added after each move) or turn-based (a fixed time for each move, days rather than minutes).

A seat's clock runs while that seat is to act and a person plays it (not while a stand-in bot
does, nor before anyone opened the seat); several seats' clocks run at once when they decide
together. When a seat runs out of time the others may hand it to a bot, and after the match's
grace period (if its creator set one) the server hands it over by itself. The clocks are
stored with the match and change with every action it commits. [designed, after Board Game
Arena's "real time" and "turn based" game speeds]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..core.errors import OptionError

DAY = 86400.0
#: The profiles offered in the lobby: (kind, initial or per-move seconds, increment).
PROFILES: dict[str, tuple[str, float, float]] = {
    "none": ("none", 0.0, 0.0),
    "blitz": ("realtime", 5 * 60.0, 5.0),
    "normal": ("realtime", 15 * 60.0, 15.0),
    "relaxed": ("realtime", 40 * 60.0, 30.0),
    "day": ("turn", 1 * DAY, 0.0),
    "three_days": ("turn", 3 * DAY, 0.0),
}


@dataclass(frozen=True)
class ClockRules:
    """How a match's clocks run."""

    kind: Literal["none", "realtime", "turn"] = "none"
    initial: float = 0.0        # realtime: each seat's bank at the start; turn: the time for each move
    increment: float = 0.0      # realtime: added after each of the seat's moves
    grace: float | None = None  # seconds past zero after which the seat is handed to a bot (None: never by itself)

    @classmethod
    def from_client(cls, profile: object, grace: object = None) -> "ClockRules":
        """The rules of a lobby profile (`PROFILES`) and an optional grace period, checked."""
        if profile is None or profile == "none":
            return cls()
        if not isinstance(profile, str) or profile not in PROFILES:
            raise OptionError("web.bad_clock", profiles=", ".join(PROFILES))
        kind, initial, increment = PROFILES[profile]
        if grace is not None and (isinstance(grace, bool) or not isinstance(grace, (int, float))
                                  or not 0 <= grace <= 7 * DAY):
            raise OptionError("web.bad_grace")
        return cls(kind=kind, initial=initial, increment=increment,  # type: ignore[arg-type]
                   grace=float(grace) if grace is not None else None)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "initial": self.initial, "increment": self.increment, "grace": self.grace}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ClockRules":
        return cls(kind=data.get("kind", "none"), initial=float(data.get("initial", 0.0)),
                   increment=float(data.get("increment", 0.0)),
                   grace=None if data.get("grace") is None else float(data["grace"]))


@dataclass
class Clocks:
    """Every seat's time left and, for those whose clock runs, since when."""

    rules: ClockRules = field(default_factory=ClockRules)
    left: list[float] = field(default_factory=list)
    since: list[float | None] = field(default_factory=list)

    @classmethod
    def start(cls, rules: ClockRules, seats: int) -> "Clocks":
        return cls(rules, [rules.initial] * seats, [None] * seats)

    @property
    def on(self) -> bool:
        return self.rules.kind != "none"

    def remaining(self, seat: int, now: float) -> float:
        """The seat's time left now (negative once it ran out)."""
        started = self.since[seat]
        return self.left[seat] - (now - started if started is not None else 0.0)

    def run(self, running: set[int], now: float) -> None:
        """Exactly the seats in `running` have their clocks running from now on (the others
        are charged the time they ran and stop)."""
        if not self.on:
            return
        for seat in range(len(self.left)):
            going = self.since[seat] is not None
            if going and seat not in running:
                self.left[seat] = self.remaining(seat, now)
                self.since[seat] = None
            elif not going and seat in running:
                self.since[seat] = now

    def moved(self, seat: int, now: float) -> None:
        """The seat's person moved: charge its time, then add the increment (real time) or
        give it a whole move's time again (turn-based)."""
        if not self.on or self.since[seat] is None:
            return
        spent = self.remaining(seat, now)
        self.since[seat] = None
        self.left[seat] = spent + self.rules.increment if self.rules.kind == "realtime" else self.rules.initial

    def out_of_time(self, seat: int, now: float) -> bool:
        return self.on and self.remaining(seat, now) <= 0

    def past_grace(self, seat: int, now: float) -> bool:
        grace = self.rules.grace
        return self.on and grace is not None and self.remaining(seat, now) <= -grace

    def public(self, seat: int, now: float) -> dict[str, Any] | None:
        """What anyone may know of a seat's clock (None without clocks)."""
        if not self.on:
            return None
        return {"left": round(self.remaining(seat, now), 1), "running": self.since[seat] is not None,
                "out_of_time": self.out_of_time(seat, now)}

    def to_json(self) -> dict[str, Any] | None:
        if not self.on:
            return None
        return {"rules": self.rules.to_json(), "left": list(self.left), "since": list(self.since)}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None, seats: int) -> "Clocks":
        if not data:
            return cls.start(ClockRules(), seats)
        return cls(ClockRules.from_json(data.get("rules", {})), [float(x) for x in data["left"]],
                   [None if x is None else float(x) for x in data["since"]])
