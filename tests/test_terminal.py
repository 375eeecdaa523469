"""Terminal play: several people at one terminal, resuming a saved game, card text, menus."""
from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from pydantic import Field
from rich.console import Console
from typer.testing import CliRunner

import takujo
from takujo.bots import make_bot
from takujo.cli import app
from takujo.core import Action, Decision, DecisionKind, Game, GameOptions, Outcome, Rng, State
from takujo.core.fields import per_player
from takujo.present import Renderer
from takujo.terminal import MENU_LIMIT, MenuNumbers, Quit, TerminalTable, build_menu

runner = CliRunner()


@pytest.fixture(autouse=True, scope="module")
def _toy_registered():
    takujo.register("toy", "tests.toy:ToyGame")


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


# ----- menus ------------------------------------------------------------------------------------
def _labels(a: Action) -> str:
    return f"play card {a.args[0]} → square {a.args[1]}" if a.verb == "play" else a.verb


def test_a_long_menu_is_grouped_by_card_then_target():
    legal = [Action(0, "play", (c, t)) for c in (3, 7, 9) for t in range(10)] + [Action(0, "end")]
    menu = build_menu(legal, _labels)
    assert [len(e.actions) for e in menu] == [10, 10, 10, 1]
    assert menu[0].label.startswith("play card 3") and "… 10" in menu[0].label
    assert menu[3].label == "end"
    assert [a for e in menu for a in e.actions] == legal          # nothing lost, order kept
    again = build_menu(list(legal), _labels)
    assert [e.label for e in again] == [e.label for e in menu]    # the same numbers next time


def test_a_short_menu_lists_every_action():
    legal = [Action(0, "play", (c, 1)) for c in range(MENU_LIMIT)]
    assert [e.actions for e in build_menu(legal, _labels)] == [[a] for a in legal]


def test_a_menu_without_shared_cards_stays_flat():
    legal = [Action(0, "play", (c, 1)) for c in range(MENU_LIMIT + 5)]
    assert len(build_menu(legal, _labels)) == len(legal)


def test_a_grouped_menu_keeps_its_numbers_while_the_decision_goes_on():
    numbers = MenuNumbers()
    legal = [Action(0, "play", (c, t)) for c in (3, 7, 9) for t in range(10)] + [Action(0, "end")]
    first = numbers.menu(legal, _labels)
    assert [e.number for e in first] == [1, 2, 3, 4]
    targets = numbers.group(first[1], _labels)               # card 7's targets: 1..10
    assert [(e.number, e.actions[0].args) for e in targets][:2] == [(1, (7, 0)), (2, (7, 1))]
    # card 3 was played; card 7 lost target 0; card 5 and "pass" are new
    legal = ([Action(0, "play", (7, t)) for t in range(1, 10)] + [Action(0, "play", (9, 1))]
             + [Action(0, "play", (5, t)) for t in range(3)] + [Action(0, "pass"), Action(0, "end")])
    again = numbers.menu(legal, _labels)
    assert [(e.number, e.key) for e in again] == [(2, ("play", 7)), (3, ("play", 9)), (4, ("end", None)),
                                                  (5, ("play", 5)), (6, ("pass", None))]
    assert [e.number for e in numbers.group(again[0], _labels)] == list(range(2, 11))
    # now under MENU_LIMIT, the menu stays grouped: the same entries keep their numbers
    small = numbers.menu([Action(0, "play", (9, 1)), Action(0, "end")], _labels)
    assert [(e.number, e.key) for e in small] == [(3, ("play", 9)), (4, ("end", None))]


# ----- stable numbers at the table: a game of several choices in one decision -------------------
class ShopOptions(GameOptions):
    players: int = Field(2, ge=2, le=2, description="number of players")


