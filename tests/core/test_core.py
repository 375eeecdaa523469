"""Unit tests of the engine core: dice, RNG, options and game strings, actions, response
windows, simultaneous commits, records and replay."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import takujo
from takujo.core import (Action, Commits, Dice, NotationError, OptionError, RecordError, Rng,
                         Window, parse_game_string)
from takujo.record import read_record, record_lines, redact, replay, write_record


# ----- dice -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,n,bonus", [("2D+3", 2, 3), ("１Ｄ", 1, 0), ("D-1", 1, -1),
                                          ("9", 0, 9), (7, 0, 7), ("３Ｄ＋２", 3, 2)])
def test_dice_parse(text, n, bonus):
    assert Dice.parse(text) == Dice(n, bonus)


@pytest.mark.parametrize("text", ["2X+1", "", "D+", "2D+3D", "abc", "0D"])
def test_dice_parse_rejects_bad_notation(text):
    with pytest.raises(ValueError, match="dice"):
        Dice.parse(text)


def test_dice_cap():
    with pytest.raises(ValueError, match="5 dice"):
        Dice.parse("5D", max_dice=4)


@given(st.integers(0, 4), st.integers(-5, 10), st.integers(0, 2**32))
def test_dice_roll_range(n, bonus, seed):
    total, faces = Dice(n, bonus).roll(Rng(seed))
    assert len(faces) == n and all(1 <= f <= 6 for f in faces)
    assert total == sum(faces) + bonus
    assert str(Dice.parse(str(Dice(n, bonus)))) == str(Dice(n, bonus))
    assert n + bonus <= Dice(n, bonus).mean <= 6 * n + bonus


def test_dice_mean_is_the_expected_total():
    assert Dice.parse("2D+3").mean == 10.0 and Dice.parse("9").mean == 9.0


# ----- rng --------------------------------------------------------------------------------------
def test_rng_is_data_and_deterministic():
    a, b = Rng(42), Rng(42)
    assert [a.below(100) for _ in range(50)] == [b.below(100) for _ in range(50)]
    c = a.clone()
    assert a.next64() == c.next64()
    assert Rng(raw_state=a.state).next64() == a.clone().next64()


def test_rng_is_splitmix64():
    """The published SplitMix64 sequence from state 0 (the compiled build mixes in C)."""
    rng = Rng(raw_state=0)
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@given(st.integers(0, (1 << 64) - 1))
def test_rng_mixing_matches_big_integer_arithmetic(s):
    from takujo.core.rng import _mix
    m = (1 << 64) - 1
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    assert _mix(s) == z ^ (z >> 31)


@given(st.integers(-(1 << 70), 1 << 70), st.integers(1, (1 << 64) - 1))
def test_rng_below_is_rejection_sampling_on_splitmix64(seed, n):
    """`below` keeps the values under the last whole block of n (2**64 // n * n of them) and
    takes the remainder; checked against big-integer arithmetic (the compiled build uses C's)."""
    m = (1 << 64) - 1
    state = (seed * 0x9E3779B97F4A7C15 + 1) & m
    rng = Rng(seed)
    for _ in range(3):
        while True:
            state = (state + 0x9E3779B97F4A7C15) & m
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & m
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
            x = z ^ (z >> 31)
            if x < (1 << 64) // n * n:
                break
        assert rng.below(n) == x % n and rng.state == state


@pytest.mark.parametrize("n", [0, -1, 1 << 64])
def test_rng_below_refuses_an_empty_or_too_wide_range(n):
    rng = Rng(3)
    with pytest.raises(ValueError, match="Rng.below"):
        rng.below(n)
    assert rng.state == Rng(3).state


def test_rng_uniformity_rough():
    rng = Rng(1)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.die() - 1] += 1
    assert all(850 < c < 1150 for c in counts)


# ----- games and options --------------------------------------------------------------------
def test_game_string_is_canonical_and_round_trips():
    g = takujo.load("fuutei", players=3, center_regions="effects_only")
    assert str(g) == "fuutei(players=3,center_regions=effects_only)"
    assert takujo.load(str(g)) == g
    assert str(takujo.load("fuutei(players=5, old_region_rule=true)")) == "fuutei(players=5,old_region_rule=true)"
    assert str(takujo.load("fuutei")) == "fuutei(players=4)"


def test_options_are_validated():
    with pytest.raises(OptionError, match="unknown option 'colour'"):
        takujo.load("fuutei", colour="red")
    with pytest.raises(OptionError, match="players"):
        takujo.load("fuutei", players="many")
    with pytest.raises(OptionError, match="players"):
        takujo.load("fuutei", players=9)
    with pytest.raises(OptionError, match="center_regions"):
        takujo.load("fuutei", center_regions="sometimes")
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        takujo.load("chess")
    with pytest.raises(OptionError, match="key=value"):
        parse_game_string("fuutei(players)")


def test_game_is_immutable():
    g = takujo.load("fuutei")
    with pytest.raises(AttributeError):
        g.options = None


# ----- actions ----------------------------------------------------------------------------------
def test_action_notation_round_trip():
    a = Action(2, "invade", (17, 90))
    assert str(a) == "invade 17 90"
    assert Action.parse("invade 17 90", 2) == a
    assert Action.parse("attack phys", 0).args == ("phys",)
    with pytest.raises(NotationError):
        Action.parse("   ", 0)
    with pytest.raises(NotationError):
        Action.parse("9lives 1", 0)


@given(verb=st.sampled_from(["end", "move", "attack"]),
       args=st.lists(st.one_of(st.integers(-5, 10_050), st.sampled_from(["castle", "up", "muso"])), max_size=5))
def test_action_notation_is_the_verb_then_each_argument(verb, args):
    a = Action(1, verb, tuple(args))
    assert str(a) == " ".join([verb, *map(str, args)])
    assert Action.parse(str(a), 1) == a


@given(player=st.integers(0, 3), a=st.integers(0, 29), b=st.integers(0, 13))
def test_action_table_rows_equal_freshly_built_actions(player, a, b):
    """A prebuilt action is the same value as one built on the spot, and rows are reused."""
    from takujo.core import ActionTable
    table = ActionTable("move", players=4, rows=30, cols=14)
    row = table.row(player, a)
    assert row[b] == Action(player, "move", (a, b)) and str(row[b]) == f"move {a} {b}"
    assert len(row) == 14 and table.row(player, a) is row


def test_action_table_rows_may_carry_several_leading_arguments():
    from takujo.core import ActionTable
    heads = [(a, b) for a in range(3) for b in range(3)]
    table = ActionTable("march", players=2, rows=9, cols=4, heads=heads)
    assert table.row(1, 2 * 3 + 1)[3] == Action(1, "march", (2, 1, 3))
    assert str(table.row(0, 5)[1]) == "march 1 2 1"
    with pytest.raises(ValueError, match="march"):
        ActionTable("march", players=2, rows=8, cols=4, heads=heads)


def test_action_table_refuses_arguments_outside_it():
    from takujo.core import ActionTable
    table = ActionTable("guard", players=2, rows=5, cols=5)
    with pytest.raises(IndexError, match="guard"):
        table.row(0, 5)
    with pytest.raises(IndexError, match="guard"):
        table.row(2, 0)


def test_action_table_gives_all_rows_of_a_player_at_once():
    from takujo.core import ActionTable
    table = ActionTable("move", players=2, rows=4, cols=3)
    rows = table.rows_of(1)
    assert len(rows) == 4 and rows[2] is table.row(1, 2) and rows[3][1] == Action(1, "move", (3, 1))
    assert table.rows_of(1) is rows
    with pytest.raises(IndexError, match="move"):
        table.rows_of(2)


def test_unary_action_table_holds_one_argument_actions():
    from takujo.core import ActionTable
    table = ActionTable.unary("play", players=3, cols=6)
    assert table.row(2, 0)[5] == Action(2, "play", (5,)) and str(table.row(2, 0)[5]) == "play 5"
    with pytest.raises(IndexError, match="play"):
        table.row(0, 1)


def test_bare_actions_are_built_once_per_verb_and_player():
    from takujo.core import BareActions
    bare = BareActions(3)
    row = bare["end"]
    assert row == (Action(0, "end"), Action(1, "end"), Action(2, "end")) and bare["end"] is row
    assert str(row[1]) == "end"
    with pytest.raises(KeyError, match="bad action verb"):
        bare["not a verb"]
    game = takujo.load("fuutei", players=3)
    assert game.bare_actions["pass"][2] == Action(2, "pass") and game.bare_actions is game.bare_actions


def test_turn_decisions_are_built_once_per_prompt_and_player():
    from takujo.core import Decision, DecisionKind, TurnDecisions
    turns = TurnDecisions(2)
    assert turns["main"][1] == Decision(DecisionKind.TURN, (1,), "main") and turns["main"] is turns["main"]
    with pytest.raises(KeyError, match="prompt"):
        turns[3]


# ----- response windows and commits --------------------------------------------------------
def test_window_asks_every_player_of_its_order_whatever_they_hold():
    """docs/architecture.md, contract 8: a window's polling order is fixed when it opens;
    nobody is skipped for what they hold (that would tell the others), so each one is asked
    in turn."""
    w = Window("counter", [1, 2, 3])
    asked = []
    while w.responder is not None:
        asked.append(w.responder)
        w.passed()
    assert asked == [1, 2, 3]
    assert Window("counter", []).responder is None


def test_cycling_window_closes_after_everyone_passes_in_succession():
    w = Window("battle", [0, 1], cycle=True)
    seen = []
    for answer in ("act", "pass", "act", "pass", "pass"):
        seen.append(w.responder)
        w.acted() if answer == "act" else w.passed()
    assert seen == [0, 1, 0, 1, 0] and w.responder is None
    assert Window.from_json(json.loads(json.dumps(w.to_json()))) == w


def test_window_copies_share_no_nested_data():
    w = Window("counter", [1], data={"gains": [[0, [5]]]})
    twin = w.clone()
    twin.data["gains"][0][1].append(6)
    assert w.data == {"gains": [[0, [5]]]}
    dumped = w.to_json()
    dumped["data"]["gains"].clear()
    assert w.data["gains"] == [[0, [5]]]


def test_commits_reveal_together():
    c = Commits([1, 0])
    c.commit(Action(0, "support", (5,)))
    assert c.waiting() == (1,) and not c.complete
    c.commit(Action(1, "nosupport"))
    assert c.complete
    assert [str(a) for a in c.reveal()] == ["nosupport", "support 5"]
    assert Commits.from_json(json.loads(json.dumps(c.to_json()))) == c


def test_ordered_commits_ask_one_player_after_another():
    """Fuutei's battle support (FTR-COMBAT-04/05): the invader commits, then the defender."""
    c = Commits([2, 0], ordered=True)
    assert c.waiting() == (2,)
    c.commit(Action(2, "nosupport"))
    assert c.waiting() == (0,) and not c.complete
    c.commit(Action(0, "support", (5,)))
    assert c.complete and c.waiting() == ()
    assert [str(a) for a in c.reveal()] == ["nosupport", "support 5"]
    back = Commits.from_json(json.loads(json.dumps(c.to_json())))
    assert back == c and back.ordered


# ----- records ------------------------------------------------------------------------------------
def _finished(seed=3):
    game = takujo.load("fuutei", players=3)
    state = game.new_state(seed)
    rng = Rng(seed)
    while state.outcome is None:
        p = state.pending.players[0]
        legal = state.legal_actions(p)
        state.apply(legal[rng.below(len(legal))])
    return state


def test_record_replays_exactly(tmp_path):
    state = _finished()
    path = tmp_path / "g.jsonl"
    write_record(path, state, 3)
    lines = read_record(path)
    assert lines[0]["game"] == "fuutei(players=3)" and lines[-1]["type"] == "end"
    assert replay(lines).to_json() == state.to_json()


def _tamper(lines, pred, change):
    lines = json.loads(json.dumps(lines))
    for line in lines:
        if pred(line):
            change(line)
            return lines
    raise AssertionError("nothing to tamper with")


def test_tampered_records_are_refused():
    lines = record_lines(_finished(), 3)

    def bump_face(line):
        roll = next(e for e in line["chance"] if e["e"] == "roll")
        roll["faces"][0] = roll["faces"][0] % 6 + 1

    bad_dice = _tamper(lines, lambda l: any(e["e"] == "roll" for e in l.get("chance", ())), bump_face)
    with pytest.raises(RecordError, match="chance outcomes differ"):
        replay(bad_dice)
    bad_action = _tamper(lines, lambda l: l["type"] == "step", lambda l: l.update(action="invade 1 2"))
    with pytest.raises(RecordError, match="step 0"):
        replay(bad_action)
    bad_end = _tamper(lines, lambda l: l["type"] == "end", lambda l: l["outcome"].update(winners=[9]))
    with pytest.raises(RecordError, match="outcome"):
        replay(bad_end)
    bad_seed = _tamper(lines, lambda l: l["type"] == "header", lambda l: l.update(seed=4))
    with pytest.raises(RecordError, match="setup"):
        replay(bad_seed)
    with pytest.raises(RecordError, match="bad header"):
        replay(_tamper(lines, lambda l: l["type"] == "header", lambda l: l.update(game="chess")))
    with pytest.raises(RecordError, match="not over"):
        replay([lines[0], lines[1], lines[-1]])


def test_unreadable_record(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "header"}\nnot json\n')
    with pytest.raises(RecordError, match="line 2"):
        read_record(path)


def test_redacted_record_keeps_only_what_a_player_sees():
    lines = record_lines(_finished(), 3)
    mine = redact(lines, 1)
    for line in mine:
        for e in line.get("chance", ()):
            assert e["to"] is None or 1 in e["to"]
        if line["type"] == "step" and line.get("hidden") and line["player"] != 1:
            assert line["action"] is None
    assert any(line.get("hidden") for line in lines if line["type"] == "step")


@pytest.mark.parametrize("to, fields", [(3, {}), ((0, 1), {}), (None, {"e": "x"}), (None, {"to": [0]})])
def test_an_event_with_a_bad_audience_or_reserved_field_is_refused_and_not_logged(to, fields):
    state = takujo.load("fuutei", players=3).new_state(1)
    before = len(state.log)
    with pytest.raises(TypeError, match="audience"):
        state.say("note", to, **fields)
    assert len(state.log) == before
    state.say("note", [0], detail=1)
    assert state.log[-1] == {"e": "note", "to": [0], "detail": 1}
