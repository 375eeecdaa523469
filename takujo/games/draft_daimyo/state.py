"""The state of a game of ドラフト戦国大名 and its rounds.

Round: turn order → (from round 2) two events → draft to a 5-card hand → four turns, each a
simultaneous face-down card choice, then in turn order the card (played or sold for 1 gold)
and a basic action (hire or march) → upkeep, income and VP, tactics acquisition.
Battles are in `battle.py`, card effects in `effects.py`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...core.action import Action
from ...core.decision import Decision, DecisionKind
from ...core.dice import Dice
from ...core.fields import Bound, per_player
from ...core.phases import Phase, PhasedState
from ...core.piles import DrawLog, discard_card, draw_cards, refill_pile, take_top
from ...core.rng import Rng
from ...core.simultaneous import Commits, commit_face_down
from ...core.visibility import Vis, ZoneSpec
from . import battle, effects
from .battle import Battle, tactic_actions
from .battle import declare as declare_tactic
from .board import FACTIONS, Board
from .cards import Card, CardSet
from .phases import BASIC, BASIC_DONE, CARD, CHOOSE, DRAFT, ORDER, OVER, TACTIC

if TYPE_CHECKING:
    from .game import DaimyoGame

ROUNDS, TURNS, HAND = 4, 4, 5          # [public] 4 rounds x 4 turns, a 5-card hand
START_GOLD, START_SOLDIERS = 3, 3      # [designed]
FREE_UPKEEP = 2                        # [public] upkeep from the 3rd warlord or development
HIRE_MAX, MARCH_MAX = 2, 2             # [designed]
NEUTRAL, EMPTY = -1, -2
#: A tactics card drawn is seen by its drawer alone; the public `tactics_check` that follows
#: says whether one was drawn (DSD-TACTICS-GAIN-05/06).
TACTICS_DRAW = DrawLog(card="tactics_drawn", count="none")


class DaimyoState(PhasedState):
    ZONES = (
        ZoneSpec("draft_deck", Vis.COUNT),
        ZoneSpec("draft_discard", Vis.PUBLIC),
        ZoneSpec("packets", Vis.OWNER, per_player=True),   # the draft packet a player holds
        ZoneSpec("hand", Vis.OWNER, per_player=True),
        ZoneSpec("chosen", Vis.OWNER, per_player=True),    # this turn's card, face down
        ZoneSpec("domain", Vis.PUBLIC, per_player=True),   # warlords and developments
        ZoneSpec("event_deck", Vis.COUNT, pool="event"),
        ZoneSpec("event_discard", Vis.PUBLIC),
        ZoneSpec("honours", Vis.PUBLIC),                   # the honour supply
        ZoneSpec("tactics_deck", Vis.COUNT, pool="tactics"),               # DSD-TACTICS-PREP-01
        ZoneSpec("tactics_hand", Vis.OWNER, per_player=True, pool="tactics"),   # DSD-TACTICS-GAIN-05/06
        ZoneSpec("tactics_played", Vis.OWNER, per_player=True, pool="tactics"),  # face down until revealed
        ZoneSpec("tactics_discard", Vis.PUBLIC),           # DSD-TACTICS-USE-11
    )

    game: "DaimyoGame"
    cards: Bound[CardSet]
    board: Bound[Board]
    n: Bound[int]                                  # players
    # the zones (card ids)
    packets: list[list[int]] = per_player([])
    hand: list[list[int]] = per_player([])
    chosen: list[list[int]] = per_player([])
    domain: list[list[int]] = per_player([])
    tactics_hand: list[list[int]] = per_player([])
    tactics_played: list[list[int]] = per_player([])
    draft_deck: list[int] = []
    draft_discard: list[int] = []
    event_deck: list[int] = []
    event_discard: list[int] = []
    honours: list[int] = []
    tactics_deck: list[int] = []
    tactics_discard: list[int] = []
    # the map, per province
    active: list[int] = []                         # 0: out of play with 3 players
    owner: list[int] = []                          # a player, NEUTRAL or EMPTY
    soldiers: list[int] = []
    castles: dict[int, int] = {}                   # 城 card -> province it stands in
    # the players
    order: list[int] = []                          # this round's turn order
    gold: list[int] = per_player(START_GOLD)
    vp: list[int] = per_player(0)
    battles_won: list[int] = per_player(0)
    marked: list[int] = []                         # warlords carrying 謀反の兆し (DSD-CARD-04)
    # where the round stands
    round: int = 0
    turn: int = 0                                  # of the round
    turn_index: int = 0                            # position in `order` of the player to act
    pick_no: int = 0                               # draft picks completed this round
    phase: str = ORDER
    commits: Commits | None = None                 # draft picks, card choices, tactics declarations
    battle: Battle | None = None
    choosers: list[int] = []                       # turn-order choice: players in choosing order
    new_order: list[int] = []                      # turn-order choice: per position, its player or -1

    # ----- creation ---------------------------------------------------------------------
    @classmethod
    def new(cls, game: "DaimyoGame", seed: int) -> "DaimyoState":
        s = cls.__new__(cls)
        s._init_base(game, Rng(seed))
        s._setup()
        return s

    def _bind(self, game: "DaimyoGame") -> None:  # type: ignore[override]
        self.cards, self.board, self.n = game.cards, game.board, game.players

    def lay_out(self) -> None:
        """Every card in its deck (unshuffled) and the map as it starts: homes with their
        soldiers, neutral forces, and with 3 players the provinces out of play."""
        b, cs = self.board, self.cards
        self.draft_deck = [c for c in range(len(cs.cards)) if cs[c].type in ("warlord", "development", "strategy")]
        self.event_deck = cs.ids("event")
        self.honours = cs.ids("honour")
        self.tactics_deck = cs.ids("tactics")
        # [public] 4 players: 織田 武田 上杉 今川; 3 players drop 今川 and 駿河・遠江・伊豆.
        self.active = [0 if (self.n == 3 and p.three_player_out) else 1 for p in b.provinces]
        self.owner = [NEUTRAL if p.neutral and self.active[i] else EMPTY for i, p in enumerate(b.provinces)]
        self.soldiers = [p.neutral.soldiers if p.neutral and self.active[i] else 0
                         for i, p in enumerate(b.provinces)]
        for seat in range(self.n):
            h = b.home(FACTIONS[seat])
            self.owner[h] = seat
            self.soldiers[h] = START_SOLDIERS

    def _setup(self) -> None:
        n = self.n
        self.lay_out()
        self.shuffle(self.draft_deck, "draft deck")
        self.shuffle(self.event_deck, "event deck")
        if self.tactics_deck:
            self.shuffle(self.tactics_deck, "tactics deck")     # DSD-TACTICS-PREP-01
        first = self.pick(n, "first_player")
        self.order = [(first + i) % n for i in range(n)]
        self._start_round()

    # ----- facts ------------------------------------------------------------------------------
    def card(self, c: int) -> Card:
        return self.cards.cards[c]

    def is_home(self, p: int, province: int) -> bool:
        return self.board.provinces[province].home == FACTIONS[p]

    def provinces_of(self, p: int) -> list[int]:
        return [i for i, o in enumerate(self.owner) if o == p]

    def card_owner(self, c: int) -> int:
        return next(p for p in range(self.n) if c in self.domain[p])

    def warlords(self, p: int) -> list[int]:
        return [c for c in self.domain[p] if self.card(c).type == "warlord"]

    def constants(self, p: int, do: str) -> int:
        cards = self.cards.cards
        return sum([cards[c].constants.get(do, 0) for c in self.domain[p]])

    def attack_dice(self, p: int) -> int:
        return sum(self.card(c).spec.attack for c in self.warlords(p)) + self.constants(p, "attack_dice")

    def defence_dice(self, p: int) -> int:
        return sum(self.card(c).spec.defence for c in self.warlords(p)) + self.constants(p, "defence_dice")

    def first_strike(self, p: int) -> bool:
        return any(self.card(c).spec.first_strike for c in self.warlords(p))

    def ignores_defence(self, p: int) -> bool:
        return any(e.do == "ignore_defence" for c in self.domain[p] for e in self.card(c).spec.constant)

    def has_castle(self, province: int) -> bool:
        return province in self.castles.values()

    def raze_castles(self, province: int, keep_owner: int = -3) -> None:
        """A castle falls with its province (taken, left empty and entered, or risen against),
        unless it belongs to `keep_owner` [designed]."""
        for c, pr in list(self.castles.items()):
            if pr == province and self.card_owner(c) != keep_owner:
                del self.castles[c]
                self.domain[self.card_owner(c)].remove(c)
                self.draft_discard.append(c)
                self.say("castle_razed", card=c, province=province)

    def retreat_square(self, p: int, province: int) -> int | None:
        own = [q for q in self.board.adjacent[province] if self.owner[q] == p]
        return min(own) if own else None

    def march_limit(self, p: int) -> int:
        """DSD-CARD-05: each 街道 lets a march move one more soldier."""
        return MARCH_MAX + self.constants(p, "march_bonus")

    def rank(self, p: int) -> int:
        """Standard competition ranking on VP: 1 = leader, ties share (DSD-TACTICS-GAIN-03)."""
        return 1 + sum(1 for q in range(self.n) if self.vp[q] > self.vp[p])

    @property
    def turn_player(self) -> int:
        return self.order[self.turn_index]

    # ----- rounds --------------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.round += 1
        self.say("round", round=self.round)
        if self.round > 1:
            self._turn_order()
            if self.phase == ORDER:
                return
        self._after_order()

    def _turn_order(self) -> None:
        """[designed] the first player passes left each round; with `turn_order_choice`
        [public variant] players choose positions, the lowest in VP first, ties by a die
        (lowest roll chooses first)."""
        n = self.n
        if not self.game.options.turn_order_choice:
            self.order = self.order[1:] + self.order[:1]
            return
        rolls = {p: self.roll(Dice(1, 0), "order_tie", p)[0] for p in range(n)}
        self.choosers = sorted(range(n), key=lambda p: (self.vp[p], rolls[p], p))
        self.new_order = [-1] * n
        self.phase = ORDER

    def _after_order(self) -> None:
        self.say("order", order=list(self.order))
        if self.round > 1:                              # [public] 2 events from round 2
            for _ in range(2):
                if not self.event_deck:
                    refill_pile(self, self.event_deck, self.event_discard, "event deck")
                e = self.event_deck.pop()
                self.event_discard.append(e)
                self.say("event", card=e)
                effects.resolve(self, -1, self.card(e).effect, (), source=e)
        self._deal()

    def _deal(self) -> None:
        """[public] the draft: 5 cards each; take 1 and pass the rest to the left."""
        if len(self.draft_deck) < HAND * self.n:
            refill_pile(self, self.draft_deck, self.draft_discard, "draft deck")
        for p in range(self.n):
            self.packets[p] = take_top(self.draft_deck, HAND)
        self.pick_no = 0
        self.phase = DRAFT
        # who picks is fixed from the packet sizes, which everyone sees
        waiting = [p for p in range(self.n) if self.packets[p]]
        if not waiting:
            return self._after_draft_pick()
        self.commits = Commits(waiting)

    def _after_draft_pick(self) -> None:
        # each pick went from the packet to the hand face down when it was committed
        self.pick_no += 1
        n = self.n
        self.packets = [self.packets[(p - 1) % n] for p in range(n)]   # pass to the left
        if self.pick_no < HAND and any(self.packets):
            self.commits = Commits([p for p in range(n) if self.packets[p]])
            return
        for p in range(n):
            self.draft_discard += self.packets[p]
            self.packets[p] = []
        self.turn = 0
        self._start_turn()

    def _start_turn(self) -> None:
        self.turn += 1
        self.turn_index = 0
        self.say("turn", round=self.round, turn=self.turn)
        waiting = [p for p in range(self.n) if self.hand[p]]
        if not waiting:
            return self._end_round()
        self.phase = CHOOSE                               # [public] each picks a card face down
        self.commits = Commits(waiting)

    def _after_choose(self) -> None:
        # each chosen card went from the hand to `chosen` face down when it was committed
        self.commits = None
        self.turn_index = 0
        self._next_actor()

    def _next_actor(self) -> None:
        """The next player in turn order plays their chosen card (if any), then a basic action;
        after the last, the next turn or the round's end."""
        if self.turn_index < self.n:
            self.phase = CARD if self.chosen[self.turn_player] else BASIC
            return
        self.turn_index = 0
        if self.turn < TURNS:
            self._start_turn()
        else:
            self._end_round()

    def after_basic(self) -> None:
        self.turn_index += 1
        self._next_actor()

    def _end_round(self) -> None:
        """Leftover cards are discarded; upkeep; income and VP; tactics acquisition."""
        for p in range(self.n):
            self.draft_discard += self.hand[p]
            self.hand[p] = []
        for p in self.order:
            self._upkeep(p)
        for p in range(self.n):
            land = sum(self.board.provinces[i].kokuryoku for i in self.provinces_of(p))
            gold = land + sum(int(e.get("gold", 0)) for c in self.domain[p]
                              for e in self.card(c).spec.constant if e.do == "income")
            vp = land + sum(int(e.get("vp", 0)) for c in self.domain[p]
                            for e in self.card(c).spec.constant if e.do == "income")
            self.gold[p] += gold
            self.vp[p] += vp
            self.say("income", player=p, gold=gold, vp=vp)
        if self.game.options.tactics:
            self._tactics_checks()
        if self.round >= ROUNDS:
            return self._final_scoring()
        self._start_round()

    def _upkeep(self, p: int) -> None:
        """[public] upkeep from the 3rd warlord or development: 1 gold each [designed amount];
        what cannot be paid is dismissed, cheapest first [designed penalty]; of equal cost, the
        one longest in the domain (not the lowest id: a card file's order must not choose)."""
        paying = [c for c in self.domain[p] if not any(e.do == "upkeep_free" for e in self.card(c).spec.constant)]
        due = max(0, len(paying) - FREE_UPKEEP)
        paid = min(due, self.gold[p])
        self.gold[p] -= paid
        for _ in range(due - paid):
            c = min(paying, key=lambda x: self.card(x).spec.cost)      # ties: domain order
            paying.remove(c)
            self.domain[p].remove(c)
            self.castles.pop(c, None)
            if c in self.marked:                           # 謀反の兆し leaves with him (DSD-CARD-04)
                self.marked.remove(c)
            self.draft_discard.append(c)
            self.say("dismissed", player=p, card=c)
        if due:
            self.say("upkeep", player=p, gold=paid)

    def _tactics_checks(self) -> None:
        """DSD-TACTICS-GAIN-01..08: at the round's end, in turn order: roll a die, −1 with two
        or more warlords; success if it is at most your rank; draw one if any are left."""
        for p in self.order:
            roll = self.roll(Dice(1, 0), "tactics_check", p)[0]
            if len(self.warlords(p)) >= 2:
                roll -= 1                                  # DSD-TACTICS-GAIN-04
            ok = roll <= self.rank(p)
            got = bool(draw_cards(self, p, 1, self.tactics_deck, self.tactics_hand[p], TACTICS_DRAW)) if ok else False
            self.say("tactics_check", player=p, roll=roll, rank=self.rank(p), success=ok, drew=got)

    def _final_scoring(self) -> None:
        """Honour cards go to whoever leads their measure (ties share); most VP wins, then
        most gold, then a shared win [designed]."""
        for h in list(self.honours):
            eff = self.card(h).effect
            measure: Callable[[int], int] = {
                "most_provinces": lambda q: len(self.provinces_of(q)),
                "most_warlords": lambda q: len(self.warlords(q)),
                "most_gold": lambda q: self.gold[q],
                "most_developments": lambda q: sum(1 for c in self.domain[q] if self.card(c).type == "development"),
                "most_battles_won": lambda q: self.battles_won[q],
            }[eff.do]
            best = max(measure(q) for q in range(self.n))
            if best <= 0:
                continue
            for q in range(self.n):
                if measure(q) == best:
                    self.vp[q] += int(eff.get("vp", 0))
                    self.say("honour", player=q, card=h, vp=int(eff.get("vp", 0)))
        key = [(self.vp[q], self.gold[q]) for q in range(self.n)]
        top = max(key)
        self.end_game(tuple(q for q in range(self.n) if key[q] == top), "vp", tuple(self.vp))
        self.phase = OVER

    # ----- phases: who decides, what they may do, what it does -----------------------------------
    def _order_decision(self) -> Decision:
        """[public variant] the next chooser, in `choosers` order, takes a free position."""
        return self.game.turn_decisions[ORDER][self.choosers[sum(1 for x in self.new_order if x >= 0)]]

    def _order_actions(self, p: int) -> list[Action]:
        return [Action(p, "order", (k + 1,)) for k in range(self.n) if self.new_order[k] < 0]

    def _apply_order(self, a: Action) -> None:
        self.new_order[a.args[0] - 1] = a.player
        self.say("order_chosen", player=a.player, position=a.args[0])
        if all(x >= 0 for x in self.new_order):
            self.order = list(self.new_order)
            self._after_order()

    def _commit_decision(self) -> Decision:
        """A hidden commit (draft pick, card choice, tactics declaration): who is asked is fixed
        from what everyone sees."""
        assert self.commits is not None
        return Decision(DecisionKind.SIMULTANEOUS, self.commits.waiting(), self.phase)

    def _turn_decision(self) -> Decision:
        return self.game.turn_decisions[self.phase][self.turn_player]

    def _draft_actions(self, p: int) -> list[Action]:
        row = self.game.card_actions["pick"].row(p, 0)
        return [row[c] for c in self.packets[p]]

    def _apply_pick(self, a: Action) -> None:
        assert self.commits is not None
        p = a.player                                       # face down into the hand
        if commit_face_down(self, self.commits, a, a.args, self.packets[p], self.hand[p], "committed", what=DRAFT):
            self._after_draft_pick()

    def _choose_actions(self, p: int) -> list[Action]:
        row = self.game.card_actions["choose"].row(p, 0)
        return [row[c] for c in self.hand[p]]

    def _apply_choose(self, a: Action) -> None:
        assert self.commits is not None
        p = a.player                                       # face down in front of you
        if commit_face_down(self, self.commits, a, a.args, self.hand[p], self.chosen[p], "committed", what=CHOOSE):
            self._after_choose()

    def _card_actions(self, p: int) -> list[Action]:
        """[public] the chosen card: played (its cost paid) or sold for 1 gold."""
        c = self.chosen[p][0]
        out = []
        if self.gold[p] >= self.card(c).spec.cost:
            play = self.game.card_actions["play"].row(p, 0)[c]
            out = [Action(p, "play", (c, *t)) if t else play for t in effects.play_targets(self, p, c)]
        out.append(self.game.card_actions["sell"].row(p, 0)[c])
        return out

    def _apply_card(self, a: Action) -> None:
        p, c = a.player, a.args[0]
        if a.verb == "sell":
            self.gold[p] += 1                              # [public] discard for 1 gold
            discard_card(self, p, c, self.chosen[p], self.draft_discard, event="sold")
        else:
            self.chosen[p].remove(c)
            effects.play(self, p, c, tuple(a.args[1:]))
        self.phase = BASIC

    def _basic_actions(self, p: int) -> list[Action]:
        """[public] a basic action: hire soldiers or march them [designed amounts]."""
        out = []
        if self.hire_square(p) is not None:
            out += [Action(p, "hire", (k,)) for k in range(1, min(HIRE_MAX, self.gold[p]) + 1)]
        limit = self.march_limit(p)
        marches, n, active, soldiers = self.game.march_actions, len(self.board), self.active, self.soldiers
        for a in self.provinces_of(p):
            if soldiers[a] <= 0:
                continue
            most = min(soldiers[a], limit) + 1
            for b in self.board.adjacent[a]:
                if active[b]:                              # [public] 3 players: 駿河・遠江・伊豆 closed
                    out.extend(marches.row(p, a * n + b)[1:most])
        out.append(self.game.bare_actions["rest"][p])
        return out

    def hire_square(self, p: int) -> int | None:
        """Soldiers are hired in your home province, or where one of your castles stands."""
        home = self.board.home(FACTIONS[p])
        if self.owner[home] == p:
            return home
        mine = sorted(pr for c, pr in self.castles.items() if self.owner[pr] == p)
        return mine[0] if mine else None

    def _apply_basic(self, a: Action) -> None:
        p = a.player
        if a.verb == "hire":
            k = a.args[0]
            sq = self.hire_square(p)
            assert sq is not None                          # hiring is offered only with a square
            self.gold[p] -= k
            self.soldiers[sq] += k
            self.say("hire", player=p, province=sq, n=k)
        elif a.verb == "march":
            frm, to, k = a.args
            self.say("march", player=p, frm=frm, dest=to, n=k)
            if self.owner[to] in (p, EMPTY):
                if self.owner[to] == EMPTY:
                    self.raze_castles(to, keep_owner=p)
                self.soldiers[frm] -= k
                self.soldiers[to] += k
                self.owner[to] = p
            else:
                battle.start(self, p, frm, to, k)
                if self.phase == TACTIC:
                    return
            if self.soldiers[frm] <= 0 and not self.is_home(p, frm):
                self.owner[frm] = EMPTY
        else:
            self.say("rest", player=p)
        self.phase = BASIC_DONE

    def _apply(self, a: Action) -> None:
        self.PHASES[self.phase].apply(self, a)
        if self.phase == BASIC_DONE:                       # the turn player's card and action are done
            self.after_basic()

    PHASES = {
        ORDER: Phase(_order_decision, _order_actions, _apply_order),      # [public variant] turn order
        DRAFT: Phase(_commit_decision, _draft_actions, _apply_pick),      # [public] the draft
        CHOOSE: Phase(_commit_decision, _choose_actions, _apply_choose),  # [public] a card face down
        CARD: Phase(_turn_decision, _card_actions, _apply_card),          # [public] play or sell it
        BASIC: Phase(_turn_decision, _basic_actions, _apply_basic),       # [public] hire or march
        TACTIC: Phase(_commit_decision, tactic_actions, declare_tactic),  # DSD-TACTICS-USE-07/08
    }

    # ----- zones and public facts ---------------------------------------------------------------
    def zone(self, name: str) -> Any:
        return getattr(self, name)

    def public_info(self) -> dict[str, Any]:
        b = self.battle
        return {
            "round": self.round, "turn": (self.round - 1) * TURNS + self.turn, "turn_of_round": self.turn,
            "phase": self.phase, "order": list(self.order), "turn_player": self.turn_player,
            "owner": list(self.owner), "soldiers": list(self.soldiers), "gold": list(self.gold),
            "vp": list(self.vp), "castles": {str(c): pr for c, pr in self.castles.items()},
            "marked": list(self.marked), "battles_won": list(self.battles_won),
            # the battle frame, with only whether each side placed a tactics card
            "battle": {**b.to_json(), "cards": [int(c >= 0) for c in b.cards]} if b is not None else None,
            "factions": [FACTIONS[p] for p in range(self.n)],
            "turn_index": self.turn_index, "pick_no": self.pick_no,
            "choosers": list(self.choosers), "new_order": list(self.new_order),
            "committed": sorted(self.commits.choices) if self.commits else [],
            "commit_players": list(self.commits.players) if self.commits else [],
        }

    def seat_labels(self) -> list[str]:
        return [FACTIONS[p] for p in range(self.n)]

    def stats(self) -> dict[str, float]:
        """The final VP spread (leader minus last), the figure the tactics rule aims at."""
        return {"vp_spread": max(self.vp) - min(self.vp)}
