"""IS-MCTS and determinization: sampled worlds agree with the view; the bot cannot peek."""
from __future__ import annotations

import pytest

import takujo
from takujo.bots import make_bot
from takujo.bots.ismcts import ISMCTS
from takujo.core import OptionError, Rng, shuffle_unseen


def _supports_determinize(name: str) -> bool:
    game = takujo.load(name)
    try:
        game.determinize(game.new_state(0).view(0), Rng(0))
    except NotImplementedError:
        return False
    return True


DETERMINIZABLE = [n for n in takujo.names() if _supports_determinize(n)]
WITH_OPTIONS = ["ibara(multi_card_combat=true,sp_cards_to_hand=true,gaiblitz_buff=true)",
                "draft_daimyo(expansion=true,tactics=true,turn_order_choice=true)",
                "sengoku_taisen(deck1=黒,deck2=翠)", "fuutei(players=5,old_region_rule=true)"]


@pytest.mark.parametrize("name", DETERMINIZABLE + WITH_OPTIONS)
def test_sampled_worlds_agree_with_everything_the_player_sees(name):
    """For every player (to act or not, asked in a response window or not), at every step and
    at game over, a world sampled from the player's view shows that player the same view."""
    game = takujo.load(name)
    checked = 0
    for seed in range(3):
        state = game.new_state(seed)
        rng = Rng(seed)
        while True:
            for p in range(game.players):
                view = state.view(p)
                world = game.determinize(view, Rng(state.steps))
                seen = world.view(p)
                for key in ("zones", "public", "pending", "legal", "outcome"):
                    assert seen[key] == view[key], (f"{name} seed {seed} step {state.steps} player {p}: "
                                                    f"{key} differs")
                checked += 1
            if state.outcome is not None or state.steps >= 300:
                break
            legal = state.legal_actions(state.pending.players[0])
            state.apply(legal[rng.below(len(legal))])
        if state.steps < 300:
            assert state.outcome is not None
    assert checked > 300


def test_sampled_worlds_keep_the_outcome_at_game_over():
    for name in DETERMINIZABLE:
        game = takujo.load(name)
        state = game.new_state(1)
        rng = Rng(1)
        while state.outcome is None:
            legal = state.legal_actions(state.pending.players[0])
            state.apply(legal[rng.below(len(legal))])
        for p in range(game.players):
            world = game.determinize(state.view(p), Rng(3))
            assert world.outcome == state.outcome, name
            assert world.pending is None and world.legal_actions() == []


@pytest.mark.parametrize("name", DETERMINIZABLE)
def test_ismcts_cannot_peek_at_hidden_cards(name):
    """Changing cards the bot cannot see, with the same RNG, never changes its choice."""
    game = takujo.load(name)
    state = game.new_state(2)
    rng = Rng(5)
    for _ in range(40):
        legal = state.legal_actions(state.pending.players[0])
        state.apply(legal[rng.below(len(legal))])
    p = state.pending.players[0]
    other = shuffle_unseen(state, p, Rng(99))
    assert other.to_json() != state.to_json()
    a = ISMCTS(game, iterations=25).act(state.view(p), state.legal_actions(p), Rng(11))
    b = ISMCTS(game, iterations=25).act(other.view(p), other.legal_actions(p), Rng(11))
    assert a == b and a in state.legal_actions(p)


def test_ismcts_budgets_and_names():
    game = takujo.load("fuutei", players=3)
    assert make_bot("ismcts:50", game).iterations == 50
    assert make_bot("ismcts:0.2s", game).seconds == 0.2
    with pytest.raises(OptionError, match="ismcts"):
        make_bot("ismcts:lots", game)
    with pytest.raises(OptionError, match="heuristic rollouts"):
        make_bot("ismcts:50:x", game)
    guided = make_bot("ismcts:20:h", game)
    assert guided.iterations == 20 and guided.policy is not None and guided.name == "ismcts:20:h"
    state = game.new_state(1)
    p = state.pending.players[0]
    bot = make_bot("ismcts:0.1s", game)
    action = bot.act(state.view(p), state.legal_actions(p), Rng(1))
    assert action in state.legal_actions(p) and bot.last_iterations > 0


def test_ismcts_finds_a_winning_invasion():
    """Fuutei: with 36 points and an undefended 9-point region to invade, the search takes it."""
    from tests.fuutei.helpers import act, of_type, put, table, weak
    s = table(2)
    regions = sorted(of_type(s, "region"), key=lambda r: s.cat[r].spec.points)
    mine = [r for r in regions if s.cat[r].spec.points in (7, 8)] + \
        [next(r for r in regions if s.cat[r].spec.points == 6)]
    for r in mine:
        put(s, r, region=0)
    assert 30 <= s.points(0) < 40
    target = next(r for r in reversed(regions) if r not in mine)
    put(s, target, region=1)
    assert s.points(0) + s.cat[target].spec.points >= 40
    char = put(s, weak(s, 0), party=0)
    put(s, weak(s, 1), party=1)
    act(s, "end")
    bot = ISMCTS(s.game, iterations=60)
    choice = bot.act(s.view(0), s.legal_actions(0), Rng(3))
    assert str(choice) == f"invade {char} {target}"


