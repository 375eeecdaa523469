"""A heuristic Ibara bot that reads only its view (and the public content).

Plan: reach the princess (fighting her escort when the odds are fair), satisfy the face-up
whim — with items, by visiting, or by exploring corners for items — and walk her to the gate
once enough whims are held. Escorting, it keeps a card to fight with; it does not draw cards
it would have to discard, and uses the ring only to turn a lost or tied combat. Between cards
of equal worth it takes the first in content order (`card_order`), never the lowest id, so the
order of the content file does not change its play.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ...core.action import Action
from ...bots.aims import best_aimed
from ...core.rng import Rng
from ...core.targets import Kind, Typed
from . import board
from .combat import GAIBLITZ_BONUS, compare
from .content import BEATS, SHIELD, SUITS, Content, Whim
from .effects import SP
from .state import HAND_LIMIT

if TYPE_CHECKING:
    from .game import IbaraGame
    from .state import IbaraState

ITEM_WEIGHT = 0.5      # an item chip in hand, against 3 for a whim held
#: the verbs whose arguments are all action cards, and those whose first argument is one (then
#: a square): their actions are put in content order before the bot picks among them
ALL_CARDS = frozenset({"fight", "ring", "discard", "drop", "nofight", "explore"})
FIRST_CARD = frozenset({"move", "sp"})
#: the SP verbs the plan decides on itself (it draws; it keeps the others to fight with): an SP
#: card of any other verb is played by what its verb declares (`_aimed_sp`)
PLANNED_SP = frozenset({"draw", "teleport", "move_event"})


def card_order(c: Content) -> list[int]:
    """Each action card's place in content order: numbered cards and shields by suit and
    number, then SP cards by effect and name; copies of a card in id order. Numbered cards and
    shields get their ids in this order from ``[deck]``; SP cards get theirs from the order of
    the ``[[sp]]`` tables, which must not matter."""
    def key(i: int) -> tuple[Any, ...]:
        a = c.cards[i]
        if a.sp is not None:
            return (1, a.sp, a.name, i)
        return (0, SUITS.index(a.suit) if a.suit in SUITS else len(SUITS), a.number, i)
    order = sorted(range(len(c.cards)), key=key)
    rank = [0] * len(order)
    for place, i in enumerate(order):
        rank[i] = place
    return rank


def estimate(s: "IbaraState") -> list[float]:
    """For search cut-offs (`Game.estimator`): chances follow whims held, escorting the
    princess (more so holding the items her face-up whim asks for), items in hand, and how
    near the princess (or, with enough whims, the gate) the knight is."""
    need = s.whims_needed()
    wanted = s.whim(s.whim_up[0]).items if s.whim_up else ()
    w = []
    for p in range(s.n):
        score = 1 + 3 * len(s.whims[p]) + ITEM_WEIGHT * len(s.items[p])
        if s.escort == p:
            score += 3
            if len(s.whims[p]) >= need:                  # on the way out
                score += 8 / (1 + board.distances(s.pos[p]).get(board.GATE, 9))
            elif wanted and s.holds(p, wanted):
                score += 2                               # can satisfy the whim now
        else:
            score += 2 / (1 + board.distances(s.pos[p]).get(s.princess, 9))
        w.append(score)
    return [x / sum(w) for x in w]


class IbaraHeuristic:
    name = "heuristic"

    def __init__(self, game: "IbaraGame") -> None:
        self.game = game
        self.c = game.content
        self.rank = card_order(game.content)

    def _in_content_order(self, verb: str, actions: list[Action]) -> list[Action]:
        """The actions ordered by their cards' content (a stable sort: the squares of a move
        keep their order), so that ties fall to the same card whatever its id."""
        rank = self.rank
        if verb in ALL_CARDS:
            return sorted(actions, key=lambda a: sorted([rank[c] for c in a.args]))
        if verb in FIRST_CARD:
            return sorted(actions, key=lambda a: rank[a.args[0]])
        return actions

    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        by: dict[str, list[Action]] = {}
        for a in legal:
            by.setdefault(a.verb, []).append(a)
        for verb, actions in by.items():
            if len(actions) > 1:
                by[verb] = self._in_content_order(verb, actions)
        me = view["player"]
        pub = view["public"]
        if "fight" in by:
            return max(by["fight"], key=lambda a: self._play_value(a.args))
        if "nofight" in by:
            return by["nofight"][0]
        if "declare" in by:
            return max(by["declare"], key=lambda a: (a.args[0] <= 2, a.args[0]))
        if "ring" in by or "noring" in by:
            return self._ring(view, by)
        if "choose" in by:
            return self._choose(view, by)
        if "drop" in by or "drop_suit" in by:
            return (by.get("drop") or by["drop_suit"])[0]
        if "lose" in by:
            return by["lose"][0]
        if "discard" in by:
            return min(by["discard"], key=lambda a: self._keep_value(a.args[0]))
        if "satisfy" in by:
            return by["satisfy"][0]
        goal = self._goal(view)
        moves = by.get("move", [])
        if goal is not None and moves:
            here = board.distances(goal).get(pub["pos"][me], 99)
            dist = board.distances(goal)
            best = min(moves, key=lambda a: (dist.get(a.args[1], 99), self._keep_value(a.args[0])))
            if dist.get(best.args[1], 99) < here and self._fight_ok(view, best):
                return best
        if "explore" in by and self._wants_items(view):
            spare = self._spare(view, [a.args[0] for a in by["explore"]])
            if spare:
                pick = max(spare, key=lambda c: self.c.cards[c].number)
                return next(a for a in by["explore"] if a.args[0] == pick)
        aimed = self._aimed_sp(view, by.get("sp", ()))
        if aimed is not None:
            return aimed
        if "gaiblitz" in by:
            return self._gaiblitz(view, by["gaiblitz"])
        hand = view["zones"]["hand"][me]
        for a in by.get("sp", []):                 # 2 more cards, unless they would be discarded
            if self.c.cards[a.args[0]].sp == "draw" and len(hand) + 1 <= HAND_LIMIT:
                return a
        return by["end"][0]

    # ----- SP cards of a verb the plan has no branch for ----------------------------------------
    def _aimed_sp(self, view: dict[str, Any], actions: Iterable[Action]) -> Action | None:
        """The best SP card of a verb outside `PLANNED_SP` and its target, by what the verb
        declares (`effects.SP`: its aim and worth; `takujo.bots.aims`); None for none."""
        cards = self.c.cards
        options = []
        for a in actions:
            sp = cards[a.args[0]].sp
            if sp not in PLANNED_SP and sp in SP:
                options.append((SP[sp], self.game.typed_args(a)[1:], a))
        if not options:
            return None
        best = best_aimed(options, view["player"], lambda t: self._owner(view, t), self._leader(view))
        return best[0] if best is not None else None

    def _owner(self, view: dict[str, Any], t: Typed) -> int | None:
        """Whose a target is: a square is the first knight's on it, a card in my hand mine."""
        if t.target.kind is Kind.PLACE:
            return next((p for p, sq in enumerate(view["public"]["pos"]) if sq == t.value), None)
        if t.target.kind is Kind.CARD and t.value in view["zones"]["hand"][view["player"]]:
            me: int = view["player"]
            return me
        return None

    def _leader(self, view: dict[str, Any]) -> int | None:
        """The opponent nearest to winning: the most whims held, then the escort."""
        pub, me = view["public"], view["player"]
        whims = view["zones"]["whims"]
        others = [p for p in range(len(pub["pos"])) if p != me]
        return max(others, key=lambda p: (len(whims[p]), pub["escort"] == p), default=None)

    # ----- helpers ---------------------------------------------------------------------------
    def _keep_value(self, c: int) -> float:
        card = self.c.cards[c]
        if card.is_sp:
            return 20
        if card.suit == SHIELD:
            return 14
        return card.number

    def _play_value(self, cards: tuple[int, ...]) -> float:
        cs = [self.c.cards[c] for c in cards]
        if any(c.suit == SHIELD for c in cs):
            return 30
        return sum(15 if c.is_sp else c.number for c in cs) - 0.5 * len(cs)

    def _escorting_ready(self, view: dict[str, Any]) -> bool:
        pub = view["public"]
        me: int = view["player"]
        escort: int = pub["escort"]
        return escort == me and len(view["zones"]["whims"][me]) >= pub["whims_needed"]

    def _goal(self, view: dict[str, Any]) -> int | None:
        pub = view["public"]
        me = view["player"]
        if pub["escort"] != me:
            princess: int = pub["princess"]
            return princess
        if self._escorting_ready(view):
            return board.GATE
        up = view["zones"]["whim_up"]
        if up:
            whim: Whim = self.c.whims[up[0]]
            if whim.deed == "visit":
                return whim.square
            if whim.items:
                have = [self.c.items[i].id for i in view["zones"]["items"][me]]
                if not all(have.count(x) >= whim.items.count(x) for x in whim.items):
                    return self._nearest_corner(pub["pos"][me])
        return None

    def _nearest_corner(self, sq: int) -> int:
        dist = board.distances(sq)
        return min(board.CORNERS, key=lambda c: dist.get(c, 99))

    def _fight_ok(self, view: dict[str, Any], move: Action) -> bool:
        """Move into a knight only with a strong card left to fight with."""
        pub = view["public"]
        me = view["player"]
        if move.args[1] not in [q for i, q in enumerate(pub["pos"]) if i != me]:
            return True
        rest = [c for c in view["zones"]["hand"][me] if c != move.args[0]]
        return any(not self.c.cards[c].is_sp and self.c.cards[c].number >= 8 for c in rest)

    def _wants_items(self, view: dict[str, Any]) -> bool:
        """Exploring pays while chips are left to find; not on the way out."""
        return not self._escorting_ready(view) and view["zones"]["item_pool"] > 0

    def _spare(self, view: dict[str, Any], cards: list[int]) -> list[int]:
        """The cards of `cards` the bot may spend: while escorting, not its last card that can
        fight (an empty hand loses the princess to any attack); with a hand over the limit,
        any (the surplus would be discarded anyway)."""
        me = view["player"]
        hand = view["zones"]["hand"][me]
        if len(hand) > HAND_LIMIT or view["public"]["escort"] != me:
            return cards
        fighters = [c for c in hand if not self.c.cards[c].is_sp and self.c.cards[c].suit != SHIELD]
        if len(fighters) >= 2:
            return cards
        return [c for c in cards if c not in fighters]

    def _gaiblitz(self, view: dict[str, Any], options: list[Action]) -> Action:
        """IBR-GABE-01: draw 3 himself while that keeps him within the hand limit; otherwise
        make the escort (else the fullest hand) discard 3."""
        me = view["player"]
        hands = view["zones"]["hand"]
        size = [h if isinstance(h, int) else len(h) for h in hands]
        if size[me] + 3 <= HAND_LIMIT:
            return next(a for a in options if a.args == (me, "draw"))
        escort = view["public"]["escort"]
        rivals = [a for a in options if a.args[1] == "discard" and a.args[0] != me]
        if rivals:
            return max(rivals, key=lambda a: (a.args[0] == escort, size[a.args[0]]))
        return next(a for a in options if a.args == (me, "draw"))

    def _value(self, view: dict[str, Any], i: int, cards: list[int] | tuple[int, ...]) -> tuple[str, int] | None:
        """The (suit, strength) a one-card play of side i counts as (a multi-card play: its
        strongest card), with ゲイブリッツ's bonus; None for no card."""
        pub = view["public"]
        p = pub["combat"]["players"][i]
        real = [self.c.cards[c] for c in cards if not self.c.cards[c].is_sp]
        if not real:
            return None
        best = max(real, key=lambda c: c.number)
        assert best.suit is not None                    # every card but an SP card has a suit
        kind = self.c.knights[pub["knights"][p]].kind
        bonus = (kind == "combat" or (kind == "weak" and pub["escort"] == p)) and best.suit != SHIELD \
            and not self.game.rules.gaiblitz_buff
        return best.suit, best.number + (GAIBLITZ_BONUS if bonus else 0)

    def _ring(self, view: dict[str, Any], by: dict[str, list[Action]]) -> Action:
        """Play again only when losing now and the new play would do better."""
        b = view["public"]["combat"]
        me = view["player"]
        i = b["players"].index(me)
        sign = 1 if i == 0 else -1

        def outcome(mine: list[int] | tuple[int, ...]) -> int:
            va, vb = self._value(view, i, mine), self._value(view, 1 - i, b["plays"][1 - i])
            if va is None or vb is None:
                return (va is not None) - (vb is not None)
            return sign * (compare(va, vb) if i == 0 else compare(vb, va))

        now = outcome(b["plays"][i])
        if now < 1 and by.get("ring"):
            best = max(by["ring"], key=lambda a: (outcome(a.args), -self._play_value(a.args)))
            if outcome(best.args) > now:
                return best
        return by["noring"][0]

    def _choose(self, view: dict[str, Any], by: dict[str, list[Action]]) -> Action:
        b = view["public"]["combat"]
        me = view["player"]
        i = b["players"].index(me)
        theirs = [self.c.cards[c] for c in b["plays"][1 - i]]
        suits = {c.suit for c in theirs}
        for a in by["choose"]:
            if any(BEATS.get(a.args[0]) == s for s in suits):
                return a
        return by["choose"][0]
