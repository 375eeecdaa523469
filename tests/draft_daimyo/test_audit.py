"""ドラフト戦国大名: options that belong together, data checked at load, hidden information in
commits, views and sampled worlds, the effect vocabulary, and the terminal's sentences."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import takujo
from takujo.core.decision import DecisionKind
from takujo.core.errors import CardDataError, OptionError
from takujo.core.rng import Rng
from takujo.games.draft_daimyo import cards as cards_module
from takujo.games.draft_daimyo import effects as effects_module
from takujo.games.draft_daimyo.board import MAP_FILE
from takujo.games.draft_daimyo.cards import CARD_FILE
from takujo.games.draft_daimyo.effects import VERBS
from takujo.games.draft_daimyo.state import CHOOSE, DRAFT, TACTIC
from takujo.present import Renderer

from .helpers import act, card, events, hold, legal, province, table, take, to_domain

SPECS = ["draft_daimyo", "draft_daimyo(expansion=true)",
         "draft_daimyo(expansion=true,tactics=true,turn_order_choice=true)", "draft_daimyo(players=3)"]


def random_game(game, seed: int, until=None):
    """Play random legal actions from a new game; stop at the end or when `until(state)`."""
    s = game.new_state(seed)
    rng = Rng(seed + 100)
    while s.outcome is None and not (until and until(s)):
        p = s.pending.players[rng.below(len(s.pending.players))]
        legal_now = s.legal_actions(p)
        s.apply(legal_now[rng.below(len(legal_now))])
    return s


# ----- options -------------------------------------------------------------------------------
def test_tactics_without_the_expansion_is_refused_naming_both_options():
    """DSD-COMP-08 lists the 8 tactics cards among the expansion's 36 cards, so the tactics rule
    (DSD-TACTICS-01) needs the expansion: asked for alone, it is refused with a clear error."""
    for make in (lambda: takujo.load("draft_daimyo", tactics=True),
                 lambda: takujo.load("draft_daimyo(tactics=true)"),
                 lambda: takujo.load("draft_daimyo", players=3, tactics=True, expansion=False)):
        with pytest.raises(OptionError) as err:
            make()
        assert "'tactics'" in str(err.value) and "'expansion'" in str(err.value)
    g = takujo.load("draft_daimyo", tactics=True, expansion=True)
    assert len(g.cards.ids("tactics")) == 8


# ----- 金ヶ崎の退き口 --------------------------------------------------------------------------
def _kanegasaki_battle(defender_has_neighbour: bool, castle: bool = False):
    """Seat 0 marches 2 from 三河 into 遠江, held by seat 1 with 1 soldier; seat 1 holds
    金ヶ崎の退き口 and (optionally) 信濃南 next to 遠江, and a castle in 遠江."""
    s = table(expansion=True, tactics=True)
    mikawa, toto = hold(s, 0, "三河", 3), hold(s, 1, "遠江", 1)
    if defender_has_neighbour:
        hold(s, 1, "信濃南", 1)
    if castle:
        s.castles[to_domain(s, 1, "城")] = toto
    k = take(s, card(s, "金ヶ崎の退き口"))
    s.tactics_hand[1] = [k]
    act(s, f"march {mikawa} {toto} 2")
    return s, k, toto


def test_kanegasaki_is_offered_only_where_its_retreat_can_happen():
    """DSD-CARD-06/07: "城は退却できないため、城のある領地に戦術カード【金ヶ崎の退き口】の効果を使用する
    ことはできません" — the card is a retreat, so it is offered only where a retreat can happen:
    not in a province with a castle, and not for a defender with no adjacent province of their
    own to fall back to. The holder is still asked (the count is public) and may only decline."""
    s, k, _ = _kanegasaki_battle(defender_has_neighbour=True)
    assert s.phase == TACTIC and f"tactic {k}" in legal(s, 1)
    for neighbour, castle in ((False, False), (True, True)):
        s, k, toto = _kanegasaki_battle(neighbour, castle)
        assert s.phase == TACTIC and s.pending.players == (1,)
        assert legal(s, 1) == {"notactic"}
        act(s, "notactic", 1)
        assert s.tactics_hand[1] == [k] and not events(s, "withdrew")


def test_kanegasaki_withdraws_to_the_adjacent_province():
    """DSD-TACTICS-USE-10: where it is offered, the defender's soldiers go to their adjacent
    province without loss and the attacker's marching soldiers take the abandoned one."""
    s, k, toto = _kanegasaki_battle(defender_has_neighbour=True)
    act(s, f"tactic {k}", 1)
    shinano = province(s, "信濃南")
    assert s.soldiers[shinano] == 2 and s.owner[toto] == 0 and s.soldiers[toto] == 2
    assert [e["province"] for e in events(s, "withdrew")] == [shinano]


