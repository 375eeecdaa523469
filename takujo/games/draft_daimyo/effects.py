"""Card effects of ドラフト戦国大名: playing drafted cards, and the effect vocabulary used by
strategies, warlords' arrival effects, events, constant abilities, honours and tactics.

`VERBS` holds one entry per verb: the uses that may carry it (`types`: the card types whose
``play`` it may be — ``warlord``, ``development``, ``strategy``, ``event``, ``honour``,
``tactics`` — or ``constant`` for a 常時 ability), its parameters, the targets it takes and
what it does. A verb's ``targets(state, player, effect)`` lists its target choices (a card's
targets depend on its effect alone) and `Verb.target` their kinds; ``resolve(state, use,
effect)`` carries it out for a `Use`. Constant abilities, honours and tactics are passive: the
rule where they apply reads them (`state.DaimyoState` for constants and honours, `battle.py`
for tactics).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple, Sequence

from ...core.dice import Dice
from ...core.effects import Verbs
from ...core.targets import Signature, Target

if TYPE_CHECKING:
    from .cards import CardSpec, Effect
    from .state import DaimyoState

Targets = tuple[int, ...]
#: The card types that are drafted and played from the hand.
DRAFTED = ("warlord", "development", "strategy")
#: A 城 is built in one of your provinces (it has no play effect).
CASTLE_TARGET: Signature = (Target.place("province"),)
_NONE: list[Targets] = [()]


class Use(NamedTuple):
    """One use of an effect: its `user` (-1 for an event), the `players` it concerns (the
    user, or every player for an event), the chosen `target` (None: none) and the `source`
    card."""

    user: int
    players: Sequence[int]
    target: int | None
    source: int


def play_targets(s: "DaimyoState", p: int, c: int) -> list[Targets]:
    """Every target choice for playing card c (a 城 needs one of your provinces)."""
    spec = s.card(c).spec
    if spec.castle:
        return [(pr,) for pr in s.provinces_of(p) if not s.has_castle(pr)]
    if spec.play is None:
        return _NONE
    return targets(s, p, spec.play)


def play_signature(spec: "CardSpec") -> Signature:
    """The kinds of what playing a card names after it: a 城 a province, an effect what its
    verb declares (`Verb.target`)."""
    if spec.castle:
        return CASTLE_TARGET
    if spec.play is None:
        return ()
    verb = VERBS.get(spec.play.do)
    return verb.target if verb is not None else ()


def targets(s: "DaimyoState", p: int, eff: "Effect") -> list[Targets]:
    """The target choices of effect `eff` used by player p ([()]: it takes none)."""
    choose = VERBS[eff.do].targets
    return _NONE if choose is None else choose(s, p, eff)


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


def resolve(s: "DaimyoState", p: int, eff: "Effect", chosen: Targets, source: int) -> None:
    """Carry out one effect; p = -1 for an event (it concerns every player)."""
    do = eff.do
    carry_out = VERBS[do].resolve
    assert carry_out is not None, f"{do} is passive: no card plays it"    # the loader allows none
    t = chosen[0] if chosen else None
    before = _tally(s)
    start = len(s.log)
    carry_out(s, Use(p, range(s.n) if p < 0 else (p,), t, source), eff)
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


# ----- the vocabulary ------------------------------------------------------------------------------
VERBS = Verbs()
#: Uses of a play effect: the drafted cards, and events (which concern every player, no target).
PLAYED = (*DRAFTED, "event")


def _enemy_warlords(s: "DaimyoState", p: int) -> list[int]:
    return [w for q in range(s.n) if q != p for w in s.warlords(q)]


@VERBS.verb("gold", types=PLAYED, params={"n"}, aim="own", worth=2)
def _gold(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """Gain n gold."""
    for q in use.players:
        s.gold[q] += int(eff.get("n", 1))
    return True


@VERBS.verb("vp", types=PLAYED, params={"n"}, aim="own", worth=3)
def _vp(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """Gain n victory points."""
    for q in use.players:
        s.vp[q] += int(eff.get("n", 1))
    return True


def _soldiers(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """Soldiers at home (or in a castle): `soldiers` for the user, `free_soldier` for all."""
    for q in use.players:
        sq = s.hire_square(q)
        if sq is not None:
            s.soldiers[sq] += int(eff.get("n", 1))
    return True


VERBS.verb("soldiers", types=PLAYED, params={"n"}, aim="own", worth=2)(_soldiers)
VERBS.verb("free_soldier", types=PLAYED, params={"n"})(_soldiers)


def _neutrals_near(s: "DaimyoState", p: int, eff: "Effect") -> list[Targets]:
    near = sorted({q for pr in s.provinces_of(p) for q in s.board.adjacent[pr] if s.owner[q] == -1})
    return [(q,) for q in near]


@VERBS.verb("remove_neutral", types=DRAFTED, params={"n"}, targets=_neutrals_near,
            target=(Target.place("province"),), aim="own", worth=2)
def _remove_neutral(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """Remove n neutral soldiers from a province next to yours (emptied, it is no one's)."""
    t = use.target
    assert t is not None                                 # the targeted effects have one (targets)
    s.soldiers[t] = max(0, s.soldiers[t] - int(eff.get("n", 1)))
    if s.soldiers[t] == 0:
        s.owner[t] = -2
    return True


def _subvertible(s: "DaimyoState", p: int, eff: "Effect") -> list[Targets]:
    need = int(eff.get("min_defection", 3))
    return [(w,) for w in _enemy_warlords(s, p) if s.card(w).spec.defection >= need and can_defect(s, w)]


@VERBS.verb("subvert", types=DRAFTED, params={"min_defection"}, targets=_subvertible,
            target=(Target.card("warlord"),), aim="foe", worth=5)
def _subvert(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """調略: take an enemy warlord whose 離反値 is at least min_defection (not 【忠臣】)."""
    assert use.target is not None
    _move_warlord(s, use.target, use.user)               # 敵方家臣の調略
    return True


@VERBS.verb("treason_mark", types=DRAFTED,
            targets=lambda s, p, eff: [(w,) for w in _enemy_warlords(s, p) if w not in s.marked],
            target=(Target.card("warlord"),), aim="foe", worth=1)
def _treason_mark(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """謀反の兆し: attach to an enemy warlord (【忠臣】 no longer protects him)."""
    assert use.target is not None
    s.marked.append(use.target)                          # 謀反の兆し (DSD-CARD-04)
    return True


def _per(count: Callable[["DaimyoState", int], int]) -> Callable[["DaimyoState", Use, "Effect"], bool]:
    """Each player concerned gains gold and VP per thing counted."""
    def resolve(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
        for q in use.players:
            k = count(s, q)
            s.gold[q] += k * int(eff.get("gold", 0))
            s.vp[q] += k * int(eff.get("vp", 0))
        return True
    return resolve


VERBS.verb("per_province", types=PLAYED, params={"gold", "vp"}, aim="own")(
    _per(lambda s, q: len(s.provinces_of(q))))
VERBS.verb("per_warlord", types=PLAYED, params={"gold", "vp"}, aim="own")(
    _per(lambda s, q: len(s.warlords(q))))
VERBS.verb("per_development", types=PLAYED, params={"gold", "vp"}, aim="own")(
    _per(lambda s, q: sum(1 for c in s.domain[q] if s.card(c).type == "development")))


@VERBS.verb("leader_loses", types=PLAYED, params={"vp"})
def _leader_loses(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """The VP leader(s) lose vp."""
    best = max(s.vp)
    for q in range(s.n):
        if s.vp[q] == best:
            s.vp[q] = max(0, s.vp[q] - int(eff.get("vp", 1)))
    return True


@VERBS.verb("famine", types=PLAYED)
def _famine(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """Every held province with 3 or more soldiers loses one."""
    for pr in range(len(s.board)):
        if s.owner[pr] >= 0 and s.soldiers[pr] >= 3:
            s.soldiers[pr] -= 1
    return True


@VERBS.verb("uprising", types=PLAYED, params={"n"})
def _uprising(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """一向一揆: n rebels rise in the VP leader's province (`uprising`)."""
    uprising(s, int(eff.get("n", 2)))
    return True


@VERBS.verb("gekokujo", types=PLAYED)
def _gekokujo(s: "DaimyoState", use: Use, eff: "Effect") -> bool:
    """下克上: warlords may defect (`gekokujo`)."""
    gekokujo(s)
    return True


# ----- passive verbs: read by the rule where they apply ---------------------------------------------
def _passive(use: str, *verbs: tuple[str, set[str]]) -> None:
    for name, params in verbs:
        VERBS.passive(name, (use,), params)


# 常時 abilities (warlords and developments), read by state.DaimyoState and the battle
_passive("constant",
         ("attack_dice", {"n"}),            # +n battle dice attacking
         ("defence_dice", {"n"}),           # +n battle dice defending
         ("march_bonus", {"n"}),            # +n soldiers a march may move (DSD-CARD-05)
         ("income", {"gold", "vp"}),        # gold and VP each round's income
         ("gekokujo_defection", {"n"}),     # 明智光秀: +n 離反値 during 下克上 (DSD-CARD-03; gekokujo above)
         ("ignore_defence", set()),         # 竹中半兵衛: in your attacks the defender's defence modifiers do not count
         ("upkeep_free", set()))            # this card costs no upkeep
# honour conditions: the leader(s) of the measure gain vp at the final scoring (state.DaimyoState)
_passive("honour", *((name, {"vp"}) for name in (
    "most_provinces", "most_warlords", "most_gold", "most_developments", "most_battles_won")))
# tactics cards, one battle only (battle.py; DSD-TACTICS-USE); cards.TACTICS_SIDE: one side only
_passive("tactics",
         ("battle_dice", {"n"}),            # +n dice for your side in this battle
         ("first_strike", set()),           # your side rolls first
         ("negate_castle", set()),          # the defender's castle gives nothing this battle
         ("ambush", {"n"}),                 # n hits dealt before any roll
         ("plunder", {"gold"}),             # attacker: if it wins, take gold from the defender
         ("retreat", set()),                # 金ヶ崎の退き口: your soldiers may leave without loss (DSD-CARD-07)
         ("reroll", set()),                 # reroll your misses once
         ("fortify", {"n"}))                # defender: +n dice
