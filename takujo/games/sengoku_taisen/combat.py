"""Attacks in 戦国大戦 双: declaration, interception, battle stratagems, damage, sieges and
counter-stratagems. The procedure is designed from public descriptions of the same engine
(see docs/rules/sengoku_taisen.md); each step names its clause.

The attack in progress is a `Battle` frame on the state (`state.battle`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.action import Action
from ...core.fields import Frame
from ...core.response import Window, polling_order
from . import effects
from .phases import COUNTER, INTERCEPT, MAIN, OVER

if TYPE_CHECKING:
    from .state import SengokuState

CASTLE = "castle"


class Battle(Frame):
    """The attack in progress, from its declaration to its result (SGT-BASIC-08/09)."""
    attacker: int
    player: int                         # the attacking player
    target: int | str                   # CASTLE, or the attacked unit
    interceptor: int = -1               # the intercepting unit, -1 for none

    def __init__(self, attacker: int, player: int, target: int | str, interceptor: int = -1) -> None:
        # Every field set here: one is made on each attack declaration, and the frame's
        # generic keyword check costs more than the rest of the declaration.
        self.attacker, self.player, self.target, self.interceptor = attacker, player, target, interceptor


def in_battle(s: "SengokuState") -> Battle:
    """The attack in progress, in the steps where there must be one."""
    b = s.battle
    assert b is not None, "no attack in progress"
    return b


# ----- declaring (SGT-BASIC-04, SGT-BASIC-08, SGT-WARLORD-08..11) --------------------------------
def _same_number_card(s: "SengokuState", p: int, u: int) -> int | None:
    number = s.card(u).number
    same = [c for c in s.hand[p] if s.card(c).number == number]
    return min(same) if same else None


def _attack_mode(s: "SengokuState", p: int, u: int, done: int) -> tuple[()] | tuple[str, int] | None:
    """How unit u may attack now, having attacked `done` times this turn: () plainly, a
    疾風怒濤 / 無双連撃 mode with the card it discards, or None if it may not.

    SGT-WARLORD-09 and SGT-WARLORD-11 are rules of every warlord card, not keywords: any
    warlord may discard a hand card of its own card number to attack on its placement turn
    (疾風怒濤) or to attack once more this turn (無双連撃). A summoned soldier has no card
    number and may do neither."""
    if u in s.tokens:
        return () if done == 0 and s.placed.get(u, -1) < s.turn else None
    if done == 0:
        if s.placed.get(u, -1) < s.turn or s.has(u, "奇襲"):
            return ()
        d = _same_number_card(s, p, u)                    # SGT-WARLORD-09, paid at declaration
        return None if d is None else ("shippu", d)
    if done == 1 and u not in s.extra_used:
        # SGT-WARLORD-11 readings: once more only (no third attack), whatever the unit's
        # state; after a 疾風怒濤 attack too, unless option shippu_then_muso is off (reading 2).
        # A warlord without 【奇襲】 that attacked on its placement turn did so by 疾風怒濤.
        if not s.game.shippu_then_muso and s.placed.get(u, -1) == s.turn and not s.has(u, "奇襲"):
            return None
        d = _same_number_card(s, p, u)
        return None if d is None else ("muso", d)
    return None


def add_attack_actions(s: "SengokuState", p: int, out: list[Action]) -> None:
    """Append to `out` ``attack u t *mode`` for each unit u that may attack now, at the castle,
    then at each exhausted enemy unit t (SGT-BASIC-08)."""
    acts, exhausted, attacks, placed, turn = s.acts, s.exhausted, s.attacks, s.placed, s.turn
    inst, tokens = s.inst, s.tokens
    foes: list[int] | None = None
    for u in s.camp[p] + s.summons[p]:
        done = attacks.get(u, 0)
        if (done == 0 and u in exhausted) or done > 1:
            continue
        if u not in tokens and inst[u].cannot_attack:      # a {常時} ability forbids it
            continue
        # the common case first: a ready unit placed before this turn attacks plainly
        mode = () if done == 0 and placed.get(u, -1) < turn else _attack_mode(s, p, u, done)
        if mode is None:
            continue
        if foes is None:
            q = 1 - p
            foes = [v for v in s.camp[q] + s.summons[q] if v in exhausted]
        if mode or u >= acts.cards:     # a keyword attack, or a token's: not in the tables
            out += [Action(p, "attack", (u, t, *mode)) for t in [CASTLE, *foes]]
        else:
            out.append(acts.attack_castle[p][u])
            if foes:
                out += _unit_attacks(s, p, u, foes)


def _unit_attacks(s: "SengokuState", p: int, u: int, foes: list[int]) -> list[Action]:
    """``attack u t`` at each of the units `foes`."""
    acts = s.acts
    row, cards = acts.attack.row(p, u), acts.cards
    return [row[t] if t < cards else Action(p, "attack", (u, t)) for t in foes]


def declare(s: "SengokuState", a: Action) -> None:
    """Exhaust the attacker, pay any discard, fire {攻撃宣言時}, offer interception."""
    p = a.player
    u, target, *mode = a.args
    if mode:
        s.hand[p].remove(mode[1])
        s.discard[p].append(mode[1])
        if mode[0] == "muso":
            s.extra_used.add(u)
        s.say("keyword", player=p, card=u, keyword="疾風怒濤" if mode[0] == "shippu" else "無双連撃", discard=mode[1])
    s.exhausted.add(u)
    s.attacks[u] = s.attacks.get(u, 0) + 1                 # SGT-WARLORD-10
    s.battle = Battle(attacker=u, player=p, target=target)
    s.say("attack", player=p, unit=u, target=target)
    _trigger(s, u, "attack_declared")
    if not s.in_play(u):
        return _finish(s)
    if _interceptors(s, 1 - p):
        s.phase = INTERCEPT                                # SGT-BASIC-09: the defender chooses
    else:
        confirm(s)


def _interceptors(s: "SengokuState", q: int) -> list[int]:
    """SGT-BASIC-09: the ready units of the defender, other than the attacked one."""
    target, exhausted = in_battle(s).target, s.exhausted
    return [u for u in s.units(q) if u not in exhausted and u != target]


def intercept_actions(s: "SengokuState", q: int) -> list[Action]:
    """SGT-BASIC-09: any ready unit of the defender may intercept, or none."""
    acts = s.acts
    row, cards = acts.intercept[q], acts.cards
    out = [row[u] if u < cards else Action(q, "intercept", (u,)) for u in _interceptors(s, q)]
    out.append(acts.nointercept[q])
    return out


def intercept(s: "SengokuState", a: Action) -> None:
    if a.verb == "intercept":
        in_battle(s).interceptor = a.args[0]
        s.say("intercept", player=a.player, unit=a.args[0])
    else:
        s.say("no_intercept", player=a.player)
    confirm(s)


def opponent_unit(s: "SengokuState") -> int | None:
    b = in_battle(s)
    if b.interceptor >= 0:
        return b.interceptor
    return b.target if type(b.target) is int else None


def confirm(s: "SengokuState") -> None:
    """{戦闘確定時} triggers, then the battle window: turn player first (SGT-STRAT-05).

    The window polls both players, in turn order, whatever they hold, and closes when both
    have passed in succession [designed]; an opening that depended on who can cast would tell
    each player whether the other holds a 戦闘 stratagem."""
    s.phase = MAIN
    d = opponent_unit(s)
    for u in (in_battle(s).attacker, d):
        if u is not None:
            _trigger(s, u, "battle_confirmed")
    s.windows.append(Window("battle", polling_order(s.turn_player, 2), cycle=True))


def stratagem_actions(s: "SengokuState", p: int, c: int) -> list[Action]:
    """``stratagem c *t`` for every target choice t of stratagem c's effect."""
    acts, eff = s.acts, s.inst[c].effect
    assert eff is not None              # a stratagem has an effect (cards.toml's schema)
    units = effects.target_units(s, p, eff)
    if units is None:
        return [acts.card_stratagem[p][c]]
    if not units:
        return []
    row, cards = acts.stratagem.row(p, c), acts.cards
    return [row[u] if u < cards else Action(p, "stratagem", (c, u)) for u in units]


