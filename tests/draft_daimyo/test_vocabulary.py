"""A new effect verb that targets a place, added with nothing but its verb entry and its
message (tests/draft_daimyo/raid.py: ドラフト戦国大名's 焼き討ち, ``raid``, burning soldiers in a
province): the engine offers it with the province as a typed place, the terminal names the
province in its label and log line, the research adapters encode and decode it exactly (a
province slot, never a warlord card), the heuristic burns an opponent's province (the
leader's first), and the conformance kit passes on a card set that carries it. The card
loader refuses an unknown verb or parameter, naming it, and the registry leaves no verb
without a resolution or a rule that reads it. The board's side is in
tests/web/test_extension_board_draft_daimyo.py."""
from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

import takujo
from takujo.core import sources
from takujo.core.errors import CardDataError
from takujo.core.rng import Rng
from takujo.core.targets import Kind, Target
from takujo.games.draft_daimyo.cards import CARD_FILE
from takujo.games.draft_daimyo.effects import VERBS
from takujo.present.render import Renderer
from tests.conformance import test_conformance as kit
from tests.draft_daimyo import raid

PROVINCE = Target.place("province")


@pytest.fixture(scope="module")
def spec() -> Iterator[str]:
    raid.install()
    name = sources.register(raid.card_text())
    try:
        yield f"draft_daimyo(cards={name})"
    finally:
        raid.uninstall()


def raid_ids(game) -> set[int]:
    return {c.iid for c in game.cards.cards if c.spec.play is not None and c.spec.play.do == "raid"}


def raids(s, player: int) -> list:
    ids = raid_ids(s.game)
    return [a for a in s.legal_actions(player) if a.verb == "play" and a.args[0] in ids]


def states_offering_raid(game, seeds: range, per_game: int = 3) -> list:
    """Clones of states, from seeded random games, in which the player to act may play 焼き討ち."""
    out = []
    for seed in seeds:
        s, rng, taken = game.new_state(seed), Rng(seed), 0
        while s.outcome is None and taken < per_game:
            legal = s.legal_actions(s.pending.players[0])
            if raids(s, s.pending.players[0]):
                out.append(s.clone())
                taken += 1
            s.apply(legal[rng.below(len(legal))])
    return out


def test_the_engine_offers_raid_with_a_province_target(spec) -> None:
    game = takujo.load(spec)
    assert len(raid_ids(game)) == 3
    states = states_offering_raid(game, range(6))
    assert states, "no random game met a turn with 焼き討ち chosen"
    for s in states:
        me = s.pending.players[0]
        offered = raids(s, me)
        assert {a.args[1] for a in offered} == {pr for pr, o in enumerate(s.owner) if o >= 0 and s.soldiers[pr] >= 2}
        for a in offered:
            assert game.arg_kinds(a) == (Target.card("chosen"), PROVINCE)
            assert game.arg_problems(a) == []


def test_the_terminal_names_the_province_and_logs_the_raid(spec) -> None:
    game = takujo.load(spec)
    s = states_offering_raid(game, range(6))[0]
    me = s.pending.players[0]
    a = raids(s, me)[0]
    where, holder = a.args[1], s.owner[a.args[1]]
    en, ja = Renderer(game, "en", markup=False), Renderer(game, "ja", markup=False)
    province_en, province_ja = en.place("province", where), ja.place("province", where)
    assert province_en == f"{game.place_names('province', where)[1]} ({game.place_names('province', where)[0]})"
    assert en.action(a).startswith("play: Burning Raid (焼き討ち)") and en.action(a).endswith(f" (in {province_en})")
    assert ja.action(a).startswith("使う: 焼き討ち") and ja.action(a).endswith(f" ({province_ja})")
    before, start = s.soldiers[where], len(s.log)
    s.apply(a)
    assert s.soldiers[where] == before - 1
    played = next(e for e in s.log[start:] if e["e"] == "play")
    assert (en.event(played) or "").endswith(f"played Burning Raid (焼き討ち) (in {province_en})")
    effect = next(e for e in s.log[start:] if e["e"] == "effect")
    assert effect["do"] == "raid" and effect["target"] == where
    line = en.event(effect) or ""
    assert f"{en.player(holder)} (" in line and "-1 soldier" in line
    assert line.endswith(f"{province_en} was put to the torch")
    assert (ja.event(effect) or "").endswith(f"{province_ja} が焼き討ちにあった")
    assert en.card_info("焼き討ち")                      # the card reference finds it


def test_the_adapters_encode_and_decode_raid_exactly(spec) -> None:
    from takujo.adapters.driver import Table
    table = Table(spec)
    game = table.game
    seen = 0
    for s in states_offering_raid(game, range(6)):
        for a in s.legal_actions(s.pending.players[0]):
            i = table.index.index(a)
            assert table.index.action(i, a.player) == a
            if a.verb == "play" and a.args[0] in raid_ids(game):
                seen += 1
                # the slot after 焼き討ち is a province: the next province is the next number
                other = next(pr for pr in game.places("province") if pr != a.args[1])
                assert table.index.index(a._replace(args=(a.args[0], other))) - i == other - a.args[1]
    assert seen
    shape = next(sh for sh in table.index.shapes if sh.verb == "play")
    case = next(tail for head, tail in shape.cases if raid_ids(game) <= set(head.values))
    assert [slot.dom.values for slot in case] == [tuple(game.places("province"))]


