"""The core's flow layer (takujo/core/phases.py) on a small test game: phase hooks and their
order, end conditions and next phases, the interrupt stack of windows, the always-open actions
and the after-action hook."""
from __future__ import annotations

from typing import Any

import pytest

from takujo.core import Action, Decision, DecisionKind, Game, GameOptions, IllegalActionError, Rng, Window
from takujo.core.fields import per_player
from takujo.core.phases import Always, Phase, PhasedState

DRAW, PLAY, DISCARD, REST = "draw", "play", "discard", "rest"
LIMIT = 2


class FlowOptions(GameOptions):
    players: int = 2


class FlowGame(Game):
    """Two players take turns: PLAY (take a card, answer a window, or end), DISCARD down to
    LIMIT cards, then the other player's PLAY begins with a draw. A player may concede."""

    name = "flow_test"
    title = "flow test"
    Options = FlowOptions

    def new_state(self, seed: int = 0) -> "FlowState":
        s = FlowState.__new__(FlowState)
        s._init_base(self, Rng(seed))
        s.enter(PLAY)
        return s


class FlowState(PhasedState):
    ZONES = ()
    phase: str = REST
    turn_player: int = 0
    hand: list[int] = per_player(0)            # how many cards each player holds
    calls: list[str] = []                      # the hooks run, in order
    windows: list[Window] = []
    skip_rest: bool = False                    # REST's end_if
    moves: int = 0                             # on_move calls

    def _turn(self) -> Decision:
        return Decision(DecisionKind.TURN, (self.turn_player,), self.phase)

    def _play_actions(self, p: int) -> list[Action]:
        return [Action(p, "take"), Action(p, "ask"), Action(p, "end")]

    def _apply_play(self, a: Action) -> None:
        if a.verb == "take":
            self.hand[a.player] += 1
        elif a.verb == "ask":                  # the other player may answer
            self.windows.append(Window("answer", [1 - a.player]))
        else:
            self.end_phase()

    def _discard_actions(self, p: int) -> list[Action]:
        return [Action(p, "discard")]

    def _apply_discard(self, a: Action) -> None:
        self.hand[a.player] -= 1

    def _begin_play(self) -> None:
        self.calls.append("play.begin")
        self.hand[self.turn_player] += 1       # the turn's draw

    def _end_play(self) -> None:
        self.calls.append("play.end")

    def _begin_discard(self) -> None:
        self.calls.append("discard.begin")

    def _hand_fits(self) -> bool:
        self.calls.append("discard.end_if")
        return self.hand[self.turn_player] <= LIMIT

    def _end_discard(self) -> None:
        self.calls.append("discard.end")
        self.turn_player = 1 - self.turn_player

    def _after_discard(self) -> str:
        self.calls.append("discard.next")
        return REST

    def _begin_rest(self) -> None:
        self.calls.append("rest.begin")

    def _rest_over(self) -> bool:
        return self.skip_rest

    def _rest_actions(self, p: int) -> list[Action]:
        return [Action(p, "wake")]

    def _apply_rest(self, a: Action) -> None:
        self.end_phase()

    # windows: "answer" may itself be answered ("counter"), innermost first
    def _window_decision(self) -> Decision:
        w = self.windows[-1]
        return Decision(DecisionKind.RESPONSE, (w.order[0],), w.kind)

    def _answer_actions(self, p: int) -> list[Action]:
        return [Action(p, "answer"), Action(p, "counter"), Action(p, "pass")]

    def _apply_answer(self, a: Action) -> None:
        if a.verb == "counter":                # a window on the window
            self.windows.append(Window("counter", [1 - a.player]))
            return
        self.windows.pop()
        if a.verb == "answer":
            self.hand[a.player] += 1

    def _counter_actions(self, p: int) -> list[Action]:
        return [Action(p, "accept")]

    def _apply_counter(self, a: Action) -> None:
        self.windows.pop()
        self.calls.append("countered")

    def _concede_actions(self, p: int) -> list[Action]:
        return [Action(p, "concede")]

    def _concede(self, a: Action) -> None:
        self.end_game((1 - a.player,), "concede")

    def on_move(self) -> None:
        self.moves += 1

    def zone(self, name: str) -> Any:
        raise KeyError(name)

    def public_info(self) -> dict[str, Any]:
        return {"phase": self.phase, "hand": list(self.hand)}

    PHASES = {
        PLAY: Phase(_turn, _play_actions, _apply_play, on_begin=_begin_play, on_end=_end_play, next=DISCARD),
        DISCARD: Phase(_turn, _discard_actions, _apply_discard, on_begin=_begin_discard,
                       end_if=_hand_fits, on_end=_end_discard, next=_after_discard),
        REST: Phase(_turn, _rest_actions, _apply_rest, on_begin=_begin_rest, end_if=_rest_over, next=PLAY),
    }
    INTERRUPTS = {"answer": Phase(_window_decision, _answer_actions, _apply_answer),
                  "counter": Phase(_window_decision, _counter_actions, _apply_counter)}
    ALWAYS = {"concede": Always(_concede_actions, _concede)}