def _castable(s: "SengokuState", q: int) -> list[Action]:
    """What q may play in the battle window: 戦闘 stratagems, and in q's own turn the okugi
    (SGT-OUGI-03: main or battle, as recommended; option `ougi_timing=main` forbids it)."""
    out = s.ougi_actions(q) if s.game.ougi_in_battle else []
    inst, funds = s.inst, None
    for c in s.hand[q]:
        card = inst[c]
        if card.battle_stratagem and effects.affordable(funds := funds or effects.budget(s, q), card.cost):
            out.extend(stratagem_actions(s, q, c))
    return out


def window_actions(s: "SengokuState", q: int) -> list[Action]:
    """What q may do when asked in the battle window: play (`_castable`) or pass. A player
    with nothing to play is asked all the same, and may only pass."""
    out = _castable(s, q)
    out.append(s.acts.pass_[q])
    return out


def respond(s: "SengokuState", a: Action) -> None:
    w = s.windows[-1]
    if a.verb == "pass":
        w.passed()
    elif a.verb == "ougi":
        s.use_ougi(a.player, a.args)
        w.acted()
    else:
        c = a.args[0]
        card = s.card(c)
        effects.pay(s, a.player, card.cost)
        s.hand[a.player].remove(c)
        s.say("stratagem", player=a.player, card=c, targets=list(a.args[1:]))
        assert card.effect is not None
        effects.apply(s, a.player, card.effect, tuple(a.args[1:]), why="stratagem")
        s.discard[a.player].append(c)
        w.acted()
    if s.outcome is not None:
        return
    if w.responder is None:
        s.windows.pop()
        resolve(s)


