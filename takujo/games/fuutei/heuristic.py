"""A heuristic Fuutei bot. It reads only its view (and the public card catalogue).

Plan: keep the strongest attacker free to invade and put everyone else on guard, strongest
defender on the most valuable region; play characters and equipment at once; use hold cards
on the leader; invade where the odds are good; answer たわけ！ windows (every player with a
card is polled) by negating only what hurts it, would win the game or helps the leader.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...bots.aims import aimed_worth
from ...core.rng import Rng
from .cards import DEFENCES, Effect
from .effects import VERBS

#: the hold verbs `_hold` weighs by a branch of its own; any other by its declared aim and worth
_OWN_BRANCHES = frozenset({"draw", "temporary_character", "claim_center_region", "destroy_region", "proposal",
                           "assassinate", "seal_invasion", "destroy_equipment", "temporary_from_hand"})

if TYPE_CHECKING:
    from .game import FuuteiGame
    from .state import FuuteiState

MATERIAL_WEIGHT = 0.05  # a point of mean party stats, against one region point
UNGUARDED_WEIGHT = 0.8  # share of its points an undefended region counts for


def estimate(s: "FuuteiState") -> list[float]:
    """For search cut-offs (`Game.estimator`): chances grow with region points (less for
    undefended regions) and, less, with the party's strength (its mean dice and equipment
    bonuses): squared, so the leader stands out."""
    weights = [(held_value(s, p) + 2 + MATERIAL_WEIGHT * material(s, p)) ** 2 for p in range(s.n)]
    total = sum(weights)
    return [w / total for w in weights]


def held_value(s: "FuuteiState", p: int) -> float:
    """Region points, an undefended region counting UNGUARDED_WEIGHT of its points."""
    pts, guard = s.cat.points, s.guard
    return sum(pts[r] * (1.0 if r in guard else UNGUARDED_WEIGHT) for r in s.regions[p])


def material(s: "FuuteiState", p: int) -> float:
    """Mean total of the party's four stats, equipment bonuses included."""
    cat = s.cat
    total = 0.0
    for c in s.party[p]:
        stats = cat[c].stats
        if stats is not None:
            total += sum(d.mean for d in stats)
    for e, host in s.host.items():
        if host in s.party[p]:
            total += sum(cat[e].bonus)
    return total


