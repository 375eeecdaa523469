"""Card effects of ドラフト戦国大名: playing drafted cards, and the effect vocabulary used by
strategies, warlords' arrival effects and events."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.dice import Dice
from .cards import Effect

if TYPE_CHECKING:
    from .state import DaimyoState

Targets = tuple[int, ...]


def play_targets(s: "DaimyoState", p: int, c: int) -> list[Targets]:
    """Every target choice for playing card c (a 城 needs one of your provinces)."""
    spec = s.card(c).spec
    if spec.castle:
        free = [pr for pr in s.provinces_of(p) if not s.has_castle(pr)]
        return [(pr,) for pr in free]
    if spec.play is None:
        return [()]
    return targets(s, p, spec.play)


def targets(s: "DaimyoState", p: int, eff: Effect) -> list[Targets]:
    do = eff.do
    enemies = [w for q in range(s.n) if q != p for w in s.warlords(q)]
    if do == "subvert":
        need = int(eff.get("min_defection", 3))
        ok = [w for w in enemies if s.card(w).spec.defection >= need and can_defect(s, w)]
        return [(w,) for w in ok]
    if do == "treason_mark":
        return [(w,) for w in enemies if w not in s.marked]
    if do == "remove_neutral":
        near = sorted({q for pr in s.provinces_of(p) for q in s.board.adjacent[pr] if s.owner[q] == -1})
        return [(q,) for q in near]
    return [()]


def can_defect(s: "DaimyoState", w: int) -> bool:
    """【忠臣】 never defect, unless 謀反の兆し is attached (DSD-CARD-04)."""
    return not s.card(w).spec.loyal or w in s.marked


def play(s: "DaimyoState", p: int, c: int, chosen: Targets) -> None:
    """Pay the cost; a warlord or development enters your domain, a strategy resolves."""
    spec = s.card(c).spec
    s.gold[p] -= spec.cost
    s.say("play", player=p, card=c, targets=list(chosen))
    if spec.type in ("warlord", "development"):
        s.domain[p].append(c)
        if spec.castle and chosen:
            s.castles[c] = chosen[0]
        elif spec.play is not None:
            resolve(s, p, spec.play, chosen, source=c)
    else:
        resolve(s, p, s.card(c).effect, chosen, source=c)
        s.draft_discard.append(c)


def _move_warlord(s: "DaimyoState", w: int, to: int) -> None:
    owner = s.card_owner(w)
    s.domain[owner].remove(w)
    if to >= 0:
        s.domain[to].append(w)
    else:
        s.draft_discard.append(w)
    if w in s.marked:
        s.marked.remove(w)


def resolve(s: "DaimyoState", p: int, eff: Effect, chosen: Targets, source: int) -> None:
    """Carry out one effect; p = -1 for an event (it concerns every player)."""
    do = eff.do
    players = range(s.n) if p < 0 else [p]
    t = chosen[0] if chosen else None
    before = _tally(s)
    start = len(s.log)
    if do == "gold":
        for q in players:
            s.gold[q] += int(eff.get("n", 1))
    elif do == "vp":
        for q in players:
            s.vp[q] += int(eff.get("n", 1))
    elif do in ("soldiers", "free_soldier"):
        for q in players:
            sq = s.hire_square(q)
            if sq is not None:
                s.soldiers[sq] += int(eff.get("n", 1))
    elif do == "remove_neutral":
        assert t is not None                             # the targeted effects have one (targets)
        s.soldiers[t] = max(0, s.soldiers[t] - int(eff.get("n", 1)))
        if s.soldiers[t] == 0:
            s.owner[t] = -2
    elif do == "subvert":
        assert t is not None
        _move_warlord(s, t, p)                           # 敵方家臣の調略
    elif do == "treason_mark":
        assert t is not None
        s.marked.append(t)                               # 謀反の兆し (DSD-CARD-04)
    elif do in ("per_province", "per_warlord", "per_development"):
        for q in players:
            count = {"per_province": len(s.provinces_of(q)), "per_warlord": len(s.warlords(q)),
                     "per_development": sum(1 for c in s.domain[q] if s.card(c).type == "development")}[do]
            s.gold[q] += count * int(eff.get("gold", 0))
            s.vp[q] += count * int(eff.get("vp", 0))
    elif do == "leader_loses":
        best = max(s.vp)
        for q in range(s.n):
            if s.vp[q] == best:
                s.vp[q] = max(0, s.vp[q] - int(eff.get("vp", 1)))
    elif do == "famine":
        for pr in range(len(s.board)):
            if s.owner[pr] >= 0 and s.soldiers[pr] >= 3:
                s.soldiers[pr] -= 1
    elif do == "uprising":
        uprising(s, int(eff.get("n", 2)))
    elif do == "gekokujo":
        gekokujo(s)
    after = _tally(s)
    # what the effect gave or took, so that the log can say so (or that it gave nothing)
    s.say("effect", player=p, do=do, target=t, source=source,
          gold=[a - b for a, b in zip(after[0], before[0])], vp=[a - b for a, b in zip(after[1], before[1])],
          soldiers=[a - b for a, b in zip(after[2], before[2])], neutral=after[3] - before[3],
          defected=sum(1 for e in s.log[start:] if e["e"] == "defected"))


def _tally(s: "DaimyoState") -> tuple[list[int], list[int], list[int], int]:
    """Gold, VP and soldiers of each player, and the neutral soldiers on the map."""
    troops = [0] * s.n
    neutral = 0
    for pr, o in enumerate(s.owner):
        if o >= 0:
            troops[o] += s.soldiers[pr]
        elif o == -1:
            neutral += s.soldiers[pr]
    return list(s.gold), list(s.vp), troops, neutral


def uprising(s: "DaimyoState", n: int) -> None:
    """一向一揆 [designed]: n rebels rise in the VP leader's richest province other than home;
    its soldiers fight them one for one, and if rebels remain the province falls to them."""
    leader = max(range(s.n), key=lambda q: (s.vp[q], -q))
    lands = [pr for pr in s.provinces_of(leader) if not s.is_home(leader, pr)]
    if not lands:
        s.say("uprising", player=leader, province=None, lost=0, rebels=0, fell=False)
        return
    pr = max(lands, key=lambda x: (s.board.provinces[x].kokuryoku, -x))
    lost = min(n, s.soldiers[pr])
    s.soldiers[pr] -= lost
    rebels = n - lost
    fell = rebels > 0 or s.soldiers[pr] == 0
    s.say("uprising", player=leader, province=pr, lost=lost, rebels=rebels, fell=fell)
    if fell:
        s.owner[pr] = -1 if rebels > 0 else -2
        s.soldiers[pr] = rebels
        s.raze_castles(pr)


def gekokujo(s: "DaimyoState") -> None:
    """下克上 [designed]: each warlord rolls a die; at or under its 離反値 it defects to the
    player with the fewest VP (or leaves if its lord is last). 明智光秀's +1 applies here only
    (DSD-CARD-03); 【忠臣】 never defects unless marked by 謀反の兆し (DSD-CARD-04)."""
    # every warlord rolls once: one who defects does not roll again with his new lord
    for q, w in [(q, w) for q in range(s.n) for w in s.warlords(q)]:
        if not can_defect(s, w):
            continue
        spec = s.card(w).spec
        value = spec.defection + sum(int(e.get("n", 1)) for e in spec.constant if e.do == "gekokujo_defection")
        if w in s.marked:                                # DSD-CARD-04: a marked 【忠臣】 (離反値 0)
            value = max(value, 1)                        # can defect, on a 1 [designed]
        roll = s.roll(Dice(1, 0), "gekokujo", q, card=w)[0]
        if roll <= value:
            others = [x for x in range(s.n) if x != q]
            last = min(others, key=lambda x: (s.vp[x], x))
            to = last if s.vp[last] <= s.vp[q] else -1
            _move_warlord(s, w, to)
            s.say("defected", player=q, card=w, dest=to)
