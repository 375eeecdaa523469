"""A heuristic 戦国大戦 双 bot that reads only its view (and the public card pool).

Plan: build kokuryoku to about seven (face up for colours, face down to draw), deploy the
most expensive warlord it can, remove or weaken enemy warlords with stratagems, attack when
the attacker outmatches every possible interceptor (or the castle is defenceless), intercept
when it can win the fight or must save the last walls.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.rng import Rng

if TYPE_CHECKING:
    from .game import SengokuGame

GOOD_FOR_ENEMY = {"damage", "destroy", "exhaust", "bounce", "exile"}


class SengokuHeuristic:
    name = "heuristic"

    def __init__(self, game: "SengokuGame") -> None:
        self.game = game
        self.inst = game.instances

    def _s(self, view: dict[str, Any], u: int) -> int:
        return int(view["public"]["strength"].get(str(u), 0))

    def _units(self, view: dict[str, Any], p: int) -> list[int]:
        return view["zones"]["camp"][p] + view["zones"]["summons"][p]

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
            return max(by["counter"], key=lambda a: self._s(view, a.args[1]))
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
        # the costliest card we cannot use soon goes in
        options = sorted(by["koku"], key=lambda a: -self.inst[a.args[0]].cost.total)
        want_up = colours < 4
        for a in options:
            if (a.args[1] == "up") == want_up:
                return a
        return options[0]

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

    def _battle_stratagem(self, view: dict[str, Any], by: dict[str, list[Action]]) -> Action:
        me = view["player"]
        b = view["public"]["battle"]
        mine = set(self._units(view, me))
        involved = {b["attacker"], b["interceptor"], b["target"]} if b else set()
        for a in by.get("stratagem", []):
            eff = self.inst[a.args[0]].spec.effect
            t = a.args[1] if len(a.args) > 1 else None
            if eff.do in GOOD_FOR_ENEMY and t in involved and t not in mine:
                return a
            if eff.do in ("strength", "siege_up") and t in involved and t in mine:
                return a
            if t is None and eff.do in ("draw", "summon", "build_wall"):
                return a
        return by["pass"][0]

    def _main(self, view: dict[str, Any], by: dict[str, list[Action]]) -> Action:
        me, foe = view["player"], 1 - view["player"]
        if "ougi" in by:
            return self._best_targeted(view, by["ougi"], me, 0)
        if "deploy" in by:
            return max(by["deploy"], key=lambda a: (self.inst[a.args[0]].cost.total, self.inst[a.args[0]].spec.strength or 0))
        strat = [a for a in by.get("stratagem", []) if self._useful(view, a, me)]
        if strat:
            return self._best_targeted(view, strat, me, 1)
        attack = self._attack(view, by.get("attack", []), foe)
        if attack is not None:
            return attack
        for a in by.get("ability", []):
            ab = self.inst[a.args[0]].spec.abilities[a.args[1]]
            if not ab.exhaust or a.args[0] in view["public"]["attacks"]:
                return a
        return by["end"][0]

    def _useful(self, view: dict[str, Any], a: Action, me: int) -> bool:
        eff = self.inst[a.args[0]].spec.effect
        if eff.do in ("aura", "win_if", "lose_if"):
            return True
        if eff.do in ("strength", "siege_up", "ready"):
            return False          # kept for battles
        return True

    def _best_targeted(self, view: dict[str, Any], actions: list[Action], me: int, start: int) -> Action:
        def score(a: Action) -> int:
            t = a.args[start] if len(a.args) > start else None
            return self._s(view, t) if t is not None else 0
        return max(actions, key=score)

    def _attack(self, view: dict[str, Any], attacks: list[Action], foe: int) -> Action | None:
        """Attack where no interceptor wins the fight; when our attackers outnumber their
        ready units, press the castle anyway (they cannot block everyone)."""
        if not attacks:
            return None
        walls = view["zones"]["walls"][foe]
        guards = [self._s(view, u) for u in self._ready(view, foe)]
        attackers = {a.args[0] for a in attacks}
        swarm = len(attackers) > len(guards)
        best, best_score = None, 0.0
        for a in attacks:
            u, target = a.args[0], a.args[1]
            power = self._s(view, u)
            safe = not guards or max(guards) < power
            if target == "castle":
                siege = int(view["public"]["siege"].get(str(u), 0))
                if walls == 0:
                    score = 100.0
                elif safe:
                    score = siege * 10
                elif swarm and siege:
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
