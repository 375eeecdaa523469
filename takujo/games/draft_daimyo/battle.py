"""Battles (合戦) of ドラフト戦国大名, designed from public facts: dice pools from soldiers and
warlords' modifiers, 【先制】 rolling first, castles, retreat, and the tactics cards of the
expansion (DSD-TACTICS-USE).

A battle in progress is `state.battle`, a `Battle` frame; neutral defenders are player -1.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.dice import Dice
from ...core.fields import Frame
from ...core.simultaneous import Commits, commit_face_down
from .cards import Effect
from .phases import BASIC_DONE, TACTIC

if TYPE_CHECKING:
    from .state import DaimyoState

HIT = 5            # a die showing 5 or 6 is a hit [designed]
MAX_EXCHANGES = 10


class Battle(Frame):
    """A battle (合戦) in progress: who attacks what from where, and the tactics cards placed."""
    attacker: int
    defender: int                  # -1: a neutral force
    from_: int                     # the province marched from (saved and shown as "from")
    to: int                        # the province under attack
    k: int                         # soldiers marched in
    cards: list[int] = [-1, -1]    # [attacker, defender]: the tactics card placed face down, -1 none

    def to_json(self) -> dict[str, Any]:
        """Saved and shown with the key ``from`` (the view's documented shape)."""
        return {"attacker": self.attacker, "defender": self.defender, "from": self.from_, "to": self.to,
                "k": self.k, "cards": list(self.cards)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Battle":
        return cls(attacker=data["attacker"], defender=data["defender"], from_=data["from"], to=data["to"],
                   k=data["k"], cards=list(data["cards"]))


def in_battle(s: "DaimyoState") -> Battle:
    """The battle in progress (a tactics declaration or a fight has one)."""
    b = s.battle
    assert b is not None, "no battle in progress"
    return b


def start(s: "DaimyoState", p: int, frm: int, to: int, k: int) -> None:
    """March `k` soldiers from `frm` into `to`, held by another player or a neutral force."""
    q = s.owner[to]
    s.soldiers[frm] -= k
    s.battle = Battle(attacker=p, defender=q, from_=frm, to=to, k=k, cards=[-1, -1])
    s.say("battle", player=p, defender=q, province=to, soldiers=k)
    # DSD-TACTICS-USE-01/02: tactics only between players, never against a neutral force.
    if s.game.options.tactics and q >= 0:
        # DSD-TACTICS-USE-07/08: the attacker declares, then the defender, face down. Who is
        # asked is fixed from what everyone sees: the number of tactics cards each holds
        # (DSD-TACTICS-GAIN-06). A holder whose cards cannot be used here is still asked and
        # can only decline, so being asked tells nothing of which cards they are.
        declaring = [x for x in (p, q) if s.tactics_hand[x]]
        if declaring:
            s.phase = TACTIC
            s.commits = Commits(declaring, ordered=True)
            return
    fight(s)


def tactic_options(s: "DaimyoState", p: int) -> list[int]:
    """DSD-TACTICS-USE-05/07/08: cards of your side only; 金ヶ崎の退き口 only where its
    retreat can happen."""
    b = in_battle(s)
    side = "attacker" if p == b.attacker else "defender"
    out = []
    for c in s.tactics_hand[p]:
        spec = s.card(c).spec
        if spec.side not in (side, "either"):
            continue
        if s.card(c).effect.do == "retreat" and not can_withdraw(s, p):
            continue
        out.append(c)
    return out


def can_withdraw(s: "DaimyoState", p: int) -> bool:
    """Whether 金ヶ崎の退き口 can take effect for `p` in this battle: never in a province with a
    castle (DSD-CARD-06/07, reading (b): the card cannot be declared there); a defender needs an
    adjacent province of their own to fall back to [designed: the card's text]; an attacker
    always has the province they marched from."""
    b = in_battle(s)
    if s.has_castle(b.to):
        return False
    return p == b.attacker or s.retreat_square(p, b.to) is not None


def tactic_actions(s: "DaimyoState", p: int) -> list[Action]:
    row = s.game.card_actions["tactic"].row(p, 0)
    return [row[c] for c in tactic_options(s, p)] + [s.game.bare_actions["notactic"][p]]


def declare(s: "DaimyoState", a: Action) -> None:
    """The attacker declares first, then the defender; a card is placed face down: whether one
    was placed is public, which one is not (DSD-TACTICS-USE-07/08). The action itself is a
    hidden commit, logged for its maker only."""
    b, commits, p = in_battle(s), s.commits, a.player
    assert commits is not None, "no tactics declaration in progress"
    if a.verb == "tactic":
        b.cards[0 if p == b.attacker else 1] = a.args[0]
        done = commit_face_down(s, commits, a, a.args, s.tactics_hand[p], s.tactics_played[p], "tactic_placed")
    else:
        done = commit_face_down(s, commits, a, event="no_tactic")
    if done:
        s.commits = None
        reveal(s)


def reveal(s: "DaimyoState") -> None:
    """DSD-TACTICS-USE-09/10: both revealed at once, the attacker's resolved first."""
    b = in_battle(s)
    for i, p in enumerate((b.attacker, b.defender)):
        if b.cards[i] >= 0:
            s.say("tactic_revealed", player=p, card=b.cards[i])
    fight(s)


def _effects(s: "DaimyoState", side: int) -> list[Effect]:
    """The tactics card effect of one side (0 attacker, 1 defender) in this battle, if any."""
    c = in_battle(s).cards[side]
    return [s.card(c).effect] if c >= 0 else []


def fight(s: "DaimyoState") -> None:
    b = in_battle(s)
    p, q, to, frm = b.attacker, b.defender, b.to, b.from_
    att_fx, def_fx = _effects(s, 0), _effects(s, 1)
    # 金ヶ崎の退き口: the side leaves without loss.
    if any(e.do == "retreat" for e in att_fx):
        s.soldiers[frm] += b.k
        s.say("withdrew", player=p, province=frm, soldiers=b.k)
        return conclude(s, attacker_won=False)
    if any(e.do == "retreat" for e in def_fx) and q >= 0:
        home = s.retreat_square(q, to)
        if home is not None:
            s.say("withdrew", player=q, province=home, soldiers=s.soldiers[to])
            s.soldiers[home] += s.soldiers[to]
            s.soldiers[to] = b.k                      # the attacker's soldiers move in
            return take(s)
    castle = s.has_castle(to) and not any(e.do == "negate_castle" for e in att_fx)
    attack_mod = s.attack_dice(p) + sum(int(e.get("n", 0)) for e in att_fx if e.do == "battle_dice")
    if q >= 0:
        defence_mod = 0 if s.ignores_defence(p) else s.defence_dice(q)
        defence_mod += sum(int(e.get("n", 0)) for e in def_fx if e.do in ("battle_dice", "fortify"))
    else:
        defence_mod = 0
    defence_mod += 1 if castle else 0
    att_first = s.first_strike(p) or any(e.do == "first_strike" for e in att_fx)
    def_first = q >= 0 and (s.first_strike(q) or any(e.do == "first_strike" for e in def_fx))
    att = b.k
    # ambush: hits before any roll
    s.soldiers[to] = max(0, s.soldiers[to] - sum(int(e.get("n", 0)) for e in att_fx if e.do == "ambush"))
    att = max(0, att - sum(int(e.get("n", 0)) for e in def_fx if e.do == "ambush"))
    # [designed, extends the battle rules and DSD-TACTICS-USE-10] a side with no soldiers has
    # lost the battle and nothing more is rolled: warlords', castles' and cards' dice only add
    # to soldiers' dice. An attack left with no soldier (伏兵) has failed: the province stays
    # the defender's, and the attacker's warlords, who never leave the domain, stay there as
    # after any lost attack. Defenders with no soldier (a province held empty, or an ambush)
    # lose it to the marching soldiers. A province is taken only by soldiers: with both sides
    # empty the attack has failed. In the exchanges, 【先制】's hits land first, so a side they
    # empty never rolls, and the exchanges go on only while both sides have soldiers.
    if att <= 0:
        s.say("repulsed", player=p, back=0)
        return conclude(s, attacker_won=False)
    if s.soldiers[to] <= 0:
        s.soldiers[to] = att
        return take(s)
    rerolls = [any(e.do == "reroll" for e in att_fx), any(e.do == "reroll" for e in def_fx)]
    for _ in range(MAX_EXCHANGES):
        if att_first and not def_first:                  # 【先制】: roll first, casualties first
            s.soldiers[to] = max(0, s.soldiers[to] - _hits(s, att + attack_mod, p, rerolls[0]))
            if s.soldiers[to] > 0:
                att = max(0, att - _hits(s, s.soldiers[to] + defence_mod, q, rerolls[1]))
        elif def_first and not att_first:
            att = max(0, att - _hits(s, s.soldiers[to] + defence_mod, q, rerolls[1]))
            if att > 0:
                s.soldiers[to] = max(0, s.soldiers[to] - _hits(s, att + attack_mod, p, rerolls[0]))
        else:
            h_att = _hits(s, att + attack_mod, p, rerolls[0])
            h_def = _hits(s, s.soldiers[to] + defence_mod, q, rerolls[1])
            s.soldiers[to] = max(0, s.soldiers[to] - h_att)
            att = max(0, att - h_def)
        d = s.soldiers[to]
        s.say("exchange", attacker=att, defender=d)
        if d <= 0 or att <= d:
            break                                        # decided, or the attacker gives up
        if q >= 0 and not castle:                        # DSD-CARD-06: no retreat from a castle
            home = s.retreat_square(q, to)
            if home is not None:                         # the outnumbered defender falls back
                s.soldiers[home] += d
                s.soldiers[to] = 0
                s.say("retreat", player=q, province=home, soldiers=d)
                break
    if s.soldiers[to] <= 0 and att > 0:
        s.soldiers[to] = att
        return take(s)
    if att > 0:
        s.soldiers[frm] += att                           # survivors go back
        s.say("repulsed", player=p, back=att)
    conclude(s, attacker_won=False)


def _hits(s: "DaimyoState", dice: int, who: int, reroll: bool) -> int:
    if dice <= 0:
        return 0
    _, faces = s.roll(Dice(dice, 0), "battle", who if who >= 0 else None)
    hits = sum(1 for f in faces if f >= HIT)
    if reroll and hits < dice:
        _, again = s.roll(Dice(dice - hits, 0), "reroll", who if who >= 0 else None)
        hits += sum(1 for f in again if f >= HIT)
    return hits


def take(s: "DaimyoState") -> None:
    b = in_battle(s)
    p, q, to = b.attacker, b.defender, b.to
    s.owner[to] = p
    s.raze_castles(to)                                   # a taken castle is razed [designed]
    s.say("captured", player=p, province=to, from_player=q)
    plunder = [e for e in _effects(s, 0) if e.do == "plunder"]
    if plunder and q >= 0:                               # 略奪
        n = min(s.gold[q], int(plunder[0].get("gold", 2)))
        s.gold[q] -= n
        s.gold[p] += n
        s.say("plundered", player=p, from_player=q, gold=n)
    conclude(s, attacker_won=True)


def conclude(s: "DaimyoState", attacker_won: bool) -> None:
    """DSD-TACTICS-USE-11/12: used tactics cards go to the tactics discard after the battle."""
    b = in_battle(s)
    if attacker_won:
        s.battles_won[b.attacker] += 1
    elif b.defender >= 0:
        s.battles_won[b.defender] += 1
    for p in range(s.n):
        s.tactics_discard.extend(s.tactics_played[p])
        s.tactics_played[p].clear()
    if s.owner[b.from_] == b.attacker and s.soldiers[b.from_] <= 0 and not s.is_home(b.attacker, b.from_):
        s.owner[b.from_] = -2                           # left empty: no longer held
    s.battle = None
    s.phase = BASIC_DONE