class ShopState(State):
    """Each turn the player takes goods from the shelf one at a time (and may put one back),
    until `done`; two turns each, then the game ends."""

    shelf: list[int] = [1, 2, 3, 4]
    baskets: list[list[int]] = per_player([])
    current: int = 0
    turns: int = 0

    def __init__(self, game: "ShopGame", rng: Rng) -> None:
        self._init_base(game, rng)

    @property
    def pending(self) -> Decision | None:
        return None if self.outcome is not None else Decision(DecisionKind.TURN, (self.current,), "shop")

    def _legal(self, player: int) -> list[Action]:
        return ([Action(player, "take", (g,)) for g in sorted(self.shelf)]
                + [Action(player, "back", (g,)) for g in self.baskets[player]] + [Action(player, "done")])

    def _apply(self, action: Action) -> None:
        p = action.player
        if action.verb == "take":
            self.shelf.remove(action.args[0])
            self.baskets[p].append(action.args[0])
        elif action.verb == "back":
            self.baskets[p].remove(action.args[0])
            self.shelf.append(action.args[0])
        else:
            self.turns += 1
            self.current = 1 - p
            if self.turns == 4:
                self.outcome = Outcome((0,), "done", (len(self.baskets[0]), len(self.baskets[1])))

    def zone(self, name: str) -> Any:
        raise KeyError(name)

    def public_info(self) -> dict[str, Any]:
        return {"shelf": sorted(self.shelf), "baskets": [list(b) for b in self.baskets]}


class ShopGame(Game):
    name = "shop"
    title = "Shop"
    Options = ShopOptions
    State = ShopState

    def new_state(self, seed: int = 0) -> ShopState:
        return ShopState(self, self.rng_for(seed))


def _shop(typed: str) -> str:
    """Player 0 types `typed` at a game of Shop against a bot; everything printed."""
    game = ShopGame()
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    table = TerminalTable(game.new_state(1), 1, ["human", "random"], [0], {1: make_bot("random", game)},
                          {1: Rng(1)}, console, Renderer(game, "en"), stdin=io.StringIO(typed))
    with pytest.raises(Quit):
        table.run()
    return out.getvalue()


def _menus(output: str) -> list[dict[str, int]]:
    """Every menu printed: notation -> number."""
    menus, current = [], None
    for line in output.splitlines():
        m = re.match(r"\s+(\d+)\. \S+\s+\((.+)\)$", line)
        if m:
            if current is None:
                current = {}
                menus.append(current)
            current[m.group(2)] = int(m.group(1))
        else:
            current = None
    return menus


def test_an_action_keeps_its_number_while_the_same_decision_goes_on():
    # take 2 (number 2); 3 is still "take 3"; "back 2" and "back 3" are new: 6, 7; put 2 back (6)
    out = _shop("2\n3\n6\nq\n")
    menus = _menus(out)
    assert menus[0] == {"take 1": 1, "take 2": 2, "take 3": 3, "take 4": 4, "done": 5}
    assert menus[1] == {"take 1": 1, "take 3": 3, "take 4": 4, "done": 5, "back 2": 6}
    assert menus[2] == {"take 1": 1, "take 4": 4, "done": 5, "back 2": 6, "back 3": 7}
    assert menus[3] == {"take 1": 1, "take 2": 2, "take 4": 4, "done": 5, "back 3": 7}   # 2 came back as 2
    lines = [x.strip() for x in out.splitlines() if re.match(r"\s+\d+\. ", x)]
    assert [x.split("  (")[0] for x in lines[5:10]] == [
        "1. action.take(arg0=1)", "3. action.take(arg0=3)", "4. action.take(arg0=4)", "5. action.done()",
        "6. action.back(arg0=2)"]                                   # listed by number, gaps left


def test_a_gone_number_is_refused_and_a_new_decision_numbers_from_1():
    out = _shop("2\n2\n5\nq\n")
    assert "there is no choice 2; choose one of the numbers listed" in out
    menus = _menus(out)
    assert menus[1]["done"] == 5 and "back 2" in menus[1]
    # after "done" the bot's turn came: player 0's next turn is a new decision, numbered from 1
    assert len(menus) == 3 and "back 2" in menus[2]
    assert list(menus[2].values()) == list(range(1, len(menus[2]) + 1))
    assert menus[2]["done"] == len(menus[2])