FlowGame.State = FlowState


def fresh(cls: type[FlowState] = FlowState) -> FlowState:
    s = cls.__new__(cls)
    s._init_base(FlowGame(), Rng(0))
    s.enter(PLAY)
    s.calls.clear()
    return s


def act(s: FlowState, text: str, player: int | None = None) -> None:
    s.apply(text, s.pending.players[0] if player is None else player)


# ----- hooks, end conditions, next phases -----------------------------------------------------------
def test_entering_a_phase_ends_the_one_in_progress_then_begins_it():
    s = FlowGame().new_state()
    assert s.phase == PLAY and s.calls == ["play.begin"] and s.hand == [1, 0]
    s.calls.clear()
    s.enter(PLAY)                              # again: its end, then its beginning
    assert s.calls == ["play.end", "play.begin"] and s.hand == [2, 0]


def test_end_phase_goes_to_next_and_an_end_if_true_at_once_skips_the_phase():
    s = fresh()
    act(s, "end")                              # 1 card: DISCARD begins and ends at once
    assert s.calls == ["play.end", "discard.begin", "discard.end_if", "discard.end", "discard.next",
                       "rest.begin"]
    assert s.phase == REST and s.turn_player == 1


def test_next_as_a_function_is_asked_after_on_end():
    s = fresh()
    s.hand[0] = LIMIT + 1
    s.enter(DISCARD)
    assert s.phase == DISCARD
    s.calls.clear()
    s.end_phase()
    assert s.calls[:2] == ["discard.end", "discard.next"]


def test_a_chain_of_phases_ending_at_once():
    s = fresh()
    s.skip_rest = True                         # REST ends at once too: PLAY of player 1 begins
    act(s, "end")
    assert s.calls[-3:] == ["discard.next", "rest.begin", "play.begin"]
    assert s.phase == PLAY and s.turn_player == 1 and s.hand == [1, 1]


def test_end_if_is_checked_after_each_action_of_its_phase():
    s = fresh()
    for _ in range(3):
        act(s, "take")
    assert s.hand[0] == 4
    act(s, "end")
    assert s.phase == DISCARD and s.calls[-1] == "discard.end_if"
    act(s, "discard")
    assert s.phase == DISCARD                  # 3 cards: not yet
    act(s, "discard")
    assert s.phase == REST and s.turn_player == 1 and s.hand[0] == LIMIT
    assert s.calls.count("discard.end") == 1


def test_end_if_is_not_checked_after_an_action_that_left_its_phase():
    s = fresh()
    act(s, "end")
    assert s.phase == REST
    s.calls.clear()
    act(s, "wake")                             # REST -> PLAY: REST's end_if is not asked again
    assert s.phase == PLAY and s.calls == ["play.begin"]


def test_nothing_moves_once_the_game_is_over():
    s = fresh()
    s.end_game((0,), "test")
    s.enter(DISCARD)
    s.end_phase()
    assert s.phase == PLAY and s.calls == []


