"""`takujo.core.cards`: entries named by their key field in problems, and the tables and
[meta] keys of a data file that its loader does not know."""
from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from takujo.core.cards import META_KEYS, QUOTE, unknown_keys, validate_entries
from takujo.core.errors import CardDataError


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid")
    number: str
    power: int


def test_a_bad_entry_is_named_by_its_key_field():
    entries = [{"number": "A-1", "power": 1}, {"number": "B-2", "power": "x"}, {"number": "C" * 99, "power": 2, "pwr": 3}]
    with pytest.raises(CardDataError) as err:
        validate_entries(Path("cards.toml"), entries, Card, key="number")
    en, ja = err.value.text("en"), err.value.text("ja")
    assert "card #2 (B-2): field 'power'" in en and "2番目の [[card]] (B-2): 項目 'power'" in ja
    assert f"card #3 ({'C' * QUOTE}): field 'pwr'" in en and "C" * (QUOTE + 1) not in en
    with pytest.raises(CardDataError, match=r"card #2: field 'power'"):     # by id unless told
        validate_entries(Path("cards.toml"), entries, Card)


def test_unknown_tables_and_meta_keys_are_found_sorted_and_cut():
    doc = {"meta": {"set": "x", "stand_inn": True, "author": "me"}, "card": [], "crad": [], "z" * 99: 1}
    tables, meta = unknown_keys(doc, ("meta", "card"))
    assert tables == ["crad", "z" * QUOTE] and meta == ["author", "stand_inn"]
    assert unknown_keys({"meta": {k: 1 for k in META_KEYS}, "card": []}, ("meta", "card")) == ([], [])
    assert unknown_keys({"meta": 3}, ("meta",)) == ([], [])      # not a table: its loader says so
