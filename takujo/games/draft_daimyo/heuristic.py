"""A heuristic Draft Daimyo bot that reads only its view (and the public card list and map).

Plan: draft warlords with battle dice and income developments, play what it can afford and
sell the rest, take empty and weakly held provinces next to its own with a clear majority
(never emptying its home, never giving up a province for one worth no more), hire when it has
gold to spare, use a tactics card in every battle where the card does something.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from ...bots.aims import best_aimed
from ...core.action import Action
from ...core.effects import Verb
from ...core.rng import Rng
from ...core.targets import Kind, Typed
from .board import FACTIONS
from .effects import VERBS
from .state import ROUNDS

if TYPE_CHECKING:
    from .game import DaimyoGame
    from .state import DaimyoState

    #: the view's battle in progress, as `schema.BattleView` documents it
    BattleJSON = TypedDict("BattleJSON", {"attacker": int, "defender": int, "from": int, "to": int, "k": int,
                                          "cards": list[int]})

#: the play verbs `act` weighs by a branch of its own (a card's value, its first target); any
#: other by the aim and worth its entry declares (`takujo.bots.aims`)
_OWN_BRANCHES = frozenset({"gold", "vp", "soldiers", "remove_neutral", "subvert", "treason_mark", "uprising",
                           "gekokujo", "per_province", "per_warlord", "per_development", "leader_loses",
                           "free_soldier", "famine"})


def estimate(s: "DaimyoState") -> list[float]:
    """Chances follow VP, plus the 国力 held (what the remaining rounds will pay): each
    player's (1 + VP + rounds left x 国力 held) squared, as a share of everyone's."""
    left = ROUNDS - s.round + 1
    kokuryoku = [p.kokuryoku for p in s.board.provinces]
    w = [(1 + s.vp[p] + left * sum(kokuryoku[i] for i in s.provinces_of(p))) ** 2 for p in range(s.n)]
    total = sum(w)
    return [x / total for x in w]


class DaimyoHeuristic:
    name = "heuristic"

    def __init__(self, game: "DaimyoGame") -> None:
        self.game = game
        self.cards = game.cards
        self.board = game.board

    def value(self, c: int) -> float:
        spec = self.cards[c].spec
        v = 2.0 + spec.attack * 2 + spec.defence + (2 if spec.first_strike else 0)
        v += sum(2 + int(e.get("gold", 0)) * 2 + int(e.get("vp", 0)) * 2 for e in spec.constant)
        if spec.play is not None:
            v += 2 + int(spec.play.get("n", 0)) + int(spec.play.get("vp", 0)) * 2
        if spec.castle:
            v += 2
        return v - spec.defection * 0.5 - spec.cost * 0.5

    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        by: dict[str, list[Action]] = {}
        for a in legal:
            by.setdefault(a.verb, []).append(a)
        me = view["player"]
        pub = view["public"]
        if "order" in by:
            return max(by["order"], key=lambda a: a.args[0])      # acting later helps [public]
        if "pick" in by:
            return max(by["pick"], key=lambda a: self.value(a.args[0]))
        if "choose" in by:
            gold = pub["gold"][me]
            affordable = [a for a in by["choose"] if self.cards[a.args[0]].spec.cost <= gold]
            pool = affordable or by["choose"]
            return max(pool, key=lambda a: self.value(a.args[0]))
        if "play" in by or "sell" in by:
            plays = by.get("play", [])
            play = self.cards[plays[0].args[0]].spec.play if plays else None
            if play is not None and play.do not in _OWN_BRANCHES:
                return self._aimed(view, VERBS[play.do], plays, by["sell"][0])
            if plays and self.value(plays[0].args[0]) > 1:
                return plays[0]
            return by["sell"][0]
        if "tactic" in by:
            useful = [a for a in by["tactic"] if self._tactic_helps(view, a.args[0])]
            if useful:
                return useful[0]
        if "notactic" in by:
            return by["notactic"][0]
        return self._basic(view, by)

    def _aimed(self, view: dict[str, Any], verb: Verb, plays: list[Action], sell: Action) -> Action:
        """A card whose verb this heuristic has no branch for: played on the target its aim
        favours (a foe's things, the leader's most), or sold when no target suits it."""
        me, vp = view["player"], view["public"]["vp"]
        others = [q for q in range(len(vp)) if q != me]
        leader = max(others, key=lambda q: (vp[q], -q)) if others else None
        options = [(verb, self.game.typed_args(a)[1:], a) for a in plays]
        best = best_aimed(options, me, lambda t: self._owner(view, t), leader)
        return best[0] if best is not None else sell

    @staticmethod
    def _owner(view: dict[str, Any], t: Typed) -> int | None:
        """Whose a target is: a province's holder, a card's in whose domain it lies (None:
        nobody's, such as a neutral or empty province)."""
        if t.target.kind is Kind.PLACE:
            holder = view["public"]["owner"][t.value]
            return holder if holder >= 0 else None
        if t.target.kind is Kind.CARD:
            return next((q for q, cards in enumerate(view["zones"]["domain"]) if t.value in cards), None)
        return None

    def _tactic_helps(self, view: dict[str, Any], c: int) -> bool:
        """Leave out tactics cards that do nothing here: 城方の内応 with no castle, 略奪 from a
        defender without gold, 金ヶ崎の退き口 when the defenders are not outnumbered."""
        pub = view["public"]
        b: BattleJSON = pub["battle"]
        do = self.cards[c].effect.do
        if do == "negate_castle":
            castles: dict[str, int] = pub["castles"]       # castle card -> its province
            return b["to"] in castles.values()
        if do == "plunder":
            gold: list[int] = pub["gold"]
            return gold[b["defender"]] > 0
        if do == "retreat":
            me: int = view["player"]
            return me == b["defender"] and b["k"] > pub["soldiers"][b["to"]]
        return True

    def _basic(self, view: dict[str, Any], by: dict[str, list[Action]]) -> Action:
        """The march that gains the most 国力: never one that leaves the home province empty
        (it would fall to the first soldier that walks in), and never a lone soldier's walk into
        an empty province worth no more than the one it leaves (it gains nothing)."""
        me = view["player"]
        pub = view["public"]
        owner, soldiers = pub["owner"], pub["soldiers"]
        provinces = self.board.provinces
        best, score = None, 0.0
        for a in by.get("march", []):
            frm, to, k = a.args
            if owner[to] == me:
                continue
            left = soldiers[frm] - k
            if left <= 0 and provinces[frm].home == FACTIONS[me]:
                continue
            defend = soldiers[to] if owner[to] != -2 else 0
            if k <= defend + (1 if owner[to] >= 0 else 0):
                continue
            if owner[to] == -2 and left <= 0 and provinces[to].kokuryoku <= provinces[frm].kokuryoku:
                continue                                      # a walk from one province to a poorer one
            gain = provinces[to].kokuryoku * 2 - defend + k * 0.1
            if gain > score:
                best, score = a, gain
        if best is not None:
            return best
        hires = by.get("hire", [])
        if hires and pub["gold"][me] >= 3:
            return max(hires, key=lambda a: a.args[0])
        return by["rest"][0]
