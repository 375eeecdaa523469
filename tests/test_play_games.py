"""A person can play every registered game to its end in the terminal (piped input)."""
from __future__ import annotations

import itertools

import pytest
from typer.testing import CliRunner

import takujo
from takujo.cli import app

# answers a patient player might type: the first option, or the word that moves play on, or
# (menu numbers stay while a decision goes on, so 1 may be gone) a later number
ANSWERS = ["1", "end", "pass", "nosupport", "allow", "done", "keep", "skip", "nointercept",
           "noring", "2", "attack phys", *map(str, range(3, 21))]


@pytest.mark.parametrize("game", takujo.names())
def test_a_whole_game_can_be_played_in_the_terminal(game):
    text = "\n".join(itertools.islice(itertools.cycle(ANSWERS), 6000)) + "\n"
    result = CliRunner().invoke(app, ["play", game, "--seed", "4", "--bots", "random"], input=text)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Game over" in result.output, result.output[-1500:]
