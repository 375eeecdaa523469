"""The effect vocabulary of 戦国大戦 双 cards, costs and their payment, and targeting.

Stratagems, ougi, counter-stratagems, formations and warlord abilities all name an effect
from `cards.EFFECTS`; this module says whom each effect may target and carries it out.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.piles import take_top
from .cards import STATIC, Cost, Effect

if TYPE_CHECKING:
    from .state import SengokuState


# ----- costs (SGT-COST-01..06, SGT-KOKU-11) --------------------------------------------------
def _ready_up(s: "SengokuState", p: int) -> list[int]:
    return [c for c in s.koku_up[p] if c not in s.exhausted]


def budget(s: "SengokuState", p: int) -> tuple[dict[str, int], int]:
    """What p can pay with now: ready face-up kokuryoku by colour, and all ready kokuryoku
    (face up and face down)."""
    inst, exhausted = s.inst, s.exhausted
    by_color: dict[str, int] = {}
    ready = len(s.koku_down[p]) - s.down_exhausted[p]
    for c in s.koku_up[p]:
        if c not in exhausted:
            col = inst[c].color
            by_color[col] = by_color.get(col, 0) + 1
            ready += 1
    return by_color, ready


def affordable(funds: tuple[dict[str, int], int], cost: Cost) -> bool:
    """Coloured parts need ready face-up kokuryoku of that colour; the generic part any."""
    by_color, left = funds
    for col, n in cost.colors:
        if by_color.get(col, 0) < n:
            return False
        left -= n
    return left >= cost.generic


def can_pay(s: "SengokuState", p: int, cost: Cost) -> bool:
    """Whether p can pay `cost` now (SGT-COST-01..06)."""
    return affordable(budget(s, p), cost)


def pay(s: "SengokuState", p: int, cost: Cost) -> None:
    """Exhaust kokuryoku for `cost` (SGT-COST-02): colours first from face-up cards of that
    colour, the generic part from face-down kokuryoku first, then the colours least needed."""
    up = _ready_up(s, p)
    for col, n in cost.colors:
        for c in [c for c in up if s.inst[c].color == col][:n]:
            s.exhausted.add(c)
            up.remove(c)
    generic = cost.generic
    down = min(generic, len(s.koku_down[p]) - s.down_exhausted[p])
    s.down_exhausted[p] += down
    generic -= down
    for c in up[:generic]:
        s.exhausted.add(c)


# ----- targets ---------------------------------------------------------------------------------
def targets(s: "SengokuState", p: int, eff: Effect, source: int | None = None) -> list[tuple[int, ...]]:
    """Every legal target choice for effect `eff` of player p; [] if it has nothing to act on."""
    units = target_units(s, p, eff, source)
    return [()] if units is None else [(u,) for u in units]


def target_units(s: "SengokuState", p: int, eff: Effect, source: int | None = None) -> list[int] | None:
    """The units effect `eff` of player p may be aimed at; None if it is aimed at no chosen
    unit (one choice: no target); [] if it has nothing to act on."""
    do = eff.do
    if do in STATIC:
        return []
    want = eff.aim
    if want is None or want == "all_allies" or want == "all_enemies":
        if want == "all_enemies" and not s.units(1 - p):
            return []
        return None
    if want == "self":
        return None if source is not None and s.in_play(source) else []
    if want == "ally":
        pool = s.units(p)
        if do == "ready":
            pool = [u for u in pool if u in s.exhausted]
    else:
        pool = s.units(1 - p)
        if do == "exhaust":
            pool = [u for u in pool if u not in s.exhausted]
        if do == "bounce" or do == "exile":
            pool = [u for u in pool if u not in s.tokens]
        limit = eff.strength_limit
        if limit is not None:
            pool = [u for u in pool if s.strength(u) <= limit]
    return pool


def auto_target(s: "SengokuState", p: int, eff: Effect, source: int | None) -> tuple[int, ...] | None:
    """Triggered effects choose for themselves [designed]: the strongest eligible unit; of
    equal 兵力 the first in play order (camp, then summoned soldiers), not the lowest id, so a
    decklist's order does not choose."""
    options = targets(s, p, eff, source)
    if not options:
        return None
    return max(options, key=lambda t: s.strength(t[0]) if t else 0)


# ----- carrying out ------------------------------------------------------------------------------
def apply(s: "SengokuState", p: int, eff: Effect, chosen: tuple[int, ...], source: int | None = None,
          why: str = "") -> None:
    """Carry out a one-shot effect for player p on the chosen target (if any)."""
    do = eff.do
    t = chosen[0] if chosen else None
    want = eff.aim
    if want == "self":
        t = source
    if t is not None and not s.in_play(t):
        s.say("fizzle", player=p, why=why)
        return
    # every effect below but draw, summon, build_wall and those on all units acts on the one
    # unit t: its target choice names it, or it is the source (`target_units`)
    if do == "strength":
        amount = int(eff.get("amount", 0))
        for u in (s.units(p) if want == "all_allies" else [_one(t)]):
            s.buff[u] = s.buff.get(u, 0) + amount
        s.say("effect", player=p, do=do, target=t, amount=amount, why=why)
    elif do == "siege_up":
        amount = int(eff.get("amount", 1))
        t = _one(t)
        s.siege_buff[t] = s.siege_buff.get(t, 0) + amount
        s.say("effect", player=p, do=do, target=t, amount=amount, why=why)
    elif do == "damage":
        amount = int(eff.get("amount", 0))
        for u in (list(s.units(1 - p)) if want == "all_enemies" else [_one(t)]):
            s.damage[u] = s.damage.get(u, 0) + amount
        s.say("effect", player=p, do=do, target=t, amount=amount, why=why)
        s.destroy_defeated()
    elif do == "draw":
        s.draw(p, int(eff.get("n", 1)))
    elif do == "destroy":
        s.say("effect", player=p, do=do, target=t, why=why)
        s.destroy(_one(t))
    elif do == "ready":
        s.exhausted.discard(_one(t))
        s.say("effect", player=p, do=do, target=t, why=why)
    elif do == "exhaust":
        s.exhausted.add(_one(t))
        s.say("effect", player=p, do=do, target=t, why=why)
    elif do == "summon":
        for _ in range(int(eff.get("count", 1))):
            s.summon(p, int(eff.get("strength", 1000)), int(eff.get("siege", 0)), eff.get("unit", "infantry"))
    elif do == "build_wall":
        s.walls[p] += take_top(s.deck[p], int(eff.get("n", 1)))    # 築城: face down, unseen (SGT-WALL-07)
        s.say("build_wall", player=p, n=int(eff.get("n", 1)), why=why)
    elif do == "bounce":
        s.say("effect", player=p, do=do, target=t, why=why)
        t = _one(t)
        s.leave_play(t)
        s.hand[s.owner[t]].append(t)
    elif do == "exile":
        s.say("effect", player=p, do=do, target=t, why=why)
        t = _one(t)
        s.leave_play(t)
        s.exile[s.owner[t]].append(t)             # SGT-ZONE-07
    else:
        raise AssertionError(f"effect {do!r} is static and is never applied once")


def _one(t: int | None) -> int:
    """The unit an effect aimed at one unit acts on (never None: see `target_units`)."""
    assert t is not None, "an effect aimed at one unit has no unit"
    return t


def needs_choice(eff: Effect) -> bool:
    return eff.aim in ("ally", "enemy")
