"""The registry: games by name, and `make_game` with its default player count."""
from __future__ import annotations

import pytest
from pydantic import Field, create_model

import takujo
from takujo.core import GameOptions, OptionError
from takujo.core.registry import default_players, make_game


@pytest.fixture(autouse=True, scope="module")
def _toy_registered():
    # Registered when the tests run, not at collection (see tests/test_sim.py).
    takujo.register("toy", "tests.toy:ToyGame")


def test_make_game_defaults_and_coerces_string_options():
    cls = takujo.game_class("toy")
    assert default_players(cls) == 4
    game = make_game("toy", options={"target": "30"})
    assert str(game) == "toy(players=4,target=30)"
    assert make_game("toy(target=25)", players=2).players == 2
    with pytest.raises(OptionError, match="foo"):
        make_game("toy", options={"foo": "1"})


@pytest.mark.parametrize("field,expected", [
    (Field(ge=2, le=6), 4),      # no default: 4 where allowed
    (Field(ge=5, le=8), 5),      # else the minimum
    (Field(ge=1, le=3), 1),
    (Field(3, ge=2, le=6), 3),   # the declared default
])
def test_default_players(field, expected):
    opts = create_model("Opts", __base__=GameOptions, players=(int, field))
    assert default_players(type("G", (), {"Options": opts})) == expected