def test_an_on_end_that_ends_the_game_stops_the_move():
    def over(state: FlowState) -> None:
        state.calls.append("over")
        state.end_game((1,), "test")

    class Ending(FlowState):
        PHASES = {**FlowState.PHASES, PLAY: FlowState.PHASES[PLAY]._replace(on_end=over)}

    s = fresh(Ending)
    act(s, "end")
    assert s.outcome is not None and s.phase == PLAY and s.calls == ["over"]


def test_positional_construction_still_works():
    entry = Phase(FlowState._turn, FlowState._play_actions, FlowState._apply_play)
    assert entry.on_begin is entry.on_end is entry.end_if is entry.next is None


@pytest.mark.parametrize("table, problem", [
    ({PLAY: Phase(FlowState._turn, FlowState._play_actions, FlowState._apply_play, next="nowhere")},
     "not a phase"),
    ({PLAY: Phase(FlowState._turn, FlowState._play_actions, FlowState._apply_play, end_if=lambda s: True)},
     "names no next phase"),
])
def test_a_table_that_makes_no_sense_is_refused_when_the_class_is_made(table, problem):
    with pytest.raises(TypeError, match=problem):
        type("Bad", (PhasedState,), {"PHASES": table, "__module__": __name__})


def test_windows_need_a_field_and_always_actions_need_the_flow_to_apply():
    with pytest.raises(TypeError, match="no windows field"):
        type("Bad", (PhasedState,), {"INTERRUPTS": FlowState.INTERRUPTS, "__module__": __name__})
    with pytest.raises(TypeError, match="applies actions itself"):
        type("Bad", (PhasedState,), {"ALWAYS": FlowState.ALWAYS, "_apply": lambda self, a: None,
                                     "__module__": __name__})


def test_a_state_that_applies_actions_itself_keeps_its_own_apply():
    def own(self: Any, action: Action) -> None:
        pass

    cls = type("Own", (PhasedState,), {"_apply": own, "__module__": __name__})
    assert cls._apply is own
    sub = type("Sub", (cls,), {"__module__": __name__})
    assert sub._apply is own


def test_each_class_gets_the_methods_its_declaration_needs():
    class Plain(PhasedState):
        phase: str = PLAY
        PHASES = {PLAY: FlowState.PHASES[PLAY]._replace(next=None)}

    class WithWindows(Plain):
        windows: list[Window] = []
        INTERRUPTS = FlowState.INTERRUPTS

    class Again(WithWindows):
        pass

    assert Plain.pending is PhasedState.pending and Plain._legal is PhasedState._legal
    assert WithWindows.pending is not PhasedState.pending and WithWindows._legal is not PhasedState._legal
    assert Again.pending is WithWindows.pending and Again._apply is WithWindows._apply
    assert Plain._apply is not WithWindows._apply


# ----- the interrupt stack -----------------------------------------------------------------------------
def test_an_open_window_interrupts_the_phase_and_the_innermost_answers_first():
    s = fresh()
    act(s, "ask")                              # player 1 is asked, in PLAY of player 0
    assert s.phase == PLAY and s.pending == Decision(DecisionKind.RESPONSE, (1,), "answer")
    assert s.current_phase() is FlowState.INTERRUPTS["answer"]
    assert [str(a) for a in s.legal_actions(1)] == ["answer", "counter", "pass"]
    assert s.legal_actions(0) == []
    act(s, "counter")                          # a second window, on top of the first
    assert [w.kind for w in s.windows] == ["answer", "counter"]
    assert s.pending == Decision(DecisionKind.RESPONSE, (0,), "counter")
    assert [str(a) for a in s.legal_actions(0)] == ["accept"]
    with pytest.raises(IllegalActionError):
        act(s, "answer", 1)                    # the outer window waits
    act(s, "accept")
    assert s.calls[-1] == "countered" and [w.kind for w in s.windows] == ["answer"]
    assert s.pending.players == (1,) and s.pending.prompt == "answer"
    act(s, "answer")
    assert s.windows == [] and s.hand == [1, 1]
    assert s.pending == Decision(DecisionKind.TURN, (0,), PLAY)
    assert s.current_phase() is FlowState.PHASES[PLAY]