# ----- damage and sieges ------------------------------------------------------------------------------
def _hit(s: "SengokuState", source: int, victim: int) -> int:
    """Combat damage equals the source's 兵力; 【長槍】 doubles it against 【奇襲】 units."""
    dmg = max(0, s.strength(source))
    if s.has(source, "長槍") and s.has(victim, "奇襲"):
        dmg *= 2
    return dmg


def resolve(s: "SengokuState") -> None:
    """Both sides deal damage equal to their 兵力 at once; an unintercepted castle attack
    destroys walls (SGT-WALL-08) or, with none left, wins (SGT-WIN-01, SGT-WALL-02)."""
    b = in_battle(s)
    u, p = b.attacker, b.player
    d = opponent_unit(s)
    if not s.in_play(u):
        return _finish(s)
    if d is not None:
        if not s.in_play(d):
            return _finish(s)
        to_d, to_u = _hit(s, u, d), _hit(s, d, u)
        s.damage[d] = s.damage.get(d, 0) + to_d
        s.damage[u] = s.damage.get(u, 0) + to_u
        s.say("combat", attacker=u, defender=d, to_defender=to_d, to_attacker=to_u)
        s.destroy_defeated()
        won = s.in_play(u) and not s.in_play(d)
        s.say("attack_result", player=p, unit=u, won=won)
        if won and b.target == CASTLE and s.has(u, "貫通"):
            siege(s, u, 1 - p, intercepted=True)          # 【貫通】: the siege goes through
    elif b.target == CASTLE:
        siege(s, u, 1 - p, intercepted=False)
    _finish(s)


def siege(s: "SengokuState", u: int, q: int, intercepted: bool) -> None:
    walls = s.walls[q]
    if not walls:
        if not intercepted:
            s.finish((1 - q,), "castle")                   # SGT-WIN-01: the winning blow
        return
    # SGT-WALL-06/08: 攻城力 walls from the top; all that remain if fewer.
    for _ in range(min(s.siege(u), len(walls))):
        c = walls.pop()
        s.discard[q].append(c)
        s.say("wall_destroyed", player=q, card=c)
        if s.card(c).type == "stratagem":                  # SGT-WALL-09, SGT-STRAT-06
            s.counters.append([q, c])


def _finish(s: "SengokuState") -> None:
    s.battle = None
    next_counter(s)


def next_counter(s: "SengokuState") -> None:
    """Counter-stratagems fire one at a time, top wall first; the wall's owner chooses any
    target, at no cost (SGT-COST-10)."""
    while s.counters and s.outcome is None:
        q, c = s.counters[0]
        eff = s.inst[c].counter
        assert eff is not None          # every stratagem has a counter (cards.toml's schema)
        options = effects.targets(s, q, eff)
        s.say("counter_stratagem", player=q, card=c)
        if not options:
            s.counters.pop(0)
            s.say("fizzle", player=q, why="counter")
            continue
        if options == [()]:
            s.counters.pop(0)
            effects.apply(s, q, eff, (), why="counter")
            continue
        s.phase = COUNTER
        return
    s.phase = MAIN if s.outcome is None else OVER


def resolve_counter(s: "SengokuState", chosen: tuple[int, ...]) -> None:
    q, c = s.counters.pop(0)
    eff = s.inst[c].counter
    assert eff is not None
    effects.apply(s, q, eff, tuple(chosen), why="counter")
    next_counter(s)


def _trigger(s: "SengokuState", u: int, timing: str) -> None:
    if u in s.tokens:
        return
    abilities = s.inst[u].triggers.get(timing)
    if not abilities or not s.in_play(u):
        return
    p = s.owner[u]
    for ab in abilities:
        chosen = effects.auto_target(s, p, ab, u)
        if chosen is not None:
            effects.apply(s, p, ab, chosen, source=u, why=timing)