def test_the_heuristic_burns_an_opponents_province_the_leaders_first(spec) -> None:
    game = takujo.load(spec)
    bot = game.heuristic_bot()
    chosen = []
    for s in states_offering_raid(game, range(12)):
        me = s.pending.players[0]
        a = bot.act(s.view(me), s.legal_actions(me), Rng(1))
        if a.verb == "play" and a.args[0] in raid_ids(game):
            others = [q for q in range(s.n) if q != me]
            leader = max(others, key=lambda q: (s.vp[q], -q))
            burnable = {s.owner[b.args[1]] for b in raids(s, me)}
            chosen.append((me, s.owner[a.args[1]], leader if leader in burnable else None))
        else:
            assert {s.owner[b.args[1]] for b in raids(s, me)} <= {me}   # sold: only its own to burn
    assert chosen, "the heuristic never played 焼き討ち"
    assert all(holder != me for me, holder, _ in chosen)
    assert all(holder == leader for _, holder, leader in chosen if leader is not None)


KIT = [name for name in dir(kit) if name.startswith("test_")
       and list(inspect.signature(getattr(kit, name)).parameters) == ["name"]]


@pytest.mark.parametrize("check", KIT)
def test_the_conformance_kit_passes_with_raid(spec, check) -> None:
    getattr(kit, check)(name=spec)


@pytest.mark.slow
def test_random_playouts_with_raid_end_with_conserved_cards(spec) -> None:
    """The kit's random playouts, fewer of them: the game without the new card has its own."""
    kit.test_random_playouts_end_with_conserved_cards(spec, games=kit.EXTENSION_PLAYOUTS)


def test_every_argument_of_every_legal_action_is_declared(spec) -> None:
    game = takujo.load(spec)
    for s in states_offering_raid(game, range(3)):
        for p in s.pending.players:
            for a in s.legal_actions(p):
                assert game.arg_problems(a) == []
                assert all(k.kind is not Kind.ANY for k in game.arg_kinds(a))


# ----- the loader's vocabulary ---------------------------------------------------------------
def refused(tmp_path: Path, text: str) -> tuple[str, str]:
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", cards=str(path))
    en, ja = err.value.text("en"), err.value.text("ja")
    assert str(path) in en and str(path) in ja and "yakiuchi" in en and "yakiuchi" in ja
    return en, ja


def test_an_unknown_verb_is_refused_naming_it(tmp_path, monkeypatch) -> None:
    """Without its entry, ``raid`` is no verb: the card naming it is refused, not played as
    nothing."""
    monkeypatch.delitem(VERBS, "raid", raising=False)     # (installed for the other tests)
    en, ja = refused(tmp_path, raid.card_text())
    assert "unknown effect 'raid'; known: ambush," in en and ", gold," in en
    assert "知らない効果 'raid'" in ja


def test_an_unknown_parameter_is_refused_naming_it(spec, tmp_path) -> None:
    """With its entry, ``raid`` takes ``n`` only: any other parameter is refused, not ignored."""
    text = raid.card_text().replace('play = {do = "raid", n = 1}', 'play = {do = "raid", n = 1, radius = 2}', 1)
    en, ja = refused(tmp_path, text)
    assert "effect 'raid' takes no parameter(s) radius; allowed: n" in en
    assert "効果 'raid' は引数 radius をとりません。とれる引数: n" in ja


@pytest.mark.parametrize("old, new, words", [
    ('play = {do = "famine"}', 'play = {do = "raid", n = 1}',
     ["(kikin)", "cannot have the play effect 'raid'; allowed: famine,"]),
    ('play = {do = "soldiers", n = 2}', 'play = {do = "attack_dice", n = 1}',
     ["a warlord card cannot have the play effect 'attack_dice'; allowed: famine,"]),
], ids=["raid on an event", "a constant as a play"])
def test_a_card_type_may_carry_only_its_verbs(spec, tmp_path, old, new, words) -> None:
    """``raid`` is registered for strategies: an event carrying it is refused, naming the
    verbs an event may carry; so is a passive verb (a constant ability) as a warlord's play."""
    text = CARD_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", cards=str(path))
    assert all(w in err.value.text("en") for w in words), err.value.text("en")


def test_every_verb_is_resolved_or_read_by_a_rule() -> None:
    """No verb is listed to do nothing: a verb a card plays has a resolution; the passive ones
    (constant abilities, honours, tactics) are never a drafted card's or an event's play."""
    played = {"warlord", "development", "strategy", "event"}
    for verb in VERBS.values():
        assert verb.passive == (verb.resolve is None)
        if verb.types & played:
            assert verb.resolve is not None, verb.name
        else:
            assert verb.passive and verb.types <= {"constant", "honour", "tactics"}, verb.name
    assert {v.name for v in VERBS.values() if v.passive} == (
        VERBS.for_type("constant") | VERBS.for_type("honour") | VERBS.for_type("tactics"))