class FuuteiHeuristic:
    name = "heuristic"

    def __init__(self, game: "FuuteiGame") -> None:
        self.game = game
        self.cat = game.catalogue

    # ----- reading the view ------------------------------------------------------------------
    def _stat(self, view: dict[str, Any], c: int, i: int) -> float:
        bonus = sum(self.cat[int(e)].bonus[i] for e, h in view["public"]["host"].items() if h == c)
        return self.cat.dice(c)[i].mean + bonus

    def attack_power(self, view: dict[str, Any], c: int) -> float:
        return max(self._stat(view, c, 0), self._stat(view, c, 2))

    def defence_power(self, view: dict[str, Any], c: int) -> float:
        return min(self._stat(view, c, 1), self._stat(view, c, 3))

    def margin(self, view: dict[str, Any], a: int, d: int) -> float:
        """Best expected attack minus the matching defence (positive: likely to win)."""
        return max(self._stat(view, a, 0) - self._stat(view, d, 1), self._stat(view, a, 2) - self._stat(view, d, 3))

    def value(self, c: int) -> float:
        card = self.cat[c]
        if card.stats is not None:
            return sum(d.mean for d in card.stats)
        if card.type == "equipment":
            return 10 + sum(card.bonus) * 3
        return {"tawake": 40, "hold": 30, "battle_support": 25}.get(card.type, 0)

    # ----- choosing --------------------------------------------------------------------------------
    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        by_verb: dict[str, list[Action]] = {}
        for a in legal:
            by_verb.setdefault(a.verb, []).append(a)
        me = view["player"]
        pub = view["public"]
        phase = pub["phase"]
        if "tawake" in by_verb or "allow" in by_verb:
            return self._respond(view, by_verb)
        if "support" in by_verb or "nosupport" in by_verb:
            best = max(by_verb.get("support", []), key=lambda a: self.value(a.args[0]), default=None)
            return best or by_verb["nosupport"][0]
        if "attack" in by_verb:
            b = pub["battle"]
            side = b["players"].index(me) if b["players"][0] != b["players"][1] else 0
            a, d = b["chars"][side], b["chars"][1 - side]
            phys = self._stat(view, a, 0) - self._stat(view, d, 1)
            mag = self._stat(view, a, 2) - self._stat(view, d, 3)
            return Action(me, "attack", ("phys" if phys >= mag else "mag",))
        if "persuade" in by_verb:
            return by_verb["persuade"][0]
        if phase == "reassign":
            guard = {int(r) for r in pub["guard"]}
            fresh = [a for a in by_verb.get("guard", []) if a.args[0] not in guard]
            if fresh:
                return max(fresh, key=lambda a: self.defence_power(view, a.args[1]))
            return by_verb["done"][0]
        if phase == "hand":
            return min(by_verb["discard"], key=lambda a: self.value(a.args[0]))
        if phase == "battle":
            return self._invade(view, by_verb)
        return self._main(view, by_verb)

    def _respond(self, view: dict[str, Any], by_verb: dict[str, list[Action]]) -> Action:
        """A たわけ！ window (everyone with cards is polled): allow unless the card would hurt
        me, win the game for its user, or help the leader; never spend a たわけ！ on a card
        whose dice (rolled before the window, FTR-TAWAKE-03) already made it fail."""
        if "tawake" in by_verb and self._worth_negating(view):
            return by_verb["tawake"][0]
        return by_verb["allow"][0]

    def _worth_negating(self, view: dict[str, Any]) -> bool:
        me = view["player"]
        pub = view["public"]
        data = pub["windows"][-1]["data"]
        user: int = data["user"]
        card: int = data["card"]
        points: list[int] = pub["points"]
        need: int = pub["threshold"]
        leads = points[user] >= max(points)
        if data["for"] == "support":
            b = pub["battle"]
            if me in b["players"]:
                return True                     # my opponent's card, in my own battle
            # a bystander stops the leader's invasion, or its defence against a laggard
            return leads and points[user] > points[me]
        eff = self.cat.effect(card)
        do = eff.do
        zones = view["zones"]
        t = data["targets"][0] if data["targets"] else -1     # -1: no target
        mine = set(zones["party"][me]) | set(zones["regions"][me]) | {
            int(e) for e, h in pub["host"].items() if h in zones["party"][me]}
        if do == "claim_center_region":
            return points[user] + (self.cat[t].spec.points or 0) >= need or (leads and points[user] > points[me])
        if do in ("proposal", "assassinate"):
            return t in mine and self._roll_can_succeed(view, data, eff, t)
        if do == "temporary_character":
            return leads and points[user] > points[me]
        return t in mine or (leads and points[user] > points[me] and do in ("destroy_region", "seal_invasion"))

    def _roll_can_succeed(self, view: dict[str, Any], data: dict[str, Any], eff: Effect, t: int) -> bool:
        """Whether the roll already made can still succeed against character `t`."""
        roll: int | None = data.get("roll")
        if roll is None:
            return True
        if eff.do == "proposal":
            party = view["zones"]["party"][data["user"]]
            sex = self.cat[t].spec.sex
            partner = any(self.cat[c].spec.sex not in (None, sex) for c in party)
            return roll >= int(eff.get("need", 5)) - (int(eff.get("opposite_sex_bonus", 0)) if partner else 0)
        i = DEFENCES[eff.get("against", "phys_def")]
        dice = self.cat.dice(t)[i]
        bonus = sum(self.cat[int(e)].bonus[i] for e, h in view["public"]["host"].items() if h == t)
        return roll >= dice.n + dice.bonus + bonus      # the lowest the defence can be

    def _invade(self, view: dict[str, Any], by_verb: dict[str, list[Action]]) -> Action:
        pub = view["public"]
        guard = {int(r): c for r, c in pub["guard"].items()}
        best, best_score = by_verb["pass"][0], 0.0
        for a in by_verb.get("invade", []):
            char, region = a.args
            defender = guard.get(region)
            points = self.cat[region].spec.points or 0
            if defender is None:
                score: float = points + 5
            else:
                taken = sum(self.cat[r].spec.points or 0 for r, c in guard.items() if c == defender)
                m = self.margin(view, char, defender)
                if m < 1:
                    continue
                score = taken * min(1.0, 0.5 + m / 10)
            if score > best_score:
                best, best_score = a, score
        return best

    def _main(self, view: dict[str, Any], by_verb: dict[str, list[Action]]) -> Action:
        me = view["player"]
        if "play" in by_verb:
            return max(by_verb["play"], key=lambda a: self.value(a.args[0]))
        party = view["zones"]["party"][me]
        if "equip" in by_verb:
            striker = max(party, key=lambda c: self.attack_power(view, c))
            for a in by_verb["equip"]:
                if a.args[1] == striker:
                    return a
        hold = self._hold(view, by_verb.get("hold", []))
        if hold is not None:
            return hold
        move = self._guard_move(view, by_verb)
        if move is not None:
            return move
        return by_verb["end"][0]

    def _hold(self, view: dict[str, Any], holds: list[Action]) -> Action | None:
        me = view["player"]
        pub = view["public"]
        leader = max((p for p in range(len(pub["points"])) if p != me), key=lambda p: pub["points"][p])
        guard = {int(r): c for r, c in pub["guard"].items()}
        best, best_score = None, 0.0
        for a in holds:
            do = self.cat.effect(a.args[0]).do
            t = a.args[1] if len(a.args) > 1 else -1          # -1: no target
            owner = next((p for p, party in enumerate(view["zones"]["party"]) if t in party), -1)
            score = 0.0
            if do in ("draw", "temporary_character"):
                score = 5
            elif do == "claim_center_region":
                score = 20 + (self.cat[t].spec.points or 0)
            elif do == "destroy_region":
                rowner = next((p for p, regs in enumerate(view["zones"]["regions"]) if t in regs), -1)
                score = 0 if rowner in (-1, me) else (self.cat[t].spec.points or 0) + (3 if rowner == leader else 0)
            elif do in ("proposal", "assassinate") and owner not in (-1, me):
                guarded = sum(self.cat[r].spec.points or 0 for r, c in guard.items() if c == t)
                score = 6 + guarded / 2 + (3 if owner == leader else 0)
            elif do == "seal_invasion" and owner not in (-1, me) and t not in guard.values():
                score = 4 + (3 if owner == leader else 0)
            elif do == "destroy_equipment":
                h = pub["host"].get(str(t))
                if h is not None and h not in view["zones"]["party"][me]:
                    score = 4
            elif do == "temporary_from_hand":
                score = 3
            elif do not in _OWN_BRANCHES:
                # a verb this heuristic has no branch for: by the aim and worth it declares
                score = aimed_worth(VERBS[do], self.game.typed_args(a)[1:], me,
                                    lambda t: self._owner(view, t.value), leader) or 0.0
            if score > best_score:
                best, best_score = a, score
        return best

    @staticmethod
    def _owner(view: dict[str, Any], card: Any) -> int | None:
        """Whose a card on the table is: a character's party, a region's holder, equipment's
        host's party (None: the centre's, nobody's)."""
        zones = view["zones"]
        host = view["public"]["host"].get(str(card))
        card = host if host is not None else card
        for zone in ("party", "regions"):
            for p, cards in enumerate(zones[zone]):
                if card in cards:
                    return p
        return None

    def _guard_move(self, view: dict[str, Any], by_verb: dict[str, list[Action]]) -> Action | None:
        """Converge on: strongest attacker free, the rest guarding, best defender on best region."""
        me = view["player"]
        pub = view["public"]
        party = list(view["zones"]["party"][me])
        regions = sorted(view["zones"]["regions"][me], key=lambda r: -(self.cat[r].spec.points or 0))
        if not regions or not party:
            return None
        guard = {int(r): c for r, c in pub["guard"].items()}
        striker = max(party, key=lambda c: self.attack_power(view, c)) if len(party) > 1 else None
        keepers = sorted((c for c in party if c != striker), key=lambda c: -self.defence_power(view, c))
        if not keepers:
            return None
        for i, r in enumerate(regions):
            want = keepers[min(i, len(keepers) - 1)]
            if guard.get(r) != want:
                return Action(me, "guard", (r, want))
        return None
