"""The map of ドラフト戦国大名 (a stand-in design): provinces, 国力, adjacency, homes and the
neutral forces that hold the rest at the start. Loaded from ``map.toml`` and validated."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...core.cards import META_KEYS, QUOTE, load_cards, unknown_keys
from ...core.errors import CardDataError

MAP_FILE = Path(__file__).with_name("map.toml")
FACTIONS = ("織田", "武田", "上杉", "今川")          # [public] the four daimyo
#: The factions' message keys (``word.oda`` … in messages.toml), seat by seat.
FACTION_KEYS = ("oda", "takeda", "uesugi", "imagawa")
#: The tables a map file holds.
TABLES = ("meta", "province")


class Province(int):
    """A province index in a message argument: rendered by `DaimyoGame.card_names` as the
    province's name (an int, so it stays JSON-able)."""

    __slots__ = ()


class Neutral(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["一揆勢力", "小大名"]
    soldiers: Annotated[int, Field(ge=1, le=6)]


class ProvinceSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    name_ja: Annotated[str, Field(min_length=1)]
    name_en: str = ""                                  # the English (romanised) name
    kokuryoku: Annotated[int, Field(ge=1, le=5)]
    adjacent: list[str]
    home: Literal["織田", "武田", "上杉", "今川"] | None = None
    neutral: Neutral | None = None
    three_player_out: bool = False


def province_names(p: ProvinceSpec) -> tuple[str, str]:
    """(Japanese, English) names; a map without an English name gives its id. (A function,
    not a method: this module is compiled in the optional build, and pydantic models take no
    compiled methods.)"""
    return p.name_ja, p.name_en or p.id


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
    """Read and check a map: every problem is a `CardDataError` naming the file and province."""
    doc, specs = load_cards(path, ProvinceSpec, table="province")
    tables, meta = unknown_keys(doc, TABLES)
    if tables:
        raise CardDataError("draft_daimyo.board.unknown_tables", path=path, tables=tables, known=list(TABLES))
    if meta:
        raise CardDataError("draft_daimyo.board.unknown_meta", path=path, keys=meta, known=list(META_KEYS))
    ids: dict[str, int] = {}
    for i, p in enumerate(specs):
        if p.id in ids:
            raise CardDataError("draft_daimyo.board.duplicate_id", path=path, n=i + 1, province=p.id)
        ids[p.id] = i
    adj: list[tuple[int, ...]] = []
    for p in specs:
        if p.id in p.adjacent:
            raise CardDataError("draft_daimyo.board.adjacent_to_itself", path=path, province=p.id)
        if len(set(p.adjacent)) != len(p.adjacent):
            raise CardDataError("draft_daimyo.board.neighbour_twice", path=path, province=p.id)
        for q in p.adjacent:
            if q not in ids:
                raise CardDataError("draft_daimyo.board.no_neighbour", path=path, province=p.id,
                                    neighbour=q[:QUOTE])
            if p.id not in specs[ids[q]].adjacent:
                raise CardDataError("draft_daimyo.board.one_way", path=path, province=p.id, neighbour=q)
        if p.home and p.neutral:
            raise CardDataError("draft_daimyo.board.home_neutral", path=path, province=p.id)
        if p.home and p.home != FACTIONS[-1] and p.three_player_out:
            raise CardDataError("draft_daimyo.board.home_out_with_three", path=path, province=p.id,
                                faction=p.home, left_out=FACTIONS[-1])
        adj.append(tuple(sorted(ids[q] for q in p.adjacent)))
    homes = [p.home for p in specs if p.home]
    if sorted(homes) != sorted(FACTIONS):
        raise CardDataError("draft_daimyo.board.homes", path=path,
                            homes=homes or CardDataError("draft_daimyo.board.no_homes"))
    return Board(tuple(specs), tuple(adj))