def test_the_phase_end_if_waits_for_the_windows():
    """end_if is checked after an action only once no window is open: the phase waits below."""
    s = fresh()
    for _ in range(3):
        act(s, "take")
    act(s, "end")
    assert s.phase == DISCARD and s.hand[0] == 4
    s.windows.append(Window("answer", [1]))    # a window opened in DISCARD
    act(s, "counter")                          # and one on top of it
    s.hand[0] = LIMIT                          # the hand fits while both are open
    s.calls.clear()
    act(s, "accept")
    assert s.phase == DISCARD and [w.kind for w in s.windows] == ["answer"]
    assert "discard.end_if" not in s.calls
    act(s, "pass")                             # the last window closes: DISCARD's end_if holds
    assert s.windows == [] and s.calls[1:3] == ["discard.end_if", "discard.end"]
    assert s.phase == REST and s.turn_player == 1


# ----- the always-open actions ---------------------------------------------------------------------------
def test_always_actions_are_offered_to_every_seated_player_only_on_request():
    s = fresh()
    assert [str(a) for a in s.legal_actions(0)] == ["take", "ask", "end"]
    assert s.legal_actions(1) == []
    assert [str(a) for a in s.legal_actions(0, always=True)] == ["take", "ask", "end", "concede"]
    assert s.legal_actions(1, always=True) == [Action(1, "concede")]
    assert s.legal_actions(2, always=True) == [] and s.legal_actions(-1, always=True) == []
    assert Action(0, "concede") in s.legal_actions(always=True) and Action(1, "concede") in s.legal_actions(always=True)
    assert Action(1, "concede") not in s.legal_actions()
    pend, legal = s.first_choice()
    assert pend.players == (0,) and all(a.verb != "concede" for a in legal)


def test_an_always_action_goes_through_apply_like_any_other():
    s = fresh()
    version = s.version
    s.apply(Action(1, "concede"))              # not player 1's decision
    assert s.outcome.winners == (0,) and s.outcome.reason == "concede"
    assert s.version == version + 1
    assert s.log[-2] == {"e": "act", "to": None, "player": 1, "action": "concede"}
    assert s.moves == 1                        # on_move after it too
    assert s.legal_actions(0, always=True) == [] and s.always_actions(0) == []
    with pytest.raises(IllegalActionError) as err:
        s.apply(Action(0, "concede"))
    assert err.value.message == "action.game_over"


def test_an_always_action_in_a_window_and_by_apply_unchecked():
    s = fresh()
    act(s, "ask")
    assert Action(0, "concede") in s.legal_actions(0, always=True)
    s.apply_unchecked(Action(0, "concede"))
    assert s.outcome.winners == (1,) and s.pending is None


@pytest.mark.parametrize("action, message", [
    (Action(2, "concede"), "action.not_your_decision"),          # no such player
    (Action(-1, "concede"), "action.not_your_decision"),
    (Action(1, "concede", (1,)), "action.not_legal"),            # concede takes no argument
    (Action(0, "concede", ("now",)), "action.not_legal"),
])
def test_a_bad_always_action_is_refused_and_changes_nothing(action, message):
    s = fresh()
    before = s.clone()
    with pytest.raises(IllegalActionError) as err:
        s.apply(action)
    assert err.value.message == message
    assert s == before
    if message == "action.not_legal":
        assert "concede" in str(err.value)     # the player's legal actions are listed


def test_a_non_deciding_player_still_may_not_take_a_decision_action():
    s = fresh()
    with pytest.raises(IllegalActionError) as err:
        s.apply(Action(1, "take"))
    assert err.value.message == "action.not_your_decision"


def test_on_move_runs_after_every_action():
    s = fresh()
    act(s, "take")
    act(s, "ask")
    act(s, "pass")
    assert s.moves == 3
