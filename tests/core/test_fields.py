"""takujo.core.fields: data declared once makes slots, initial values, clones and JSON."""
from __future__ import annotations

import json

import pytest

import takujo
from takujo.core.fields import Bound, FieldTypeError, Frame, Transient, per_player
from takujo.core.simultaneous import Commits

from tests.toy import ToyGame


class Inner(Frame):
    marks: list[int] = []


class Everything(Frame):
    """One field of every kind the module understands."""
    name: str
    count: int = 0
    ratio: float = 0.5
    done: bool = False
    fixed: tuple[int, ...] = (1, 2)
    ids: list[int] = []
    nested: list[list[int]] = [[], []]
    seen: set[int] = set()
    by_id: dict[int, int] = {}
    by_name: dict[str, list[int]] = {}
    deep: dict[int, dict[str, int]] = {}
    inner: Inner | None = None
    inners: list[Inner] = []
    commits: Commits | None = None
    cache: Transient[list[int]] = []


def _full() -> Everything:
    e = Everything(name="x", count=3, ids=[4, 5], nested=[[1], [2, 3]], seen={9, 7}, by_id={1: 2},
                   by_name={"a": [1]}, deep={3: {"k": 1}}, inner=Inner(marks=[1]),
                   inners=[Inner(marks=[2])], commits=Commits([0, 1]), cache=[8])
    return e


def test_a_misspelt_attribute_raises_instead_of_passing_silently():
    e = _full()
    with pytest.raises(AttributeError):
        e.countt = 4  # type: ignore[attr-defined]
    state = takujo.load("fuutei(players=3)").new_state(1)
    with pytest.raises(AttributeError):
        state.hand = []  # type: ignore[attr-defined]    # the field is `hands`


def test_defaults_are_fresh_copies_for_every_object():
    a, b = Everything(name="a"), Everything(name="b")
    a.ids.append(1)
    a.nested[0].append(2)
    a.by_name["k"] = [1]
    assert b.ids == [] and b.nested == [[], []] and b.by_name == {}
    assert Everything(name="c").ids == []


def test_per_player_defaults_give_one_copy_for_each_player():
    game = ToyGame(players=3)
    state = game.new_state(0)
    assert state.scores == [0, 0, 0]
    assert len(state.committed) == 3 and len({id(c) for c in state.committed}) == 3


def test_a_clone_shares_no_mutable_value_with_its_original():
    e = _full()
    c = e.clone()
    assert c == e and c is not e
    for mutate in (lambda x: x.ids.append(0), lambda x: x.nested[1].append(0), lambda x: x.seen.add(0),
                   lambda x: x.by_id.update({5: 5}), lambda x: x.by_name["a"].append(0),
                   lambda x: x.deep[3].update(k=9), lambda x: x.inner.marks.append(0),
                   lambda x: x.inners[0].marks.append(0), lambda x: x.commits.players.append(5),
                   lambda x: x.cache.append(0)):
        c = e.clone()
        mutate(c)
        assert e == _full() and e.cache == [8], "mutating a clone changed the original"


def test_json_round_trip_is_exact_and_plain():
    e = _full()
    data = e.to_json()
    assert json.loads(json.dumps(data)) == data          # plain JSON
    assert data["by_id"] == [[1, 2]]                     # int keys survive JSON as pairs
    assert data["by_name"] == {"a": [1]}
    assert data["seen"] == [7, 9]                        # sets saved sorted
    assert "cache" not in data                           # transient: not saved
    back = Everything.from_json(json.loads(json.dumps(data)))
    assert back == e and back.fixed == (1, 2) and back.seen == {7, 9}
    assert back.cache == []                              # transient: its default on load


def test_a_field_whose_type_cannot_be_copied_safely_is_refused():
    class Opaque:
        pass

    globals()["Opaque"] = Opaque
    try:
        class Bad(Frame):
            thing: Opaque

        with pytest.raises(FieldTypeError, match=r"Bad\.thing: Opaque has no clone"):
            Bad(thing=Opaque())

        class AlsoBad(Frame):
            pair: tuple[list[int], int] = ([], 0)

        with pytest.raises(FieldTypeError, match="AlsoBad.pair"):
            AlsoBad()
    finally:
        del globals()["Opaque"]


def test_frames_are_made_by_keyword_and_say_what_is_wrong():
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'name'"):
        Everything()
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        Everything(name="x", colour="red")
    with pytest.raises(TypeError):
        Everything("x")                                  # by keyword only


def test_bound_fields_come_from_the_game_and_are_shared_by_clones():
    game = takujo.load("fuutei(players=3)")
    state = game.new_state(2)
    assert state.cat is game.catalogue and state.n == 3
    assert state.clone().cat is state.cat
    data = state.to_json()
    assert "cat" not in data and "n" not in data
    assert type(state).from_json(game, data).cat is game.catalogue


def test_every_game_state_sets_every_declared_field():
    for name in takujo.names():
        state = takujo.load(name).new_state(0)
        missing = [f.name for f in type(state)._FIELDS if not hasattr(state, f.name)]
        assert not missing, f"{name}: {missing} declared but never set"


def test_a_subclass_may_give_a_base_field_its_own_default():
    class Base(Frame):
        phase: str

    class Child(Base):
        phase: str = "main"
        extra: int = 1

    with pytest.raises(TypeError, match="phase"):
        Base()                     # its own constructor, made first, is not the subclass's
    assert Child().phase == "main" and Child(phase="end").phase == "end" and Child().extra == 1
    assert Base(phase="x").phase == "x"
    with pytest.raises(TypeError, match="phase"):
        Base()


def test_transient_and_bound_markers_are_plain_types_for_the_type_checker():
    value: Transient[int] = 3
    bound: Bound[str] = "x"
    assert value == 3 and bound == "x"
    assert per_player(0) is not None