# ----- the comment on 竹中半兵衛 ----------------------------------------------------------------
def test_vocabulary_comments_name_the_cards_that_carry_each_ability():
    """The comment on each constant ability in the vocabulary names a card that has it in the
    card data (ignore_defence is 竹中半兵衛's, not 真田昌幸's)."""
    source = (Path(effects_module.__file__).parent / "effects.py").read_text(encoding="utf-8")  # the source, in a compiled build too
    specs = cards_module.load(str(CARD_FILE))[1]
    for verb in ("ignore_defence", "gekokujo_defection"):
        line = next(x for x in source.splitlines() if x.strip().startswith(f'("{verb}"'))
        named = set(re.findall(r"#\s*([^:]+):", line))
        holders = {s.name_ja for s in specs if any(e.do == verb for e in s.constant)}
        assert named and named <= holders, f"{verb}: comment names {named}, data gives {holders}"


# ----- data checked at load ------------------------------------------------------------------
def _card_blocks() -> tuple[str, list[str]]:
    text = CARD_FILE.read_text(encoding="utf-8")
    head, *blocks = text.split("\n[[card]]\n")
    return head, blocks


def _write_cards(tmp_path: Path, keep, name: str = "cards.toml") -> Path:
    head, blocks = _card_blocks()
    path = tmp_path / name
    path.write_text(head + "".join("\n[[card]]\n" + b for b in blocks if keep(b)), encoding="utf-8")
    return path


def test_cards_without_events_are_refused_at_load(tmp_path):
    """Rounds 2-4 each turn up two events [public]: a card list with none would fail in round 2;
    it is refused when the game is loaded, naming the file and what is missing."""
    path = _write_cards(tmp_path, lambda b: 'type = "event"' not in b)
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", cards=str(path))
    assert str(path) in str(err.value) and "event" in str(err.value)
    base_events_only = _write_cards(tmp_path, lambda b: not ('type = "event"' in b and 'set = "expansion"' not in b),
                                    "cards2.toml")
    with pytest.raises(CardDataError) as err:              # the base game has no events left
        takujo.load("draft_daimyo", cards=str(base_events_only))
    assert str(base_events_only) in str(err.value)


def test_cards_without_draft_cards_are_refused_at_load(tmp_path):
    """Every round deals draft packets: a list with no warlord, development or strategy would
    leave the draft with nothing to pick; it is refused at load."""
    path = _write_cards(tmp_path, lambda b: re.search(r'type = "(warlord|development|strategy)"', b) is None)
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", cards=str(path))
    assert str(path) in str(err.value) and "draft" in str(err.value)


def test_a_tiny_draft_deck_still_plays_to_the_end(tmp_path):
    """With fewer draft cards than players, the players with an empty packet are not asked to
    pick (the packet sizes are public), and the game still ends."""
    kept = {"rakuichi_rakuza", "kokujin_no_sanjin"}
    path = _write_cards(tmp_path, lambda b: re.search(r'^id = "([a-z_]+)"', b, re.M).group(1) in kept)
    game = takujo.load("draft_daimyo", cards=str(path))
    assert len(game.cards.ids("strategy")) == 1 and len(game.cards.ids("event")) == 1
    s = game.new_state(1)
    assert s.phase == DRAFT and len(s.pending.players) == 1
    s = random_game(game, 1)
    assert s.outcome is not None


