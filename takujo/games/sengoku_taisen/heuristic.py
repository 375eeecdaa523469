"""A heuristic 戦国大戦 双 bot that reads only its view (and the public card pool).

Plan: build kokuryoku to about seven (face up for colours, face down to draw), deploy the
most expensive warlord it can, remove enemy warlords with stratagems that kill, attack when
the attacker outmatches every possible interceptor (or the castle is defenceless), raising
the attacker's 攻城力 or 兵力 first with main-phase stratagems, intercept when it can win the
fight or must save the last walls. It makes no pointless move: no castle attack by a unit of
攻城力 0 while walls stand, no damage that kills nothing outside a fight, no battle stratagem
that changes nothing (a 兵力 boost on an attacker nobody blocks, an exhaust in a fight).
An okugi that raises 兵力 is kept for a battle window of its own turn where it turns the
fight (an interceptor that counted on the 兵力 it saw), and the attacks it plans count on it,
when the rules allow the okugi in battle (option ``ougi_timing``, SGT-OUGI-03); with the okugi
in the main phase only, it is used at once. An effect verb it has no plan for (`PLANNED`) is
chosen by what the verb declares: its aim and worth (`takujo.bots.aims`), in the main phase
after the stratagems it plans, and for a counter-stratagem or the okugi.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...bots.aims import best_aimed
from ...core.action import Action
from ...core.rng import Rng
from ...core.targets import Kind, Typed
from .effects import VERBS

if TYPE_CHECKING:
    from .cards import Effect
    from .game import SengokuGame
    from .state import SengokuState

GOOD_FOR_ENEMY = {"damage", "destroy", "exhaust", "bounce", "exile"}
#: The effect verbs this bot has plans of its own for.
PLANNED = frozenset({"strength", "damage", "draw", "destroy", "ready", "exhaust", "summon", "build_wall",
                     "siege_up", "bounce", "exile", "aura", "win_if", "lose_if", "cannot_attack"})
#: Where the arguments naming an effect's target start, by action verb.
TARGETS_FROM = {"stratagem": 1, "counter": 1, "ability": 2, "ougi": 0}
WALL_WEIGHT = 2         # a castle wall, against 1000 兵力 on the field


def estimate(s: "SengokuState") -> list[float]:
    """For search cut-offs (`Game.estimator`): chances follow the walls left, and the units'
    兵力 on the field."""
    power = [1 + WALL_WEIGHT * len(s.walls[p]) + sum(max(0, s.strength(u)) for u in s.units(p)) / 1000
             for p in (0, 1)]
    return [power[0] / sum(power), power[1] / sum(power)]


class SengokuHeuristic:
    name = "heuristic"

    def __init__(self, game: "SengokuGame") -> None:
        self.game = game
        self.inst = game.instances

    def _s(self, view: dict[str, Any], u: int) -> int:
        return int(view["public"]["strength"].get(str(u), 0))

    def _units(self, view: dict[str, Any], p: int) -> list[int]:
        zones = view["zones"]
        camp: list[int] = zones["camp"][p]
        summons: list[int] = zones["summons"][p]
        return camp + summons

    def _ready(self, view: dict[str, Any], p: int) -> list[int]:
        return [u for u in self._units(view, p) if u not in view["public"]["exhausted"]]

    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        by: dict[str, list[Action]] = {}
        for a in legal:
            by.setdefault(a.verb, []).append(a)
        me = view["player"]
        if "keep" in by:
            cheap = [c for c in view["zones"]["hand"][me]
                     if self.inst[c].type == "warlord" and self.inst[c].cost.total <= 3]
            return by["keep"][0] if cheap else by["mulligan"][0]
        if "koku" in by or "skip" in by and view["public"]["phase"] == "koku":
            return self._koku(view, by)
        if "intercept" in by or "nointercept" in by:
            return self._intercept(view, by)
        if "pass" in by:
            return self._battle_stratagem(view, by)
        if "counter" in by:
            return self._aimed(view, by["counter"]) or max(by["counter"], key=lambda a: self._s(view, a.args[1]))
        if "discard" in by:
            return max(by["discard"], key=lambda a: self.inst[a.args[0]].cost.total)
        return self._main(view, by)

    def _koku(self, view: dict[str, Any], by: dict[str, list[Action]]) -> Action:
        me = view["player"]
        z = view["zones"]
        count = len(z["koku_up"][me]) + len(z["koku_down"][me])
        if count >= 8 or "koku" not in by:
            return by["skip"][0]
        hand = z["hand"][me]
        formations = [a for a in by["koku"] if a.args[1] == "up" and self.inst[a.args[0]].type == "formation"]
        if formations:
            return formations[0]
        if len(hand) <= 2 and count >= 4:
            return by["skip"][0]
        colours = sum(1 for c in z["koku_up"][me] if self.inst[c].spec.color != "無")
        # the costliest card we cannot use soon goes in; a warlord's twin (a card of the same
        # number as a warlord in camp or another in hand) stays, to pay for 疾風怒濤 and 無双連撃
        twins = self._twin_numbers(view, me)
        options = sorted(by["koku"], key=lambda a: (self.inst[a.args[0]].number in twins,
                                                    -self.inst[a.args[0]].cost.total))
        want_up = colours < 4
        for a in options:
            if (a.args[1] == "up") == want_up:
                return a
        return options[0]

    def _twin_numbers(self, view: dict[str, Any], me: int) -> set[str]:
        """Card numbers of our warlords (in camp, or twice in hand) that a hand card of the same
        number would let attack by 疾風怒濤 or 無双連撃 (SGT-WARLORD-09, SGT-WARLORD-11)."""
        hand = [self.inst[c] for c in view["zones"]["hand"][me]]
        camp = {self.inst[u].number for u in view["zones"]["camp"][me] if u < len(self.inst)}
        seen: set[str] = set()
        twins = set(camp)
        for card in hand:
            if card.type == "warlord" and card.number in seen:
                twins.add(card.number)
            seen.add(card.number)
        return twins

    def _intercept(self, view: dict[str, Any], by: dict[str, list[Action]]) -> Action:
        me = view["player"]
        b = view["public"]["battle"]
        attacker = self._s(view, b["attacker"])
        walls = view["zones"]["walls"][me]
        options = by.get("intercept", [])
        winners = [a for a in options if self._s(view, a.args[0]) > attacker]
        if winners:
            return min(winners, key=lambda a: self._s(view, a.args[0]))
        if b["target"] == "castle" and options:
            siege = int(view["public"]["siege"].get(str(b["attacker"]), 0))
            if walls == 0 or walls <= siege:
                return max(options, key=lambda a: self._s(view, a.args[0]))
        return by["nointercept"][0]

    def _fight(self, view: dict[str, Any]) -> tuple[int, int] | None:
        """(attacker, opponent unit) of the battle in progress if two units fight, else None."""
        b = view["public"]["battle"]
        if not b:
            return None
        other = b["interceptor"] if b["interceptor"] >= 0 else (b["target"] if b["target"] != "castle" else None)
        return None if other is None else (b["attacker"], other)

    @staticmethod
    def _result(mine: int, theirs: int) -> tuple[bool, bool]:
        """(my unit survives, theirs is destroyed) when units of these 兵力 fight."""
        if theirs <= 0:
            return True, True
        return mine - theirs > 0, theirs - mine <= 0

    def _battle_stratagem(self, view: dict[str, Any], by: dict[str, list[Action]]) -> Action:
        """Play a battle stratagem (or the okugi) only where it changes the battle: a boost or
        a damage that turns the fight, a kill of a besieging attacker, more 攻城力 for our own
        siege."""
        me = view["player"]
        b = view["public"]["battle"]
        fight = self._fight(view)
        mine = set(self._units(view, me))
        for a in by.get("stratagem", []) + by.get("ougi", []):
            eff = self._effect(me, a)
            t = self._target(a)
            amount = int(eff.get("amount", 0) or 0)
            if t is None and fight is not None and eff.do == "strength" and eff.aim == "all_allies":
                t = fight[0] if fight[0] in mine else fight[1]          # every ally, the fighter too
            if t is None:
                if eff.do in ("draw", "summon", "build_wall") and a.verb != "ougi":
                    return a
                continue
            if not b:
                continue
            if fight is not None:
                ours = fight[0] if fight[0] in mine else fight[1]
                foe = fight[1] if ours == fight[0] else fight[0]
                before = self._result(self._s(view, ours), self._s(view, foe))
                if eff.do == "strength" and t == ours:
                    after = self._result(self._s(view, ours) + amount, self._s(view, foe))
                elif eff.do == "damage" and t == foe:
                    after = self._result(self._s(view, ours), self._s(view, foe) - amount)
                elif eff.do in ("destroy", "bounce", "exile") and t == foe:
                    after = (True, True)
                else:
                    continue
                if after > before:
                    return a
            elif b["attacker"] not in mine:                 # a siege of our castle
                if t == b["attacker"] and (eff.do in ("destroy", "bounce", "exile")
                                           or (eff.do == "damage" and amount >= self._s(view, t))):
                    return a
            elif eff.do == "siege_up" and t == b["attacker"]:
                if view["zones"]["walls"][1 - me] > int(view["public"]["siege"].get(str(t), 0)):
                    return a
        return by["pass"][0]

    def _main(self, view: dict[str, Any], by: dict[str, list[Action]]) -> Action:
        me, foe = view["player"], 1 - view["player"]
        if "ougi" in by and not self._ougi_for_battle(me):
            if self._effect(me, by["ougi"][0]).do in PLANNED:
                return self._best_targeted(view, by["ougi"], me, 0)
            ougi = self._aimed(view, by["ougi"])
            if ougi is not None:
                return ougi
        if "deploy" in by:
            return max(by["deploy"], key=lambda a: (self.inst[a.args[0]].cost.total, self.inst[a.args[0]].spec.strength or 0))
        strat = [a for a in by.get("stratagem", []) if self._useful(view, a, me)]
        if strat:
            return self._best_targeted(view, strat, me, 1)
        other = self._aimed(view, by.get("stratagem", []) + by.get("ability", []))
        if other is not None:
            return other
        attack = self._attack(view, by.get("attack", []), foe)
        if attack is not None:
            return self._boost(view, by.get("stratagem", []), attack) or attack
        ready = self._ready_to_attack(view, by.get("stratagem", []), me)
        if ready is not None:
            return ready
        for a in by.get("ability", []):
            ab = self.inst[a.args[0]].spec.abilities[a.args[1]]
            if ab.do in PLANNED and (not ab.exhaust or a.args[0] in view["public"]["attacks"]):
                return a
        return by["end"][0]

    def _useful(self, view: dict[str, Any], a: Action, me: int) -> bool:
        """Main-phase stratagems worth playing at once: auras and conditions, draws, summons,
        walls, and removal that removes (a damage that kills, a destroy, a bounce)."""
        eff = self.inst[a.args[0]].spec.effect
        if eff.do in ("strength", "siege_up", "ready") or eff.do not in PLANNED:
            return False          # played just before an attack (`_boost`, `_ready_to_attack`), or by aim
        if eff.do == "damage":
            amount = int(eff.get("amount", 0))
            if len(a.args) > 1:
                return self._s(view, a.args[1]) <= amount
            return any(self._s(view, u) <= amount for u in self._units(view, 1 - me))
        return True

    def _boost(self, view: dict[str, Any], strats: list[Action], attack: Action) -> Action | None:
        """A main-phase boost that helps the attack about to be declared: 攻城力 for a castle
        attack while more walls stand than it would destroy; 兵力 for the attacker (or all
        allies) when it lifts the attacker above every possible interceptor."""
        u, target = attack.args[0], attack.args[1]
        foe = 1 - view["player"]
        walls = view["zones"]["walls"][foe]
        siege = int(view["public"]["siege"].get(str(u), 0))
        guards = [self._s(view, g) for g in self._ready(view, foe)]
        power = self._s(view, u)
        for a in strats:
            eff = self.inst[a.args[0]].spec.effect
            t = a.args[1] if len(a.args) > 1 else None
            if eff.do == "siege_up" and t == u and target == "castle" and walls > siege:
                return a
            if eff.do == "strength" and (t == u or (t is None and eff.get("target") == "all_allies")):
                if guards and power <= max(guards) < power + int(eff.get("amount", 0)):
                    return a
        return None

    def _ready_to_attack(self, view: dict[str, Any], strats: list[Action], me: int) -> Action | None:
        """Ready an exhausted ally that has not attacked this turn, so that it may."""
        attacked = view["public"]["attacks"]
        for a in strats:
            eff = self.inst[a.args[0]].spec.effect
            t = a.args[1] if len(a.args) > 1 else None
            if eff.do == "ready" and t is not None and str(t) not in attacked \
                    and t < len(self.inst) and not self.inst[t].cannot_attack:
                return a
        return None

    def _ougi_for_battle(self, me: int) -> bool:
        """Whether our okugi is one to keep for a battle window: it raises 兵力, and the rules
        let it be used there (SGT-OUGI-03, option ``ougi_timing``)."""
        ougi = self.inst[self.game.ougi_ids[me]].effect
        return self.game.ougi_in_battle and ougi is not None and ougi.do == "strength"

    def _held_boost(self, view: dict[str, Any], me: int) -> int:
        """The 兵力 our unused okugi will add in a battle of this turn (0 if none is kept)."""
        if not self._ougi_for_battle(me) or view["public"]["ougi_used"][me] \
                or not view["zones"]["ougi"][me]:
            return 0
        ougi = self.inst[self.game.ougi_ids[me]]
        if len(view["zones"]["koku_up"][me]) + len(view["zones"]["koku_down"][me]) < (ougi.threshold or 0):
            return 0
        assert ougi.effect is not None
        return int(ougi.effect.get("amount", 0) or 0)

    @staticmethod
    def _target(a: Action) -> Any:
        """The first argument naming what `a`'s effect aims at, or None."""
        start = TARGETS_FROM.get(a.verb, 1)
        return a.args[start] if len(a.args) > start else None

    def _effect(self, me: int, a: Action) -> "Effect":
        """The effect action `a` carries out: a stratagem's, a counter's, an ability's or the okugi's."""
        if a.verb == "ougi":
            eff = self.inst[self.game.ougi_ids[me]].effect
        elif a.verb == "ability":
            eff = self.inst[a.args[0]].spec.abilities[a.args[1]]
        else:
            card = self.inst[a.args[0]]
            eff = card.counter if a.verb == "counter" else card.effect
        assert eff is not None, f"{a}: its card has no effect"
        return eff

    def _aimed(self, view: dict[str, Any], actions: list[Action]) -> Action | None:
        """The best of `actions` whose effect verb has no plan here, by the verb's aim and worth
        (`takujo.bots.aims`); None when there is none worth playing."""
        me = view["player"]
        options = []
        for a in actions:
            eff = self._effect(me, a)
            if eff.do not in PLANNED:
                options.append((VERBS[eff.do], self.game.typed_args(a)[TARGETS_FROM[a.verb]:], a))
        if not options:
            return None

        def owner(t: Typed) -> int | None:
            if t.target.kind is Kind.CARD:
                return next((p for p in (0, 1) if t.value in self._units(view, p)), None)
            return None
        best = best_aimed(options, me, owner, 1 - me)
        return best[0] if best is not None else None

    def _best_targeted(self, view: dict[str, Any], actions: list[Action], me: int, start: int) -> Action:
        def score(a: Action) -> int:
            t = a.args[start] if len(a.args) > start else None
            return self._s(view, t) if t is not None else 0
        return max(actions, key=score)

    def _attack(self, view: dict[str, Any], attacks: list[Action], foe: int) -> Action | None:
        """Attack where no interceptor wins the fight; when our attackers outnumber their
        ready units, press the castle anyway (they cannot block everyone). A unit of 攻城力 0
        never attacks a castle that still has walls: it could destroy none."""
        if not attacks:
            return None
        walls = view["zones"]["walls"][foe]
        guards = [self._s(view, u) for u in self._ready(view, foe)]
        attackers = {a.args[0] for a in attacks}
        swarm = len(attackers) > len(guards)
        held = self._held_boost(view, 1 - foe)      # an okugi kept for the fight counts
        best, best_score = None, 0.0
        for a in attacks:
            u, target = a.args[0], a.args[1]
            power = self._s(view, u) + held
            safe = not guards or max(guards) < power
            if target == "castle":
                siege = int(view["public"]["siege"].get(str(u), 0))
                if walls == 0:
                    score = 100.0
                elif siege <= 0:
                    score = 0
                elif safe:
                    score = siege * 10
                elif swarm:
                    score = siege * 5 - power / 1000   # the weakest go first to draw blockers
                else:
                    score = 0
            else:
                score = 8 if power > self._s(view, target) and safe else 0
            if len(a.args) > 2:
                score -= 2        # costs a card
            if score > best_score:
                best, best_score = a, score
        return best
