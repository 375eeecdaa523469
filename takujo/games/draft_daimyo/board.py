"""The map of ドラフト戦国大名 (a stand-in design): provinces, 国力, adjacency, homes and the
neutral forces that hold the rest at the start. Loaded from ``map.toml`` and validated."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...core.cards import load_cards
from ...core.errors import CardDataError

MAP_FILE = Path(__file__).with_name("map.toml")
FACTIONS = ("織田", "武田", "上杉", "今川")          # [public] the four daimyo


class Neutral(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["一揆勢力", "小大名"]
    soldiers: Annotated[int, Field(ge=1, le=6)]


class ProvinceSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    name_ja: str
    kokuryoku: Annotated[int, Field(ge=1, le=5)]
    adjacent: list[str]
    home: Literal["織田", "武田", "上杉", "今川"] | None = None
    neutral: Neutral | None = None
    three_player_out: bool = False


@dataclass(frozen=True)
class Board:
    provinces: tuple[ProvinceSpec, ...]
    adjacent: tuple[tuple[int, ...], ...]

    def index(self, pid: str) -> int:
        return next(i for i, p in enumerate(self.provinces) if p.id == pid)

    def home(self, faction: str) -> int:
        return self.homes[faction]

    @cached_property
    def homes(self) -> dict[str, int]:
        """Faction -> its home province (looked up on every basic action)."""
        return {p.home: i for i, p in enumerate(self.provinces) if p.home}

    def __len__(self) -> int:
        return len(self.provinces)


@lru_cache(maxsize=4)
def load_board(path: str = str(MAP_FILE)) -> Board:
    _, specs = load_cards(path, ProvinceSpec, table="province")
    ids = {p.id: i for i, p in enumerate(specs)}
    adj: list[tuple[int, ...]] = []
    for p in specs:
        for q in p.adjacent:
            if q not in ids:
                raise CardDataError(f"{path}: province ({p.id}): field 'adjacent': no province {q!r}")
            if p.id not in specs[ids[q]].adjacent:
                raise CardDataError(f"{path}: province ({p.id}): field 'adjacent': {q} does not list {p.id} back")
        adj.append(tuple(sorted(ids[q] for q in p.adjacent)))
    homes = [p.home for p in specs if p.home]
    if sorted(homes) != sorted(FACTIONS):
        raise CardDataError(f"{path}: every faction needs exactly one home province; found {homes}")
    return Board(tuple(specs), tuple(adj))
