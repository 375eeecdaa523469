"""Ibara's caches live on the game and are bounded: a process playing game after game keeps
a fixed amount of memory for them (module-level caches grew with every game)."""
from __future__ import annotations

import takujo
from takujo.core import Rng
from takujo.games.ibara import board, combat, content


def _play(game, seeds) -> None:
    for seed in seeds:
        s = game.new_state(seed)
        rng = Rng(seed)
        while s.outcome is None:
            pend, legal = s.first_choice()
            s.apply_unchecked(legal[rng.below(len(legal))], pend)


def test_no_module_level_cache_grows():
    """Nothing of a game's play is kept at module level: not the reachable squares, not the
    multi-card plays (they sat in the lru-cached content, shared by every game)."""
    game = takujo.load("ibara", multi_card_combat=True)
    _play(game, range(3))
    assert not hasattr(board, "_REACH")
    assert not hasattr(game.content, "plays")
    assert game.reach_cache and game.plays_cache
    other = takujo.load("ibara", multi_card_combat=True)
    assert other.reach_cache == {} and other.plays_cache == {}


def test_caches_are_bounded(monkeypatch):
    monkeypatch.setattr(board, "REACH_CACHED", 50)
    monkeypatch.setattr(combat, "PLAYS_CACHED", 20)
    game = takujo.load("ibara", multi_card_combat=True)
    _play(game, range(6))
    assert 0 < len(game.reach_cache) <= 50 and 0 < len(game.plays_cache) <= 20


def _reference(start: int, steps: int, blocked: set[int]) -> tuple[int, ...]:
    """Breadth first over sets: pass through empty squares only, stop on a blocked one."""
    reached, frontier = {start}, [start]
    for _ in range(steps):
        nxt = []
        for s in frontier:
            if s == start or s not in blocked:
                for t in board.ADJ[s]:
                    if t not in reached:
                        reached.add(t)
                        nxt.append(t)
        frontier = nxt
    return tuple(sorted(reached - {start}))


def test_reachable_squares_agree_with_a_plain_search_cached_or_not():
    rng = Rng(7)
    cache: dict = {}
    for _ in range(3000):
        start = board.SQUARES[rng.below(len(board.SQUARES))]
        steps = 1 + rng.below(6)
        blocked = {sq for sq in board.SQUARES if sq != start and rng.below(4) == 0}
        mask = sum(board.BIT[sq] for sq in blocked)
        want = _reference(start, steps, blocked)
        assert board.reachable(start, steps, mask) == want
        assert board.reachable(start, steps, mask, cache) == want
        assert board.reachable(start, steps, mask, cache) == want


def test_content_stays_shared_but_holds_no_play_state():
    a = takujo.load("ibara").content
    assert a is takujo.load("ibara", players=3).content is content.content(str(content.CONTENT_FILE))


def test_the_invariant_check_finds_a_stale_cache_and_keeps_the_caches():
    """`check_invariants` recomputes the legal actions with empty caches: a reachable-squares
    cache that went wrong is reported, and the caches the game had are there afterwards."""
    game = takujo.load("ibara")
    s = game.new_state(3)
    rng = Rng(3)
    while not any(a.verb == "move" for a in s.legal_actions()):
        pend, legal = s.first_choice()
        s.apply_unchecked(legal[rng.below(len(legal))], pend)
    assert s.check_invariants() == []
    kept = dict(game.reach_cache)
    assert kept
    for key in game.reach_cache:
        game.reach_cache[key] = ()                       # every square unreachable
    problems = s.check_invariants()
    assert problems and "differ from the caches" in problems[0]
    assert game.reach_cache.keys() == kept.keys() and all(v == () for v in game.reach_cache.values())
    game.reach_cache.update(kept)
    assert s.check_invariants() == []
