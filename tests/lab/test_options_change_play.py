"""Every rule option the lab can be asked about changes what the heuristic bots play.

`takujo sim --compare OPTION=A,B` with heuristic seats measures a rule only if the bots act
on it: an option whose games come out identical under both values (as 戦国大戦 双's
``ougi_timing`` did while the heuristic spent its okugi at the start of every main phase)
measures nothing. For every game and every value of every option with a fixed set of values
(booleans and choices; file options and the player count aside), heuristic self-play from
the same seeds must play at least one game differently.

Some options matter rarely — 風帝伝説FIGHTER's ``deck_out`` only in a game whose pile runs
out, 戦国大戦 双's ``shippu_then_muso`` only for a warlord with two more copies of itself in
hand — so each option may look through `SEEDS` games before it fails.
"""
from __future__ import annotations

import typing
from typing import Any

import pytest

from takujo.core import registry
from takujo.sim import Series, play_game

#: How many seeds an option may take to show a difference (the rarest found so far: 34).
SEEDS = 120
#: Options that need another one set (ドラフト戦国大名's tactics come in the expansion).
BASE: dict[tuple[str, str], dict[str, Any]] = {("draft_daimyo", "tactics"): {"expansion": True}}
GAMES = ("fuutei", "sengoku_taisen", "ibara", "draft_daimyo")


def _other_values(field: Any) -> list[Any]:
    """The values of an option other than its default, if it has a fixed set of them."""
    if field.annotation is bool:
        return [not field.default]
    if typing.get_origin(field.annotation) is typing.Literal:
        return [v for v in typing.get_args(field.annotation) if v != field.default]
    return []


def _cases() -> list[tuple[str, str, Any]]:
    out = []
    for game in GAMES:
        for name, field in registry.game_class(game).Options.model_fields.items():
            if name != "players":
                out += [(game, name, value) for value in _other_values(field)]
    return out


def _heuristic_log(series: Series, seed: int) -> list[dict[str, Any]]:
    game = series.game(seed)
    state, _ = play_game(game, ["heuristic"] * game.players, seed)
    return state.log


def test_every_fixed_choice_option_is_audited():
    """The audit covers the options the lab's --compare is asked about most."""
    cases = {(g, n) for g, n, _ in _cases()}
    assert {("sengoku_taisen", "ougi_timing"), ("sengoku_taisen", "shippu_then_muso"),
            ("fuutei", "deck_out"), ("ibara", "ryan_last"), ("draft_daimyo", "tactics")} <= cases


@pytest.mark.parametrize(("game", "option", "value"), _cases(), ids=lambda x: str(x))
def test_the_option_changes_heuristic_play(game: str, option: str, value: Any) -> None:
    base = BASE.get((game, option), {})
    default = Series(game, options=base)
    changed = Series(game, options={**base, option: value})
    for seed in range(1, SEEDS + 1):
        if _heuristic_log(default, seed) != _heuristic_log(changed, seed):
            return
    pytest.fail(f"{game}: heuristic games with {option}={value} are the same as without it "
                f"on seeds 1–{SEEDS}; the heuristic never acts on that rule")
