"""The fast observation (`Seat.observe`: a lean view, features gathered and written in bulk,
only the changed parts encoded again) is exactly the reference one (`Seat.observe_reference`:
the full view, encoded feature by feature), bit for bit, on random play of every game and
configuration the adapters test."""
from __future__ import annotations

import numpy as np
import pytest

from takujo.adapters import ObservationError, Table
from takujo.core import Rng

from .configs import SPECS
from .test_encoding import CONFIGS

ALL = list(dict.fromkeys(CONFIGS + SPECS))

_TABLES: dict[str, Table] = {}


def table(spec: str) -> Table:
    if spec not in _TABLES:
        _TABLES[spec] = Table(spec)
    return _TABLES[spec]


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal dtype, shape and bytes (so -0.0 and 0.0 differ too)."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("spec", ALL)
def test_fast_observation_is_the_reference_one(spec):
    t = table(spec)
    enc = t.encoder
    seat = t.new(11)
    rng = Rng(11)
    steps = 0
    while seat.current_player() is not None:
        # every player's observation (each through its own memo), every step
        for p in range(t.players):
            ref = seat.observe_reference(p)
            assert same(seat.observe(p), ref), f"step {steps}, player {p}"
        if steps % 7 == 0:      # without a memo, and from the full view
            p = seat.current_player()
            own = seat._own(p)
            assert same(enc.encode_fast(seat.state.view(p, lean=True), p, own), seat.observe_reference(p))
            assert same(enc.encode_fast(seat.state.view(p), p, own), seat.observe_reference(p))
        legal = seat.legal()
        seat.step(legal[rng.below(len(legal))])
        steps += 1
    for p in range(t.players):
        assert same(seat.observe(p), seat.observe_reference(p))


@pytest.mark.parametrize("spec", ["fuutei", "sengoku_taisen", "ibara(multi_card_combat=true)", "draft_daimyo"])
def test_the_lean_view_is_the_view_without_labels_and_events(spec):
    t = table(spec)
    seat = t.new(4)
    rng = Rng(4)
    while seat.current_player() is not None:
        for p in range(t.players):
            lean, full = seat.state.view(p, lean=True), seat.state.view(p)
            assert set(lean) == {"player", "version", "zones", "public", "pending"}
            assert lean == {k: full[k] for k in lean}
        legal = seat.legal()
        seat.step(legal[rng.below(len(legal))])


def test_a_returned_observation_is_the_callers():
    t = table("fuutei")
    seat = t.new(2)
    first = seat.observe(0)
    first[:] = 7.0                           # the memo keeps its own copy
    assert same(seat.observe(0), seat.observe_reference(0))
    twin = seat.clone()                      # a clone starts without a memo
    assert same(twin.observe(0), seat.observe(0))


def test_the_fast_path_refuses_what_the_reference_refuses():
    t = table("fuutei")
    seat = t.new(0)
    enc = t.encoder
    view = seat.state.view(0, lean=True)
    view["public"]["new_thing"] = 1
    for memo in (None, {}):
        with pytest.raises(ObservationError, match="new_thing"):
            enc.encode_fast(view, 0, None, memo)
    with pytest.raises(ObservationError):
        enc.encode_fast(seat.state.view(1, lean=True), 0)        # another player's view
    memo: dict = {}
    enc.encode_fast(seat.state.view(0, lean=True), 0, None, memo)
    bad = seat.state.view(0, lean=True)
    bad["public"]["phase"] = "teatime"
    with pytest.raises(ObservationError, match="public.phase"):
        enc.encode_fast(bad, 0, None, memo)
    assert same(enc.encode_fast(seat.state.view(0, lean=True), 0, None, memo), seat.observe_reference(0))