# ----- several people at one terminal -----------------------------------------------------------
def test_two_people_share_the_terminal_with_a_hand_over_screen():
    result = run("play", "toy", "--players", "3", "--humans", "0,2", "--bots", "random", "--seed", "2",
                 "-o", "target=40", input="\n1\n2\n" * 3000)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Seats: player 0: a person, player 1: random, player 2: a person." in out
    assert "Player 0's turn." in out and "Player 2's turn." in out
    # each decision of a person comes after a hand-over to that person
    blocks = out.split("Hand the terminal to player ")
    assert len(blocks) > 4
    for block in blocks[1:]:
        seat = block[0]
        assert f"Player {seat}\n" in block or "Game over" in block or "Goodbye" in block
    assert "Game over" in out


def test_private_choices_of_one_person_are_not_shown_to_the_next():
    """The toy's bids are secret: after the hand-over, the other person's screen never shows
    what the previous person bid."""
    result = run("play", "toy", "--players", "2", "--humans", "0,1", "--seed", "2", "-o", "target=80",
                 input="\n1\n\n2\n" * 3000)
    assert result.exit_code == 0, result.output
    for block in result.output.split("Hand the terminal to player ")[1:]:
        seat = int(block[0])
        other = 1 - seat
        assert f"Player {other} secretly chose" not in block
        assert "You secretly chose" in result.output


@pytest.mark.parametrize("humans,why", [("0,5", "not a seat"), ("0,0", "given twice"), ("x", "not a seat")])
def test_bad_human_seats_are_refused(humans, why):
    result = run("play", "toy", "--players", "2", "--humans", humans)
    assert result.exit_code == 2 and why in result.output


# ----- save and resume --------------------------------------------------------------------------
def test_quitting_saves_and_resume_continues_the_same_game(tmp_path):
    record = tmp_path / "game.jsonl"
    first = run("play", "toy", "--players", "2", "--seed", "5", "--record", str(record), input="1\n1\n1\nq\n")
    assert first.exit_code == 0 and "takujo play --resume" in first.output
    steps = sum(1 for line in record.read_text(encoding="utf-8").splitlines() if '"step"' in line)
    assert steps >= 3
    second = run("play", "--resume", str(record), input="1\n" * 2000)
    assert second.exit_code == 0, second.output
    assert f"resumed at step {steps}" in second.output and "Game over" in second.output
    lines = [json.loads(x) for x in record.read_text(encoding="utf-8").splitlines()]
    assert lines[-1]["type"] == "end"
    assert run("replay", str(record), "--quiet").exit_code == 0
    again = run("play", "--resume", str(record))
    assert again.exit_code == 1 and "nothing to resume" in again.output


def test_quitting_after_one_step_says_so_in_good_english(tmp_path):
    out = run("play", "toy", "--players", "2", "--seed", "5", input="1\nq\n").output
    assert "left unfinished at step 1 (seed 5)" in out and "1 steps" not in out, out[-400:]


def test_resume_refuses_a_record_that_does_not_replay(tmp_path):
    record = tmp_path / "game.jsonl"
    run("play", "toy", "--players", "2", "--seed", "5", "--record", str(record), input="1\n1\nq\n")
    lines = record.read_text(encoding="utf-8").splitlines()
    step = json.loads(lines[1])
    step["action"] = "fly 3"
    lines[1] = json.dumps(step)
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("play", "--resume", str(record))
    assert result.exit_code == 1 and "line 2" in result.output