class _Always:
    """A prior that always names the last legal action."""

    name = "last"

    def act(self, view, legal, rng):
        return legal[-1]


def test_prior_choice_is_tried_first_and_kept_without_evidence():
    """With one iteration the search has only the prior's choice to go on."""
    game = takujo.load("fuutei", players=4)
    state = game.new_state(2)
    p = state.pending.players[0]
    legal = state.legal_actions(p)
    assert len(legal) > 2
    bot = ISMCTS(game, iterations=1, prior=_Always())
    assert bot.act(state.view(p), legal, Rng(5)) == legal[-1]
    plain = [ISMCTS(game, iterations=1).act(state.view(p), legal, Rng(seed)) for seed in range(8)]
    assert len(set(plain)) > 1                      # without a prior the first try is random


def test_default_bot_uses_the_game_heuristic_and_rollout_depth():
    game = takujo.load("ibara", players=4)
    bot = make_bot("ismcts:30", game)
    assert bot.prior is not None and bot.prior.name == "heuristic"
    assert bot.depth == game.rollout_depth
    assert ISMCTS(game, rollout_depth=3).depth == 3


def test_rewards_are_rescaled_to_the_spread_seen():
    """Four-player shares near 1/4 are spread over [0, 1] before exploration is added."""
    from takujo.bots.ismcts import Node
    bot = ISMCTS(takujo.load("fuutei", players=4), exploration=0.0)
    bot.lo, bot.hi = 0.2, 0.3
    assert bot._ucb(Node(visits=2, reward=0.5, avail=2)) == pytest.approx(0.5)
    assert bot._ucb(Node(visits=1, reward=0.3, avail=1)) == pytest.approx(1.0)
    assert bot._ucb(Node(visits=0)) == float("inf")


def test_fuutei_estimate_counts_party_strength():
    """Equal points: the stronger party is the likelier winner (the search's leaf score)."""
    from tests.fuutei.helpers import of_type, put, table
    s = table(2)
    chars = sorted(of_type(s, "character"), key=lambda c: sum(d.n for d in s.cat[c].stats))
    before = s.estimate()
    put(s, chars[-1], party=0)
    after = s.estimate()
    assert s.points(0) == s.points(1)
    assert after[0] > before[0] and sum(after) == pytest.approx(1.0)


def test_ibara_estimate_rewards_holding_the_wanted_items():
    """The escort holding what the face-up whim asks for beats holding some other item."""
    from tests.ibara.helpers import escort, give_item, show_whim, table

    def escort_share(item_id: str) -> float:
        s = table()
        escort(s, 0)
        show_whim(s, "nodo_ga_kawaita")          # asks for water
        give_item(s, 0, item_id)
        return s.estimate()[0]

    assert escort_share("water") > escort_share("food") + 0.05


def test_a_repeated_position_gets_a_different_answer():
    """The cycle guard: back in an information state it acted in, the bot never repeats the
    action it took there while others remain (so free moves cannot loop forever)."""
    game = takujo.load("fuutei", players=4)
    state = game.new_state(2)
    p = state.pending.players[0]
    view, legal = state.view(p), state.legal_actions(p)
    bot = ISMCTS(game, iterations=30)
    answers = [bot.act(view, legal, Rng(i)) for i in range(len(legal))]
    assert sorted(answers) == sorted(legal)                # each action once, then …
    assert bot.act(view, legal, Rng(99)) in legal          # … any again
    guided = ISMCTS(game, iterations=30, prior=_Always())
    first = guided.act(view, legal, Rng(1))
    unused = [a for a in legal if a != first]
    assert guided.act(view, legal, Rng(2)) == unused[-1]   # the prior decides on a repeat
    fresh = ISMCTS(game, iterations=30)
    fresh.act(view, legal, Rng(1))
    shorter = game.new_state(2).view(p)
    shorter["cursor"] = 1                                  # a new game: memory starts afresh
    assert fresh.cycles.taken_here(shorter) == set()


def test_prior_bonus_fades_or_lasts_as_the_game_chooses():
    """Default: 1 / (visits + 1), fading with the child's visits; a game with prior_puct keeps
    it growing with the root's visits (PUCT-style)."""
    from takujo.bots.ismcts import Node
    ibara, fuutei = takujo.load("ibara"), takujo.load("fuutei", players=4)
    assert ibara.prior_puct == 0 and fuutei.prior_puct > 0
    root, child = Node(visits=400), Node(visits=19)
    assert ISMCTS(ibara)._prior_bonus(root, child) == pytest.approx(1 / 20)
    assert ISMCTS(fuutei)._prior_bonus(root, child) == pytest.approx(fuutei.prior_puct * 20 / 20)
    assert ISMCTS(fuutei)._prior_bonus(Node(visits=1600), child) > ISMCTS(fuutei)._prior_bonus(root, child)