@pytest.mark.parametrize("snippet, words", [
    ('type = "event"\nplay = {do = "subvert", min_defection = 3}', ["event", "subvert"]),
    ('type = "honour"\nplay = {do = "gold", n = 1}', ["honour", "gold"]),
    ('type = "strategy"\nplay = {do = "gold", n = 1}\nconstant = [{do = "income", gold = 1}]', ["constant"]),
    ('type = "warlord"\nconstant = [{do = "gold", n = 1}]', ["constant", "gold"]),
    ('type = "strategy"\nplay = {do = "gold", n = 1}\nside = "attacker"', ["side"]),
    ('type = "tactics"\nside = "defender"\nplay = {do = "plunder", gold = 2}', ["plunder", "attacker"]),
    ('type = "strategy"\ncastle = true\nplay = {do = "gold", n = 1}', ["castle"]),
])
def test_cards_the_rules_cannot_use_are_refused(tmp_path, snippet, words):
    """A card whose effect its type cannot carry out (an event with a target to choose, an
    honour card that is not a measure, a constant ability on a card that does not stay in
    play, a tactics effect for the wrong side …) is refused, naming file, card and problem."""
    path = tmp_path / "cards.toml"
    base = CARD_FILE.read_text(encoding="utf-8")
    path.write_text(base + f'\n[[card]]\nid = "odd_card"\nname_ja = "奇"\nname_en = "Odd"\n{snippet}\n',
                    encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", cards=str(path))
    msg = str(err.value)
    assert str(path) in msg and "odd_card" in msg and all(w in msg for w in words), msg


@pytest.mark.parametrize("old, new, words", [
    ('home = "織田"\nadjacent = ["mino", "mikawa"]', 'home = "織田"\nadjacent = ["mino", "mikawa", "owari"]',
     ["owari", "itself"]),
    ('id = "mino"', 'id = "owari"', ["owari", "duplicate"]),
    ('name_ja = "美濃"', 'name_ja = ""', ["mino", "name_ja"]),       # every message names it
])
def test_maps_the_rules_cannot_use_are_refused(tmp_path, old, new, words):
    """A province adjacent to itself (a march that goes nowhere), two provinces with one id or
    a province without a name are refused at load, naming the file and the province."""
    text = MAP_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "map.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        takujo.load("draft_daimyo", board=str(path))
    msg = str(err.value)
    assert str(path) in msg and all(w in msg for w in words), msg


@pytest.mark.parametrize("option", ["cards", "board"])
def test_folders_and_non_utf8_files_give_clear_errors(tmp_path, option):
    """A folder, a file that is not UTF-8 and a missing file are refused with a CardDataError
    naming the path, without quoting the file."""
    latin = tmp_path / "latin1.toml"
    latin.write_bytes("name_ja = 'é secret'\n".encode("latin-1"))
    for path, word in ((tmp_path, "folder"), (latin, "UTF-8"), (tmp_path / "none.toml", "not found")):
        with pytest.raises(CardDataError) as err:
            takujo.load("draft_daimyo", **{option: str(path)})
        assert str(path) in str(err.value) and word in str(err.value)
        assert "secret" not in str(err.value)


# ----- hidden information --------------------------------------------------------------------
def _tactics_battle():
    """Seat 0 (two tactics cards) attacks seat 1 (one card) from 美濃 into 信濃南."""
    s = table(expansion=True, tactics=True)
    for p, names in ((0, ("毘沙門天の化身", "略奪")), (1, ("野戦築城",))):
        s.tactics_hand[p] = [take(s, card(s, n)) for n in names]
    mino, sm = hold(s, 0, "美濃", 4), hold(s, 1, "信濃南", 2)
    act(s, f"march {mino} {sm} 2")
    return s


def test_a_tactics_declaration_is_a_hidden_commit_logged_for_its_maker_only():
    """DSD-TACTICS-USE-07/08: the attacker, then the defender, place a card face down: an
    ordered commit; the action is logged for its maker only from the start, and no earlier log
    entry is rewritten (a clone taken before shares nothing that changes)."""
    s = _tactics_battle()
    assert s.pending.kind is DecisionKind.SIMULTANEOUS and s.pending.players == (0,)
    twin = s.clone()
    before = [dict(e) for e in s.log]
    act(s, f"tactic {card(s, '毘沙門天の化身')}", 0)
    assert [dict(e) for e in s.log[:len(before)]] == before
    declared = [e for e in s.log[len(before):] if e["e"] == "act"]
    assert [e["to"] for e in declared] == [[0]]
    assert twin.log == before and twin.pending.players == (0,)
    assert s.pending.players == (1,)
    for q in (1, 2, 3, None):
        assert not any(e["e"] == "act" and e["player"] == 0 for e in s.view(q)["log"][-3:])


def test_who_declares_does_not_depend_on_which_tactics_cards_are_held():
    """DSD-TACTICS-GAIN-06: whoever holds tactics cards is asked whatever they are; the
    defender's view is the same whichever cards the attacker holds, before and after he
    declines."""
    seen = []
    for names in (("毘沙門天の化身", "略奪"), ("野戦築城", "伏兵")):     # usable, then not usable
        s = table(expansion=True, tactics=True)
        s.tactics_hand[0] = [take(s, card(s, n)) for n in names]
        s.tactics_hand[1] = [take(s, card(s, "詭計の成功"))]
        mino, sm = hold(s, 0, "美濃", 4), hold(s, 1, "信濃南", 2)
        act(s, f"march {mino} {sm} 2")
        first = s.view(1)
        act(s, "notactic", 0)
        seen.append((first, s.view(1)))
    assert seen[0] == seen[1]


def test_views_json_and_clones_share_nothing_mutable_in_a_battle():
    """Views, JSON and clones of a state in the middle of a tactics declaration hold fresh
    copies: editing them (the battle frame, the commits, nested lists) leaves the game alone."""
    s = _tactics_battle()
    act(s, f"tactic {card(s, '毘沙門天の化身')}", 0)
    before = s.to_json()
    for other in (s.view(0), s.view(1), s.view(None), s.to_json()):
        battle = other["public"]["battle"] if "public" in other else other["battle"]
        battle["cards"].append(99)
        battle["attacker"] = 3
    twin = s.clone()
    twin.battle.cards[0] = -1
    twin.commits.choices.clear()
    twin.tactics_played[0].clear()
    twin.soldiers[0] = 99
    assert s.to_json() == before


def _strip_log(view: dict) -> dict:
    return {**view, "log": []}


@pytest.mark.parametrize("spec", SPECS)
def test_determinize_agrees_with_every_view_without_reading_the_log(spec):
    """A world sampled from any player's view (to act or not) shows that player the same view,
    even when the view's log is empty (it holds only the latest events); at game over the
    outcome stays."""
    game = takujo.load(spec)
    for seed in range(2):
        s = game.new_state(seed)
        rng = Rng(seed)
        while True:
            for p in range(game.players):
                view = s.view(p)
                world = game.determinize(_strip_log(view), Rng(s.steps))
                seen = world.view(p)
                for key in ("zones", "public", "pending", "legal", "outcome", "version"):
                    assert seen[key] == view[key], f"{spec} seed {seed} step {s.steps} player {p}: {key}"
            if s.outcome is not None:
                break
            p = s.pending.players[rng.below(len(s.pending.players))]
            options = s.legal_actions(p)
            s.apply(options[rng.below(len(options))])


def test_determinize_keeps_my_committed_pick_when_the_log_has_moved_on():
    """A player who has picked in the draft sees the pick in their hand; a world sampled from
    their view keeps it there and does not ask them again, whatever the log holds."""
    game = takujo.load("draft_daimyo")
    s = game.new_state(4)
    pick = s.packets[2][0]
    act(s, f"pick {pick}", 2)
    world = game.determinize(_strip_log(s.view(2)), Rng(1))
    assert world.hand[2] == [pick] and 2 not in world.pending.players
    assert world.legal_actions(2) == [] and world.phase == DRAFT
    for p in (0, 1, 3):
        act(world, f"pick {world.packets[p][0]}", p)
    assert world.phase == DRAFT and world.pick_no == 1 and pick in world.hand[2]


def test_determinize_in_a_tactics_declaration_keeps_the_placed_card():
    """DSD-TACTICS-USE-08: after the attacker placed a card, the attacker's sampled world keeps
    that card face down and the defender's world has some card placed, never a refusal."""
    s = _tactics_battle()
    bish = card(s, "毘沙門天の化身")
    act(s, f"tactic {bish}", 0)
    game = s.game
    mine = game.determinize(_strip_log(s.view(0)), Rng(2))
    assert mine.tactics_played[0] == [bish] and mine.battle.cards[0] == bish
    theirs = game.determinize(_strip_log(s.view(1)), Rng(2))
    assert len(theirs.tactics_played[0]) == 1 and theirs.battle.cards[0] >= 0
    assert theirs.pending.players == (1,) and theirs.pending.kind is DecisionKind.SIMULTANEOUS
    act(theirs, "notactic", 1)
    assert theirs.battle is None and theirs.tactics_discard == theirs.tactics_discard[:1] + theirs.tactics_discard[1:]


# ----- the effect vocabulary -----------------------------------------------------------------
def test_every_declared_effect_parameter_is_read_by_a_rule(monkeypatch):
    """Every parameter the vocabulary allows for a verb that the shipped cards use is read by
    the rules while games are loaded and played (a parameter nobody reads must be dropped from
    the vocabulary, so that the loader refuses it)."""
    reads: set[tuple[str, str]] = set()
    original = cards_module.Effect.get

    def get(self, key, default=None):
        reads.add((self.do, key))
        return original(self, key, default)

    monkeypatch.setattr(cards_module.Effect, "get", get)
    games = [takujo.load(spec) for spec in ("draft_daimyo", "draft_daimyo(expansion=true,tactics=true)")]
    used = {e.do for game in games for c in game.cards.cards
            for e in (c.spec.play, *c.spec.constant) if e is not None}
    declared = {(verb, name) for verb in used for name in VERBS[verb].params}
    for seed in range(200):  # random games until every parameter has been read (a rare card may need many)
        for game in games:
            random_game(game, seed)
        if declared <= reads:
            break
    assert declared - reads == set()


# ----- the terminal --------------------------------------------------------------------------
def ja(game):
    """Plain Japanese text of this game's messages."""
    return Renderer(game, "ja", markup=False)


def test_every_event_kind_renders_as_a_sentence():
    """Every kind of event random games log (options on and off, 3 and 4 players) renders as
    a sentence of its own in both languages, not the generic `kind: k=v` line nor a missing
    message; only shuffles are silent."""
    kinds: dict[str, tuple[str, dict]] = {}
    wanted = ("uprising", "effect", "withdrew", "plundered", "tactic_placed", "order_chosen", "rest")
    games = [takujo.load(spec) for spec in SPECS]
    for seed in range(60):  # until every kind named below has been logged (at least 8 seeds)
        for spec, game in zip(SPECS, games):
            for e in random_game(game, seed).log:
                kinds.setdefault(e["e"], (spec, e))
        if seed >= 7 and all(k in kinds for k in wanted):
            break
    silent = takujo.load("draft_daimyo").silent_events()
    assert silent == {"shuffle", "act"}
    for kind in wanted:
        assert kind in kinds, f"no random game logged {kind}"
    for kind, (spec, e) in kinds.items():
        if kind in silent:
            assert Renderer(takujo.load(spec), "en").event(dict(e)) is None
            continue
        for lang in ("ja", "en"):
            game = takujo.load(spec)
            msg_id, _ = Renderer(game, lang).event_message(dict(e))
            text = Renderer(game, lang, markup=False).event(dict(e), 0)
            assert msg_id != "event.unknown", kind
            assert text and not text.startswith(f"{kind}:") and not re.search(r"\w=\S", text), (kind, text)
            assert not text.startswith(msg_id + "("), (kind, text)


def test_an_uprising_that_killed_a_soldier_says_so():
    """一向一揆: the rebels fight the leader's soldiers; the log says where, how many died and what
    became of the province, and says so when nothing happened."""
    s = table()
    s.vp = [9, 0, 0, 0]
    mino = hold(s, 0, "美濃", 3)
    e = take(s, card(s, "一向一揆"))
    from takujo.games.draft_daimyo import effects
    effects.resolve(s, -1, s.card(e).spec.play, (), source=e)
    up = events(s, "uprising")[-1]
    assert (up["province"], up["lost"], up["rebels"]) == (mino, 2, 0) and s.soldiers[mino] == 1
    text = ja(s.game).event(up, 1)
    assert "美濃" in text and "2人" in text and "織田" in text and "持ちこたえた" in text
    en = Renderer(s.game, "en", markup=False).event(up, 0)
    assert en == "Ikko uprising in Mino (美濃) of you (Oda): 2 soldiers lost, but the province held"
    s2 = table()
    s2.vp = [9, 0, 0, 0]
    effects.resolve(s2, -1, s2.card(e).spec.play, (), source=e)
    assert "何も起きなかった" in ja(s2.game).event(events(s2, "uprising")[-1])
    assert "何も得なかった" in ja(s2.game).event(events(s2, "effect")[-1])


def test_battle_dice_say_who_rolled_how_many_and_how_many_hit():
    s = table()
    mino, sm = hold(s, 0, "美濃", 4), hold(s, 1, "信濃南", 2)
    act(s, f"march {mino} {sm} 2")
    en = Renderer(s.game, "en", markup=False)
    for e in events(s, "roll"):
        text = ja(s.game).event(e, 2)
        hits = sum(1 for f in e["faces"] if f >= 5)
        who = {0: "織田", 1: "武田"}[e["player"]]
        assert who in text and f"ダイス{len(e['faces'])}個" in text and f"{hits}ヒット" in text
        text = en.event(e, 0)
        who = {0: "you (Oda)", 1: "player 1 (Takeda)"}[e["player"]]
        dice = f"{len(e['faces'])} {'die' if len(e['faces']) == 1 else 'dice'}"
        assert f"{who} rolled {dice}: {e['faces']} → {hits} hit" in text


def test_effects_and_income_that_give_nothing_say_so():
    s = table()
    e = take(s, card(s, "御馬揃え"))                    # VP per warlord: nobody has one
    from takujo.games.draft_daimyo import effects
    effects.resolve(s, -1, s.card(e).spec.play, (), source=e)
    assert "何も得なかった" in ja(s.game).event(events(s, "effect")[-1])
    to_domain(s, 1, "柴田勝家")
    effects.resolve(s, -1, s.card(e).spec.play, (), source=e)
    text = ja(s.game).event(events(s, "effect")[-1])
    assert "武田) +2勝利点" in text
    assert "なし" in ja(s.game).event({"e": "income", "to": None, "player": 2, "gold": 0, "vp": 0})


def test_card_info_gives_the_full_text_with_both_names():
    game = takujo.load("draft_daimyo", expansion=True, tactics=True)
    found = ja(game).card_info("KANEGASAKI")
    assert len(found) == 1
    text = found[0]
    assert "金ヶ崎の退き口" in text and "Retreat from Kanegasaki" in text and "防御側" in text
    assert "castle" in text and "城のある領地では使えない" in text
    by_ja = ja(game).card_info("竹中")
    assert len(by_ja) == 1 and "Takenaka Hanbei" in by_ja[0] and "離反値2" in by_ja[0]
    assert len(ja(game).card_info("sanada_masayuki")) == 1
    assert ja(game).card_info("no such card") == []
    assert len(ja(takujo.load("draft_daimyo")).card_info("城")) >= 2          # 城 and 城下町の発展


@pytest.mark.parametrize("spec", SPECS[2:])
def test_states_of_every_phase_share_no_mutable_object_with_clones_views_or_json(spec):
    """With every option on (order choices, tactics declarations, battles), no list, dict or set
    of a state is reachable from its clone, its JSON or any player's view."""
    from tests.checks import game_objects, reachable_mutables, shared_by_clones
    game = takujo.load(spec)
    skip = game_objects(game)
    phases = set()
    for seed in range(3):
        s = game.new_state(seed)
        rng = Rng(seed)
        while s.outcome is None:
            if s.steps % 5 == 0 or s.phase == TACTIC:
                phases.add(s.phase)
                live = set(reachable_mutables(s, skip)) - {id(s)}
                assert live
                may_share = shared_by_clones(s)
                for other in (s.clone(), s.to_json(), *(s.view(p) for p in [*range(game.players), None])):
                    shared = set(reachable_mutables(other, skip)) & live
                    if isinstance(other, type(s)):
                        shared -= may_share   # the log (copied on write) and its events, which never change
                    assert not shared
            p = s.pending.players[rng.below(len(s.pending.players))]
            options = s.legal_actions(p)
            s.apply(options[rng.below(len(options))])
    assert {DRAFT, CHOOSE} <= phases and (TACTIC in phases or "tactics=true" not in spec)