def test_resume_takes_no_other_game_settings(tmp_path):
    result = run("play", "toy", "--resume", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 2 and "--resume continues" in result.output


# ----- card text during play --------------------------------------------------------------------
def test_question_mark_and_a_name_show_a_cards_text():
    result = run("play", "toy", "--players", "2", "--seed", "5", input="? die\n? dragon\nq\n")
    assert result.exit_code == 0, result.output
    assert "six sides, 1 busts" in result.output
    assert "No card matches 'dragon'" in result.output


def test_the_unreadable_message_names_the_parentheses_the_menu_shows():
    en = run("play", "toy", "--players", "2", "--seed", "1", "--lang", "en", input=")(\nq\n")
    assert en.exit_code == 0, en.output
    assert "(roll)" in en.output or "(hold)" in en.output                # the notation, in parentheses
    assert "type a number or the notation shown in parentheses ()" in " ".join(en.output.split())
    assert "brackets" not in en.output
    ja = run("play", "toy", "--players", "2", "--seed", "1", "--lang", "ja", input=")(\nq\n")
    assert "一覧の丸かっこ () 内の表記を入力してください" in ja.output.replace(" \n", " ").replace("\n", "")


def test_refusals_speak_the_tables_language():
    result = run("play", "toy", "--players", "2", "--seed", "1", "--lang", "ja", input="fly 3\n)(\n99\nq\n")
    assert result.exit_code == 0, result.output
    assert "「fly 3」は今はできません" in result.output
    assert "「)(」は行動として読めません" in result.output
    assert "選択肢 99 はありません" in result.output


# ----- ドラフト戦国大名's table title -------------------------------------------------------------
@pytest.mark.parametrize("lang,title,wrong", [("en", "Round 1 — draft", "turn 0"),
                                              ("ja", "第1ラウンド — ドラフト", "ターン0")])
def test_draft_daimyo_names_no_turn_while_drafting(lang, title, wrong):
    result = run("play", "draft_daimyo", "--players", "3", "--seed", "3", "--bots", "random", "--lang", lang,
                 input="q\n")
    assert result.exit_code == 0, result.output
    assert title in result.output and wrong not in result.output


def test_draft_daimyo_counts_the_turns_of_a_round_from_1_and_drafts_without_a_turn():
    from takujo.bots import make_bot
    from takujo.core import Rng
    from takujo.present import Renderer
    game = takujo.load("draft_daimyo(players=3)")
    state, bot, rng = game.new_state(3), make_bot("random", game), Rng(1)
    r = Renderer(game, "en", markup=False)
    titles = []
    while state.outcome is None and (state.view(0)["public"]["round"] < 2 or state.view(0)["public"]["phase"] != "draft"):
        titles.append(r.view(state.view(0)).splitlines()[0])
        p = next(q for q in state.pending.players if q in state.to_act)
        state.apply(bot.act(state.view(p), state.legal_actions(p), rng))
    assert titles[0].startswith("Round 1 — draft")
    assert {t.split(" — ")[0] for t in titles} == {"Round 1", *(f"Round 1, turn {n}" for n in range(1, 5))}
    assert r.view(state.view(0)).splitlines()[0].startswith("Round 2 — draft")     # not round 1's turn 4


def _sengoku_at_the_terminal(typed: str) -> tuple[TerminalTable, str]:
    game = takujo.load("sengoku_taisen", deck1="蒼", deck2="紅")
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    table = TerminalTable(game.new_state(1), 1, ["human", "random"], [0], {1: make_bot("random", game)},
                          {1: Rng(1)}, console, Renderer(game, "en"), stdin=io.StringIO(typed))
    return table, out.getvalue


def _concede_number(output: str) -> int:
    """The number the first menu printed gives conceding (its label is its notation)."""
    return int(re.search(r"^\s+(\d+)\. concede$", output, re.M).group(1))  # type: ignore[union-attr]


def test_the_terminal_offers_conceding_last_and_it_ends_the_game():
    """SGT-WIN-04: a player may concede at any time; the terminal lists it after the
    decision's own choices, by number or typed, and the other player wins."""
    table, printed = _sengoku_at_the_terminal("concede\n")
    table.run()
    assert table.state.outcome is not None and table.state.outcome.winners == (1,)
    first_menu = _menus(printed())[0]           # keep, mulligan (with their notation), then concede
    assert _concede_number(printed()) == max(first_menu.values()) + 1


def test_conceding_by_its_number():
    table, printed = _sengoku_at_the_terminal("q\n")
    with pytest.raises(Quit):
        table.run()
    number = _concede_number(printed())
    table, printed = _sengoku_at_the_terminal(f"{number}\n")
    table.run()
    assert table.state.outcome is not None and table.state.outcome.winners == (1,)
