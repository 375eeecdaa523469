"""The state of a game of いばらの姫と4人の騎士 and its turn sequence.

Turn: the event marker is placed at random → draw 3 → actions (move, explore, satisfy a
whim, SP cards, ゲイブリッツ's ability) → end: irritation, then discard down to 7.
Each phase (`phases.py`) names who decides, what they may do and what it does once, in
`IbaraState.PHASES`; combat's steps live in `combat.py`, the content (cards, whims, events,
items) in `content.py`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.decision import Decision
from ...core.fields import Bound, per_player
from ...core.phases import Phase, PhasedState
from ...core.piles import DrawLog, discard_actions, discard_card, draw_cards, refill_pile
from ...core.rng import Rng
from ...core.simultaneous import Commits
from ...core.state import frame_json
from ...core.visibility import Vis, ZoneSpec
from . import board, combat
from .board import CORNERS, GATE
from .combat import (Combat, choose, choose_actions, choose_decision, commit, declare, declare_actions,
                     declare_decision, drop, drop_actions, drop_decision, play_actions, play_decision,
                     ring_actions, ring_decision, use_ring)
from .content import ActionCard, Content, Event, Item, Knight, Whim
from .effects import EVENTS, NO_PARAMS, SP
from .phases import (ACT, COMBAT_CHOOSE, COMBAT_DECLARE, COMBAT_DROP, COMBAT_PLAY, COMBAT_RING,
                     DISCARD, GABE_DISCARD, OVER, PENALTY)

if TYPE_CHECKING:
    from .game import IbaraGame

DRAW = 3               # [public] draw 3 at the start of a turn
#: Every draw into a hand: the cards in id order, then ``draw_count {player, n}`` for all to see.
DRAW_LOG = DrawLog(card="draw", count_event="draw_count", count="total", sort=True)
HAND_LIMIT = 7         # [designed]
EXPLORE_NEED = 13      # [designed] card played + card flipped
EXPLORER_BONUS = 4     # [designed] ミレイユ
MAX_ROUNDS = 40        # [designed] safeguard: the game always ends

ABILITIES = ("combat", "movement", "exploration")


class IbaraState(PhasedState):
    ZONES = (
        ZoneSpec("deck", Vis.COUNT),
        ZoneSpec("discard", Vis.PUBLIC),
        ZoneSpec("hand", Vis.OWNER, per_player=True),
        ZoneSpec("played", Vis.OWNER, per_player=True),     # combat cards committed face down
        ZoneSpec("shown", Vis.PUBLIC, per_player=True),     # combat cards revealed
        ZoneSpec("item_pool", Vis.COUNT, pool="item"),
        ZoneSpec("items", Vis.PUBLIC, per_player=True, pool="item"),
        ZoneSpec("item_discard", Vis.PUBLIC, pool="item"),
        ZoneSpec("whim_deck", Vis.COUNT, pool="whim"),
        ZoneSpec("whim_up", Vis.PUBLIC, pool="whim"),
        ZoneSpec("whims", Vis.PUBLIC, per_player=True, pool="whim"),
        ZoneSpec("whim_discard", Vis.PUBLIC, pool="whim"),
        ZoneSpec("event_deck", Vis.COUNT, pool="event"),
        ZoneSpec("event_discard", Vis.PUBLIC, pool="event"),
    )

    game: "IbaraGame"
    content: Bound[Content]
    n: Bound[int]                                   # players
    hands: list[list[int]] = per_player([])         # action cards
    played: list[list[int]] = per_player([])        # combat cards committed face down
    shown: list[list[int]] = per_player([])         # combat cards revealed
    items: list[list[int]] = per_player([])         # item chips
    whims: list[list[int]] = per_player([])         # whim cards satisfied
    deck: list[int] = []
    discard: list[int] = []
    item_pool: list[int] = []
    item_discard: list[int] = []
    whim_deck: list[int] = []
    whim_up: list[int] = []                         # the face-up whim (at most one)
    whim_discard: list[int] = []
    event_deck: list[int] = []
    event_discard: list[int] = []
    pos: list[int] = []                             # each knight's square
    order: list[int] = []                           # the seats in turn order
    knights: list[int] = []                         # each seat's knight
    irritation: int = 0
    turn: int = 0
    round: int = 0
    turn_index: int = 0                             # the turn player's place in `order`
    phase: str = ACT
    explored: int = 0                               # explorations this turn
    gabe_used: bool = False                         # ゲイブリッツ's ability used this turn (IBR-GABE-01)
    moved: bool = False
    gabe_target: int = -1                           # the seat discarding for ゲイブリッツ's ability
    gabe_left: int = 0                              # cards it has still to discard
    ending: bool = False                            # the turn is ending (irritation, then discard)
    penalty_player: int = -1                        # the seat choosing a whim to lose (IBR-ANGER-01)
    princess: int = board.KEEP                      # the princess starts in the castle keep [public]
    escort: int = -1                                # the seat escorting her
    event_pos: int = -1                             # the event marker's square
    combat: Combat | None = None
    commits: Commits | None = None

    # ----- creation ---------------------------------------------------------------------
    @classmethod
    def new(cls, game: "IbaraGame", seed: int) -> "IbaraState":
        s = cls.__new__(cls)
        s._init_base(game, Rng(seed))
        s._setup()
        return s

    def _bind(self, game: "IbaraGame") -> None:  # type: ignore[override]
        self.content = game.content
        self.n = game.players

    def _setup(self) -> None:
        n, game = self.n, self.game
        self.deck = list(range(len(self.content.cards)))
        self.item_pool = list(game.item_ids)
        self.whim_deck = list(game.whim_ids)
        self.event_deck = list(game.event_ids)
        # Knights: each seat gets one at random [designed]; with 3 players one stays out.
        knights = list(range(len(self.content.knights)))
        self.shuffle(knights, "knights")
        self.knights = knights[:n]
        for p in range(n):
            self.say("knight", player=p, knight=self.knights[p])
        # Turn order: seat order; IBR-RYAN-02 puts ライアン's player last.
        self.order = list(range(n))
        if game.options.ryan_last:
            ryan = [p for p in range(n) if self.knight(p).kind == "weak"]
            self.order = [p for p in self.order if p not in ryan] + ryan
        self.shuffle(self.deck, "action deck")
        self.shuffle(self.item_pool, "item chips")
        self.shuffle(self.whim_deck, "whim deck")
        self.shuffle(self.event_deck, "event deck")
        self.pos = [-1] * n
        for p in self.order:                     # knights enter at random squares [designed]
            self.pos[p] = self.random_square("start", p, ignore=p)
            self.say("placed", player=p, square=self.pos[p], why="start")
        self._start_turn()

    # ----- facts ------------------------------------------------------------------------------
    def card(self, c: int) -> ActionCard:
        return self.content.cards[c]

    def item(self, i: int) -> Item:
        return self.content.items[i]

    def whim(self, w: int) -> Whim:
        return self.content.whims[w]

    def event(self, e: int) -> Event:
        return self.content.events[e]

    def knight(self, p: int) -> Knight:
        return self.content.knights[self.knights[p]]

    @property
    def turn_player(self) -> int:
        return self.order[self.turn_index]

    def has_ability(self, p: int, kind: str) -> bool:
        """IBR-RYAN-01: ライアン has every other knight's ability while escorting the princess."""
        k = self.game.knight_kinds[self.knights[p]]
        return k == kind or (k == "weak" and self.escort == p and kind in ABILITIES)

    def ryan_sp(self, p: int) -> bool:
        """IBR-COMBAT-RYAN-01: ライアン (escorting) may add SP cards to multi-card plays."""
        return self.game.knight_kinds[self.knights[p]] == "weak" and self.escort == p

    def holds(self, p: int, wanted: tuple[str, ...] | list[str]) -> bool:
        """Whether p's item chips include every item `wanted` names, as often as it names it."""
        items = self.content.items
        have = [items[i].id for i in self.items[p]]
        for x in wanted:
            if have.count(x) < wanted.count(x):
                return False
        return True

    def whims_needed(self) -> int:
        return self.game.rules.whims_needed                    # IBR-WIN-01, IBR-SHORT-03

    def occupied(self, ignore: int = -2) -> set[int]:
        """Squares holding a piece (knight, princess, event marker) — they block placement."""
        taken = {q for i, q in enumerate(self.pos) if i != ignore}
        if self.escort < 0 or self.escort != ignore:      # the lone princess blocks too
            taken.add(self.princess)
        if ignore != -1:
            taken.add(self.event_pos)
        return taken

    # ----- cards --------------------------------------------------------------------------------
    def draw(self, p: int, k: int) -> None:
        """Draw k cards (DRAW_LOG: they join the hand in id order, the order they came off a
        face-down deck telling nothing; the count is public, even for none); an empty deck is
        rebuilt from the shuffled discard pile [designed]."""
        draw_cards(self, p, k, self.deck, self.hands[p], DRAW_LOG, refill=(self.discard, "action deck"))

    def _top(self) -> int | None:
        """The top card; an empty deck is rebuilt from the shuffled discard pile [designed]."""
        if not self.deck:
            if not self.discard:
                return None
            refill_pile(self, self.deck, self.discard, "action deck")
        return self.deck.pop()

    def flip(self, why: str, taker: int, placement: bool) -> int:
        """Turn up the top card for a random number (IBR-SP-01..07). An SP card is no number:
        for placement another card is flipped, for exploration it counts 0. With
        `sp_cards_to_hand` the SP card goes to `taker`'s hand instead of the discard."""
        for _ in range(len(self.content.cards) + 1):
            c = self._top()
            if c is None:
                return 0
            card = self.content.cards[c]
            self.say("flip", card=c, why=why)
            if card.sp is None:
                self.discard.append(c)
                return card.number
            if self.game.rules.sp_cards_to_hand:
                self.hands[taker].append(c)                  # IBR-SP-02
                self.say("sp_to_hand", player=taker, card=c, why=why)
            else:
                self.discard.append(c)
            if not placement:
                return 0
        return 0

    def random_square(self, why: str, taker: int, ignore: int) -> int:
        """IBR-RANDOM-01..04: the flipped number, +1 while occupied, 12 wrapping to 1."""
        n = self.flip(why, taker, placement=True) or 1
        taken = self.occupied(ignore)
        for sq in board.RING_FROM[n]:                     # numbers are 1..12
            if sq not in taken:
                return sq
        return board.wrap(n)   # guarded: 12 squares and at most 6 pieces

    def random_place_knight(self, p: int, why: str) -> None:
        """The knight goes alone (the princess stays where she is)."""
        if self.escort == p:
            self.escort = -1
            self.say("princess_left", player=p)
        sq = self.random_square(why, p, ignore=p)
        self.pos[p] = sq
        self.say("placed", player=p, square=sq, why=why)

    def _knight_at(self, sq: int, but: int) -> int:
        """The first knight other than `but` on square sq, or -1."""
        for q, at in enumerate(self.pos):
            if at == sq and q != but:
                return q
        return -1

    def move_knight(self, p: int, sq: int) -> None:
        self.pos[p] = sq
        if self.escort == p:
            self.princess = sq

    # ----- turn sequence ----------------------------------------------------------------------
    def _start_turn(self) -> None:
        p = self.order[self.turn_index]
        self.turn += 1
        if self.turn_index == 0:
            self.round += 1
        self.say("turn", player=p, turn=self.turn, round=self.round)
        self.explored = 0
        self.gabe_used = False
        self.moved = False
        self.ending = False
        # 1. the event marker is placed at random (IBR-SP-03: the active player takes an SP).
        self.event_pos = self.random_square("event_marker", p, ignore=-1)
        self.say("event_marker", square=self.event_pos)
        # 2. draw 3.
        self.draw(p, DRAW)
        self.phase = ACT

    def end_turn(self) -> None:
        p = self.order[self.turn_index]
        self.ending = True
        self._irritation(p)
        if self.outcome is not None:
            return
        if self.phase == PENALTY:
            return
        self._after_irritation()

    def _after_irritation(self) -> None:
        p = self.order[self.turn_index]
        self.phase = DISCARD
        if len(self.hands[p]) <= HAND_LIMIT:
            self._next_turn()

    def _next_turn(self) -> None:
        self.turn_index = (self.turn_index + 1) % self.n
        if self.turn_index == 0 and self.round >= MAX_ROUNDS:
            counts = [len(w) for w in self.whims]
            best = max(counts)
            self.finish(tuple(q for q in range(self.n) if counts[q] == best), "time")
            return
        self._start_turn()

    def finish(self, winners: tuple[int, ...], reason: str) -> None:
        if self.end_game(winners, reason, tuple(len(w) for w in self.whims)):
            self.phase = OVER

    def check_win(self) -> None:
        """IBR-WIN-01 / IBR-SHORT-03: at the gate, escorting her, with enough whims."""
        for p in range(self.n):
            if self.pos[p] == board.GATE and self.escort == p and len(self.whims[p]) >= self.whims_needed():
                self.finish((p,), "escape")

    # ----- princess and whims -----------------------------------------------------------------
    def _irritation(self, p: int) -> None:
        """IBR-IRR-05/06/07, checked once at the end of the escort's turn."""
        if self.escort != p:
            return
        if not self.whim_up:
            if self.whim_deck:
                w = self.whim_deck.pop()
                self.whim_up.append(w)
                self.irritation = 0                       # IBR-IRR-01
                self.say("whim", card=w)
                self.whim_deed(p, "visit")
            return
        self.raise_irritation(p, 1, by_event=False)

    def raise_irritation(self, p: int, n: int, by_event: bool) -> None:
        if not self.whim_up:
            return
        self.irritation += n
        self.say("irritation", value=self.irritation, limit=self.whim(self.whim_up[0]).limit)
        if self.irritation >= self.whim(self.whim_up[0]).limit:
            self.explode(by_event)

    def explode(self, by_event: bool) -> None:
        """The princess's anger explodes: the whim is discarded, the counter removed
        (IBR-IRR-03), the escort penalised (IBR-ANGER) and placed at random (IBR-SP-05)."""
        w = self.whim_up.pop()
        self.whim_discard.append(w)
        self.irritation = 0
        p = self.escort
        self.say("anger", player=p, card=w, by_event=by_event)
        if p < 0:
            return
        mode = self.game.options.anger_penalty
        lose_all = mode == "discard_all" or (mode == "hybrid_event_one" and not by_event)
        held = self.whims[p]
        if lose_all:
            self.whim_discard.extend(held)
            self.say("whims_lost", player=p, cards=list(held))
            held.clear()
        elif len({self.whim(x).id for x in held}) > 1:
            self.phase = PENALTY                          # IBR-ANGER-01: the player chooses
            self.penalty_player = p
            return
        elif held:
            self.whim_discard.append(held.pop())
            self.say("whims_lost", player=p, cards=[self.whim_discard[-1]])
        self.random_place_knight(p, "anger")

    def take_whim(self, p: int) -> None:
        w = self.whim_up.pop()
        self.whims[p].append(w)
        self.irritation = 0                               # IBR-IRR-04
        self.say("whim_taken", player=p, card=w)
        self.check_win()

    def whim_deed(self, p: int, deed: str) -> None:
        """A whim satisfied by a deed: winning a combat, or standing on a square."""
        if self.escort != p or not self.whim_up:
            return
        w = self.whim(self.whim_up[0])
        if w.deed == deed and (deed != "visit" or self.pos[p] == w.square):
            self.take_whim(p)

    # ----- events and items --------------------------------------------------------------------
    def gain_item(self, p: int, item_id: str | None) -> None:
        pool = [i for i in self.item_pool if item_id is None or self.item(i).id == item_id]
        if not pool:
            self.say("no_item", player=p)
            return
        i = pool[0] if item_id is not None else self.item_pool[-1]
        self.item_pool.remove(i)
        self.items[p].append(i)
        self.say("item", player=p, item=i)

    def trigger_event(self, p: int) -> None:
        if not self.event_deck:
            refill_pile(self, self.event_deck, self.event_discard, "event deck")   # shuffled even if empty
            if not self.event_deck:
                return
        e = self.event_deck.pop()
        self.event_discard.append(e)
        eff = self.event(e).effect
        self.say("event", player=p, card=e)
        resolve = EVENTS[eff["do"]].resolve                    # effects.EVENTS: one entry per verb
        assert resolve is not None, f"event effect {eff['do']!r} has no resolution"
        resolve(self, p, eff, ())

    # ----- phases: who decides, what they may do, what it does ----------------------------------
    def _turn_decision(self) -> Decision:
        """ACT and DISCARD: the turn player decides."""
        return self.game.turn_decisions[self.phase][self.order[self.turn_index]]

    def _blocked(self, p: int) -> int:
        """Bitmask of the squares p's move cannot pass: the other knights, the event marker
        and the princess unless p escorts her."""
        bit = board.BIT
        m = bit[self.event_pos]
        if self.escort != p:
            m |= bit[self.princess]
        for q, sq in enumerate(self.pos):
            if q != p:
                m |= bit[sq]
        return m

    def _act_actions(self, p: int) -> list[Action]:
        """ACT: moves (one set per kind of card), SP cards, exploration on a corner, the
        face-up whim satisfied, ゲイブリッツ's ability, and the end of the turn."""
        out: list[Action] = []
        game = self.game
        hand = sorted(self.hands[p])                       # a card is in one place only
        card_sp, card_move, twins, at = game.card_sp, game.card_move, game.twins, self.pos[p]
        moving = not self.gabe_used                        # ゲイブリッツ's ability took the move
        bonus = 1 if self.has_ability(p, "movement") else 0
        blocked = self._blocked(p)
        can_leave = self.escort == p and len(self.whims[p]) >= game.rules.whims_needed
        seen_cards: set[int] = set()
        reach: dict[int, tuple[int, ...]] = {}
        moves = game.move_actions.rows_of(p)
        for c in hand:
            sp = card_sp[c]
            if sp is not None:
                out.extend(self._sp_actions(p, c, sp))
                continue
            # Which card is spent matters: only identical cards share one set of moves.
            if not moving or twins[c] in seen_cards:
                continue
            seen_cards.add(twins[c])
            steps = card_move[c] + bonus
            squares = reach.get(steps)
            if squares is None:
                squares = reach[steps] = board.reachable(at, steps, blocked, game.reach_cache)
            row = moves[c]
            for sq in squares:
                if sq != GATE or can_leave:                # the gate opens only to leave [designed]
                    out.append(row[sq])
        if at in CORNERS and self.explored < (2 if self.has_ability(p, "exploration") else 1):
            explores = game.card_actions["explore"].row(p, 0)
            for c in hand:
                if card_sp[c] is None:
                    out.append(explores[c])
        if self.escort == p and self.whim_up:
            wanted = self.whim(self.whim_up[0]).items
            if wanted and self.holds(p, wanted):
                out.append(game.bare_actions["satisfy"][p])
        # IBR-GABE-01 [designed use]: once per turn, in place of moving — not after a move,
        # and no move after it.
        if game.rules.gaiblitz_buff and self.has_ability(p, "combat") and not self.gabe_used \
                and not self.moved:
            for q in range(self.n):                        # IBR-GABE-01/02: himself allowed
                out.append(Action(p, "gaiblitz", (q, "draw")))
                if self.hands[q]:
                    out.append(Action(p, "gaiblitz", (q, "discard")))
        out.append(game.bare_actions["end"][p])
        return out

    def _sp_actions(self, p: int, c: int, sp: str) -> list[Action]:
        """SP card c (of verb `sp`) played on each target its verb allows (`effects.SP`)."""
        verb = SP[sp]
        return self.game.sp_choices(p, c, verb, verb.targets(self, p, c))   # type: ignore[misc]

    def _apply_act(self, a: Action) -> None:
        p, verb, args = a.player, a.verb, a.args
        if verb == "move":
            c, sq = args
            self.moved = True
            self.hands[p].remove(c)
            self.discard.append(c)
            came_from = self.pos[p]
            self.move_knight(p, sq)
            self.say("move", player=p, card=c, square=sq)
            rival = self._knight_at(sq, p)
            if sq == GATE:
                self.check_win()
            elif rival >= 0:
                combat.start(self, p, rival, came_from)    # entering a knight's square
                return
            elif self.princess == sq and self.escort < 0:
                self.escort = p                           # she follows you [public]
                self.say("escort", player=p)
            if sq == self.event_pos:
                self.trigger_event(p)
            self.whim_deed(p, "visit")
        elif verb == "explore":
            c = args[0]
            self.hands[p].remove(c)
            self.discard.append(c)
            self.explored += 1
            flipped = self.flip("explore", p, placement=False)       # IBR-SP-06
            bonus = EXPLORER_BONUS if self.has_ability(p, "exploration") else 0
            total = self.card(c).number + flipped + bonus
            ok = total >= EXPLORE_NEED
            self.say("explore", player=p, card=c, flipped=flipped, total=total, success=ok)
            if ok:
                self.gain_item(p, None)
        elif verb == "satisfy":
            need = list(self.whim(self.whim_up[0]).items)
            for i in list(self.items[p]):
                if self.item(i).id in need:
                    need.remove(self.item(i).id)
                    self.items[p].remove(i)
                    self.item_discard.append(i)
            self.take_whim(p)
        elif verb == "sp":
            c = args[0]
            self.hands[p].remove(c)
            self.discard.append(c)
            self.say("sp", player=p, card=c, target=list(args[1:]))
            SP[self.game.card_sp[c]].resolve(self, p, NO_PARAMS, args[1:])   # type: ignore[misc]
        elif verb == "gaiblitz":
            q, mode = args
            self.gabe_used = True
            self.say("gaiblitz", player=p, target=q, mode=mode)
            if mode == "draw":
                self.draw(q, 3)
            else:                                          # IBR-GABE-01: the target chooses
                self.gabe_target = q
                self.gabe_left = min(3, len(self.hands[q]))
                self.phase = GABE_DISCARD
        elif verb == "end":
            self.end_turn()

    def _discard_actions(self, p: int) -> list[Action]:
        """DISCARD (down to HAND_LIMIT at the end of the turn) and GABE_DISCARD: one card at a
        time, identical cards listed once each."""
        return discard_actions(self.game.card_actions["discard"].row(p, 0), self.hands[p], sort=True)

    def _apply_discard(self, a: Action) -> None:
        discard_card(self, a.player, a.args[0], self.hands[a.player], self.discard)
        if len(self.hands[a.player]) <= HAND_LIMIT:
            self._next_turn()

    def _gabe_decision(self) -> Decision:
        return self.game.turn_decisions[GABE_DISCARD][self.gabe_target]

    def _apply_gabe_discard(self, a: Action) -> None:
        """IBR-GABE-01: the target discards the cards one by one, then the turn goes on."""
        discard_card(self, a.player, a.args[0], self.hands[a.player], self.discard)
        self.gabe_left -= 1
        if self.gabe_left <= 0 or not self.hands[a.player]:
            self.phase = ACT

    def _penalty_decision(self) -> Decision:
        return self.game.turn_decisions[PENALTY][self.penalty_player]

    def _penalty_actions(self, p: int) -> list[Action]:
        """IBR-ANGER-01: the angered escort chooses which kind of whim card to lose."""
        ids: dict[str, int] = {}
        for w in self.whims[p]:
            ids.setdefault(self.whim(w).id, w)
        return [Action(p, "lose", (w,)) for w in ids.values()]

    def _apply_penalty(self, a: Action) -> None:
        w = a.args[0]
        self.whims[a.player].remove(w)
        self.whim_discard.append(w)
        self.say("whims_lost", player=a.player, cards=[w])
        self.phase = ACT
        self.random_place_knight(a.player, "anger")
        if self.ending:
            self._after_irritation()

    # The phase table. The game is over in OVER: no decision is pending, so it has no entry.
    PHASES = {
        ACT: Phase(_turn_decision, _act_actions, _apply_act),
        DISCARD: Phase(_turn_decision, _discard_actions, _apply_discard),
        GABE_DISCARD: Phase(_gabe_decision, _discard_actions, _apply_gabe_discard),   # IBR-GABE-01
        PENALTY: Phase(_penalty_decision, _penalty_actions, _apply_penalty),          # IBR-ANGER-01
        COMBAT_DECLARE: Phase(declare_decision, declare_actions, declare),            # IBR-COMBAT-MULTI-03
        COMBAT_PLAY: Phase(play_decision, play_actions, commit),
        COMBAT_RING: Phase(ring_decision, ring_actions, use_ring),                   # IBR-COMBAT-RING
        COMBAT_CHOOSE: Phase(choose_decision, choose_actions, choose),                # IBR-COMBAT-MULTI-07
        COMBAT_DROP: Phase(drop_decision, drop_actions, drop),                        # IBR-COMBAT-MIX-02
    }

    # ----- statistics -----------------------------------------------------------------------
    def seat_labels(self) -> list[str]:
        """The knight at each seat, for per-knight win rates."""
        return [self.knight(p).name_ja for p in range(self.n)]

    def check_invariants(self) -> list[str]:
        """The legal actions come partly from the game's caches (reachable squares, multi-card
        plays) keyed on what today's rules read; recomputed with the caches empty, they must
        be the same."""
        pend = self.pending
        if pend is None:
            return []
        cached = {p: self.legal_actions(p) for p in pend.players}
        # the caches are the game's cached properties (its __dict__): empty ones stand in for
        # the recomputation, and the filled ones go back (the game is otherwise immutable)
        slots = vars(self.game)
        kept: dict[str, Any] = {name: slots[name] for name in ("reach_cache", "plays_cache") if name in slots}
        slots.update(reach_cache={}, plays_cache={})
        try:
            fresh = {p: self.legal_actions(p) for p in pend.players}
        finally:
            slots.update(kept)
        return [f"IBR: player {p}'s legal actions differ from the caches' "
                f"({sorted(map(str, set(cached[p]) ^ set(fresh[p])))[:6]})"
                for p in pend.players if cached[p] != fresh[p]]

    def stats(self) -> dict[str, float]:
        """Anger explosions and whims collected (by all players) in the game."""
        return {"anger_explosions": sum(1 for e in self.log if e["e"] == "anger"),
                "whims_collected": sum(1 for e in self.log if e["e"] == "whim_taken")}

    # ----- zones and public facts ---------------------------------------------------------------
    def zone(self, name: str) -> Any:
        return getattr(self, "hands" if name == "hand" else name)

    def public_info(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "round": self.round, "turn_player": self.turn_player,
            "phase": self.phase, "order": list(self.order), "knights": list(self.knights),
            "pos": list(self.pos), "princess": self.princess, "escort": self.escort,
            "event_marker": self.event_pos, "irritation": self.irritation,
            "whims_needed": self.whims_needed(), "explored": self.explored,
            "combat": frame_json(self.combat),
            "turn_index": self.turn_index, "gabe_used": self.gabe_used, "gabe_target": self.gabe_target,
            "gabe_left": self.gabe_left, "moved": self.moved, "ending": self.ending,
            "penalty_player": self.penalty_player,
            "committed": sorted(self.commits.choices) if self.commits else [],
            "commit_players": list(self.commits.players) if self.commits else [],
        }
