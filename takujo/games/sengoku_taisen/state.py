"""The state of a game of 戦国大戦 双 and its turn sequence.

Turn: 開始 (ready your cards) → ドロー → 国力 (place 0–1 kokuryoku) → メイン (deploy, stratagems,
abilities, the okugi, attacks) → 終了 (discard to 7; damage and this-turn changes end).
Attacks are resolved in `combat.py`, effects and costs in `effects.py`.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.action import Action
from ...core.decision import Decision, DecisionKind, TurnDecisions
from ...core.errors import IllegalActionError
from ...core.fields import Bound, Frame, per_player
from ...core.phases import Always, Phase, PhasedState
from ...core.piles import DrawLog, discard_actions, discard_card, draw_cards, take_top
from ...core.response import Window
from ...core.rng import Rng
from ...core.state import State, frame_json
from ...core.visibility import Vis, ZoneSpec
from . import combat, effects
from .actions import FixedActions
from .cards import CardDef, CardSpec, Effect
from .combat import Battle, intercept, intercept_actions, respond, window_actions
from .effects import affordable, budget
from .phases import COUNTER, DISCARD, INTERCEPT, KOKU, MAIN, MULLIGAN, OVER

if TYPE_CHECKING:
    from .game import SengokuGame

START_HAND = 5        # SGT-START-04
HAND_LIMIT = 7        # SGT-START-05
START_WALLS = 8       # SGT-START-01, SGT-SETUP-06
KOKU_MAX = 10         # SGT-KOKU-05
TOKEN_BASE = 10_000   # summoned soldiers are tokens with ids from here (SGT-SUMMON-01)
#: Each card drawn is seen by its drawer alone; then everyone sees how many, if any.
DRAW = DrawLog(count="if_any")


# What `pending` returns in a battle window, by player (TURN decisions: `game.turn_decisions`).
_WINDOW = (Decision(DecisionKind.RESPONSE, (0,), "battle_stratagem"),
           Decision(DecisionKind.RESPONSE, (1,), "battle_stratagem"))


#: The zones where a card's printed text gives static effects (`_printed_static`).
_STATIC_ZONES = ("koku_up", "field", "camp")


def _printed_static(spec: CardSpec, zone: str) -> tuple[Effect, ...]:
    """The static effects a card's printed data gives while it lies in `zone`, read the full
    way (for `SengokuState.check_invariants`; play reads them precomputed on `CardDef`): a
    formation's effect face up in kokuryoku (SGT-FORMATION-03, SGT-KOKU-09), a permanent
    stratagem's on the field (SGT-STRAT-04), a warlord's {常時} abilities in camp."""
    if zone == "koku_up":
        return (spec.effect,) if spec.type == "formation" and spec.effect is not None else ()
    if zone == "field":
        permanent = spec.type == "stratagem" and spec.permanent
        return (spec.effect,) if permanent and spec.effect is not None else ()
    if zone == "camp" and spec.type == "warlord":
        return tuple(a for a in spec.abilities if a.timing == "always")
    return ()


def _aura_list(effs: tuple[Effect, ...]) -> tuple[tuple[str | None, int], ...]:
    """(troop type or None for all, amount) of each 兵力 aura among static effects."""
    return tuple((e.get("unit"), int(e.get("amount", 0))) for e in effs if e.do == "aura")


class PrintedFacts(NamedTuple):
    """What the printed data of a game's cards says, read the full way (`printed_facts`)."""
    problems: tuple[str, ...]     # each card whose precomputed facts differ from its printed data
    lowering: bool                # some printed aura lowers 兵力
    condition: bool               # some card prints a victory or defeat condition


def printed_facts(instances: Sequence[CardDef]) -> PrintedFacts:
    """Each card's static effects, auras and condition flag as its `CardDef` precomputed them,
    against its printed data; whether any aura lowers 兵力 and any card prints a condition."""
    problems: list[str] = []
    lowering = condition = False
    for card in sorted(set(instances), key=lambda c: c.number):
        printed = {zone: _printed_static(card.spec, zone) for zone in _STATIC_ZONES}
        in_play = printed["camp"] + printed["field"]
        if card.koku_static != printed["koku_up"] or card.static != in_play:
            problems.append(f"SGT-FORMATION-03/SGT-STRAT-04: {card.number}'s static effects "
                            "differ from its printed ones")
        if card.koku_auras != _aura_list(printed["koku_up"]) or card.auras != _aura_list(in_play):
            problems.append(f"SGT-KOKU-09: {card.number}'s auras differ from its printed ones")
        every = printed["koku_up"] + in_play
        has_condition = any(e.do in ("win_if", "lose_if") for e in every)
        if card.has_condition != has_condition:
            problems.append(f"SGT-WIN-03: {card.number}'s has_condition is {card.has_condition}, "
                            f"its printed text says {has_condition}")
        lowering = lowering or any(n < 0 for _, n in _aura_list(every))
        condition = condition or has_condition
    return PrintedFacts(tuple(problems), lowering, condition)


class Token(Frame):
    """A summoned soldier in play (SGT-SUMMON-01/03): its owner and the stats its card gave it."""
    owner: int
    strength: int
    siege: int
    unit: str                                    # troop type


class SengokuState(PhasedState):
    ZONES = (
        ZoneSpec("deck", Vis.COUNT, per_player=True, owned=True),
        ZoneSpec("hand", Vis.OWNER, per_player=True, owned=True),
        ZoneSpec("walls", Vis.COUNT, per_player=True, owned=True),       # SGT-WALL-05: nobody sees them
        ZoneSpec("koku_up", Vis.PUBLIC, per_player=True),
        ZoneSpec("koku_down", Vis.OWNER, per_player=True, owned=True),   # SGT-STATE-03: colourless
        ZoneSpec("camp", Vis.PUBLIC, per_player=True),
        ZoneSpec("summons", Vis.PUBLIC, per_player=True, tokens=True),
        ZoneSpec("field", Vis.PUBLIC, per_player=True),      # permanent stratagems
        ZoneSpec("ougi", Vis.OWNER, per_player=True, owned=True, pool="ougi"),        # SGT-SETUP-01: face down
        ZoneSpec("ougi_up", Vis.PUBLIC, per_player=True),
        ZoneSpec("discard", Vis.PUBLIC, per_player=True),    # SGT-ZONE-06
        ZoneSpec("exile", Vis.PUBLIC, per_player=True),      # SGT-ZONE-07
    )

    game: "SengokuGame"
    inst: Bound[tuple[CardDef, ...]]                 # the card of each instance id
    owner: Bound[tuple[int, ...]]                    # the player whose deck each instance is in
    acts: Bound[FixedActions]
    turns: Bound[TurnDecisions]
    # the zones (ZONES), each one list of card ids per player; summons hold token ids
    deck: list[list[int]] = per_player([])
    hand: list[list[int]] = per_player([])
    walls: list[list[int]] = per_player([])
    koku_up: list[list[int]] = per_player([])
    koku_down: list[list[int]] = per_player([])
    camp: list[list[int]] = per_player([])
    summons: list[list[int]] = per_player([])
    field: list[list[int]] = per_player([])
    ougi: list[list[int]] = per_player([])
    ougi_up: list[list[int]] = per_player([])
    discard: list[list[int]] = per_player([])
    exile: list[list[int]] = per_player([])
    down_exhausted: list[int] = per_player(0)        # exhausted face-down kokuryoku, a count per player
    exhausted: set[int] = set()                      # exhausted units and face-up kokuryoku
    tokens: dict[int, Token] = {}                    # summoned soldiers in play (SGT-SUMMON-01)
    next_token: int = TOKEN_BASE
    damage: dict[int, int] = {}                      # this turn's damage (SGT-WARLORD-13)
    buff: dict[int, int] = {}                        # this turn's 兵力 changes
    siege_buff: dict[int, int] = {}                  # this turn's 攻城力 changes
    placed: dict[int, int] = {}                      # unit -> the turn it was placed
    attacks: dict[int, int] = {}                     # unit -> attacks this turn (SGT-WARLORD-10)
    extra_used: set[int] = set()                     # attacked once more (無双連撃) this turn
    once_used: set[str] = set()                      # {1回制限} abilities used this turn, "unit:index"
    ougi_used: list[bool] = per_player(False)        # SGT-OUGI-04: once per game
    turn: int = 0
    turn_player: int = 0
    phase: str = MULLIGAN
    first: int = 0                                   # the first player (SGT-SETUP-03)
    battle: Battle | None = None                     # the attack in progress
    windows: list[Window] = []                       # open battle windows, innermost last
    counters: list[list[int]] = []                   # counter-stratagems to resolve: [owner, card]

    # ----- creation ---------------------------------------------------------------------
    @classmethod
    def new(cls, game: "SengokuGame", seed: int) -> "SengokuState":
        s = cls.__new__(cls)
        s._init_base(game, Rng(seed))
        s._setup()
        return s

    def _bind(self, game: "SengokuGame") -> None:  # type: ignore[override]
        self.inst = game.instances
        self.owner = game.owners
        self.acts = game.fixed_actions
        self.turns = game.turn_decisions

    def _setup(self) -> None:
        g = self.game
        for p in (0, 1):
            self.ougi[p] = [g.ougi_ids[p]]                 # SGT-SETUP-01, SGT-DECK-04
            self.deck[p] = list(g.deck_ids[p])
            self.shuffle(self.deck[p], f"deck {p}")        # SGT-SETUP-02
        self.first = self.pick(2, "first_player")          # SGT-SETUP-03: at random
        self.say("first_player", player=self.first)
        for p in (self.first, 1 - self.first):             # SGT-SETUP-04
            self.draw(p, START_HAND)
        self.turn_player = 1 - self.first                  # SGT-START-06: the second may mulligan
        self.phase = MULLIGAN

    def _after_mulligan(self) -> None:
        """MULLIGAN's on_end. SGT-SETUP-06: 8 cards from the top of the deck, face down,
        unseen, as walls; then the first player's turn (SGT-SETUP-03)."""
        for p in (self.first, 1 - self.first):
            self.walls[p] += take_top(self.deck[p], START_WALLS)
        self.turn_player = self.first

    # ----- facts --------------------------------------------------------------------------------
    def card(self, c: int) -> CardDef:
        return self.inst[c]

    def units(self, p: int) -> list[int]:
        """Warlords and summoned soldiers in p's camp (SGT-SUMMON-02: they fight alike)."""
        return self.camp[p] + self.summons[p]

    def in_play(self, u: int) -> bool:
        camp, summons = self.camp, self.summons
        return u in camp[0] or u in summons[0] or u in camp[1] or u in summons[1]

    def unit_owner(self, u: int) -> int:
        return self.tokens[u].owner if u in self.tokens else self.owner[u]

    def unit_type(self, u: int) -> str:
        return self.tokens[u].unit if u in self.tokens else (self.inst[u].unit or "")

    def has(self, u: int, keyword: str) -> bool:
        return u not in self.tokens and keyword in self.inst[u].keywords

    def strength(self, u: int, auras: Sequence[tuple[str | None, int]] | None = None) -> int:
        """Current 兵力: printed, plus auras and this turn's changes, less damage. `auras`, when
        given, are the owner's (`auras(p)`), computed once for many units; () leaves them out."""
        token = self.tokens.get(u)
        base = self.inst[u].strength if token is None else token.strength
        if auras is None:
            auras = self.auras(self.owner[u] if token is None else token.owner)
        if auras:
            kind = (self.inst[u].unit or "") if token is None else token.unit
            for k, n in auras:
                if k is None or k == kind:
                    base += n
        return base + self.buff.get(u, 0) - self.damage.get(u, 0)

    def auras(self, p: int) -> list[tuple[str | None, int]]:
        """(troop type or None for all, amount) of every static 兵力 bonus of p's units: face-up
        formations in kokuryoku (SGT-FORMATION-03, SGT-KOKU-09), permanent stratagems, {常時}
        abilities of warlords."""
        inst = self.inst
        out: list[tuple[str | None, int]] = []
        for c in self.koku_up[p]:
            if bonus := inst[c].koku_auras:
                out += bonus
        for c in self.field[p]:
            if bonus := inst[c].auras:
                out += bonus
        for c in self.camp[p]:
            if bonus := inst[c].auras:
                out += bonus
        return out

    def siege(self, u: int) -> int:
        base = self.tokens[u].siege if u in self.tokens else self.inst[u].siege
        return max(0, base + self.siege_buff.get(u, 0))

    def koku_count(self, p: int) -> int:
        return len(self.koku_up[p]) + len(self.koku_down[p])

    def static_effects(self, p: int) -> list[Effect]:
        """Static effects of p: face-up formations in kokuryoku, permanent stratagems,
        {常時} abilities of p's warlords."""
        inst = self.inst
        out = [e for c in self.koku_up[p] for e in inst[c].koku_static]
        out += [e for c in self.field[p] for e in inst[c].static]
        out += [e for c in self.camp[p] for e in inst[c].static]
        return out

    # ----- moving cards -------------------------------------------------------------------------
    def draw(self, p: int, n: int) -> int:
        """Draw up to n; drawing from an empty deck draws nothing (SGT-KOKU-12 ambiguity)."""
        return len(draw_cards(self, p, n, self.deck[p], self.hand[p], DRAW))

    def summon(self, p: int, strength: int, siege: int, unit: str) -> int:
        """SGT-SUMMON-01/03: a token whose stats the summoning card sets."""
        t = self.next_token
        self.next_token += 1
        self.tokens[t] = Token(owner=p, strength=strength, siege=siege, unit=unit)
        self.summons[p].append(t)
        self.placed[t] = self.turn
        self.say("summon", player=p, token=t, strength=strength, siege=siege, unit=unit)
        return t

    def leave_play(self, u: int) -> None:
        p = self.unit_owner(u)
        (self.summons[p] if u in self.tokens else self.camp[p]).remove(u)
        self.exhausted.discard(u)
        for d in (self.damage, self.buff, self.siege_buff, self.placed, self.attacks):
            d.pop(u, None)
        if u in self.tokens:
            del self.tokens[u]          # SGT-SUMMON-02: a destroyed token ceases to exist

    def destroy(self, u: int) -> None:
        """Destroy a unit: {撤退時} abilities fire, then it goes to the discard pile."""
        if not self.in_play(u):
            return
        p = self.unit_owner(u)
        self.say("destroyed", player=p, unit=u)
        retreat = () if u in self.tokens else self.inst[u].triggers.get("retreat", ())
        self.leave_play(u)
        if u < TOKEN_BASE:
            self.discard[p].append(u)    # SGT-ZONE-06
        for ability in retreat:
            chosen = effects.auto_target(self, p, ability, None)
            if chosen is not None:
                effects.apply(self, p, ability, chosen, None, why="retreat")

    def destroy_defeated(self) -> None:
        """SGT-WARLORD-12: a unit whose 兵力 is 0 or less is destroyed."""
        while True:
            dead = self._defeated(0) + self._defeated(1)
            if not dead:
                return
            for u in dead:
                self.destroy(u)

    def _defeated(self, p: int) -> list[int]:
        """p's units whose 兵力 is 0 or less."""
        units = self.camp[p] + self.summons[p]
        if units and self.game.auras_only_add:
            # no aura lowers 兵力: a unit above 0 without the auras is above 0 with them
            units = [u for u in units if self.strength(u, ()) <= 0]
        if not units:
            return units
        auras, strength = self.auras(p), self.strength
        return [u for u in units if strength(u, auras) <= 0]

    # ----- turn sequence: KOKU, MAIN, DISCARD (the hooks of their `PHASES` entries) ------------
    def _start_turn(self) -> None:
        """KOKU's on_begin: the turn player's 開始 and ドロー phases come first."""
        p = self.turn_player
        self.turn += 1
        self.say("turn", player=p, turn=self.turn)
        # 開始フェイズ [designed, SGT-TURN-01]: ready all of your cards.
        self.exhausted.difference_update(self.camp[p], self.summons[p], self.koku_up[p])
        self.down_exhausted[p] = 0
        self.attacks.clear()
        self.extra_used.clear()
        self.once_used.clear()
        # ドローフェイズ: SGT-START-08 the first player skips the first draw.
        if not (p == self.first and self.turn == 1):
            if not self.deck[p]:
                # SGT-WIN-02 / SGT-BASIC-02: library-out at the draw phase loses.
                self.finish((1 - p,), "library_out")
                return
            self.draw(p, 1)

    def _nothing_to_place(self) -> bool:
        """KOKU's end_if: without a card to place the main phase begins at once (each card
        may go face down; SGT-KOKU-05: at most KOKU_MAX kokuryoku)."""
        p = self.turn_player
        return not self.hand[p] or self.koku_count(p) >= KOKU_MAX

    def _hand_fits(self) -> bool:
        """DISCARD's end_if, SGT-START-05: the turn ends once the hand is within the limit."""
        return len(self.hand[self.turn_player]) <= HAND_LIMIT

    def _end_turn(self) -> None:
        """DISCARD's on_end. 終了フェイズ: SGT-WARLORD-13, SGT-BASIC-06 — damage and this turn's
        changes end; the other player's turn follows (SGT-WIN-05)."""
        self.damage.clear()
        self.buff.clear()
        self.siege_buff.clear()
        self.say("end_turn", player=self.turn_player)
        self.turn_player = 1 - self.turn_player

    def finish(self, winners: tuple[int, ...], reason: str) -> None:
        if self.end_game(winners, reason, (len(self.walls[0]), len(self.walls[1]))):
            self.phase = OVER
            self.windows.clear()

    def check_card_conditions(self) -> None:
        """SGT-WIN-03: victory and defeat conditions printed on cards; SGT-WIN-05: if both
        players meet one at once the game is drawn (a shared result)."""
        if self.outcome is not None or not self.game.has_conditions:
            return
        won = self._conditions_met((self.static_effects(0), self.static_effects(1)))
        if won:
            self.finish(tuple(sorted(won)), "card_condition" if len(won) == 1 else "draw")

    def _conditions_met(self, statics: Sequence[Sequence[Effect]]) -> set[int]:
        """The players who win now by a condition printed on a card (SGT-WIN-03), given each
        player's static effects in play: their own victory condition, or the opponent's
        defeat condition printed on their card."""
        won = set()
        for p in (0, 1):
            for eff in statics[p]:
                if eff.do == "win_if" and self.koku_count(p) >= int(eff.get("koku", 0)) \
                        and len(self.camp[p]) >= int(eff.get("camp", 0)):
                    won.add(p)
                if eff.do == "lose_if" and len(self.hand[1 - p]) <= int(eff.get("hand_at_most", 99)) \
                        and len(self.deck[1 - p]) <= int(eff.get("deck_at_most", 999)):
                    won.add(p)
        return won

    # ----- invariants ----------------------------------------------------------------------------
    def check_invariants(self) -> list[str]:
        """The facts the fast paths rely on, recomputed the full way from the cards' printed
        data and the zones (see `_printed_static`); a description of each that no longer holds.

        - each card's static effects, auras and condition flag, precomputed on its `CardDef`
          (read by `auras`, `static_effects` and the two flags below), against its printed
          data (`printed_facts`: the cards of a game never change, so the game reads them once);
        - ``game.auras_only_add`` (no printed aura lowers 兵力) and the fast path of
          `_defeated` it allows (SGT-WARLORD-12): the units it finds at 兵力 0 or less must be
          all of them;
        - ``game.has_conditions`` (some card prints a victory or defeat condition), without
          which `check_card_conditions` looks at nothing: while the game goes on, no printed
          condition may hold (SGT-WIN-03, SGT-WIN-05);
        - the options the game mirrors (``ougi_in_battle``, ``shippu_then_muso``)."""
        game = self.game
        printed = game.printed_facts
        problems = list(printed.problems)
        lowering, condition = printed.lowering, printed.condition
        if game.auras_only_add != (not lowering):
            problems.append(f"SGT-WARLORD-12: auras_only_add is {game.auras_only_add}, but "
                            f"{'a' if lowering else 'no'} printed aura lowers 兵力")
        if game.has_conditions != condition:
            problems.append(f"SGT-WIN-03: has_conditions is {game.has_conditions}, but "
                            f"{'a' if condition else 'no'} card prints a victory or defeat condition")
        for p in (0, 1):
            full = [u for u in self.units(p) if self.strength(u) <= 0]
            if self._defeated(p) != full:
                problems.append(f"SGT-WARLORD-12: player {p}'s units at 兵力 0 or less are {full}, "
                                f"the fast path (auras_only_add) finds {self._defeated(p)}")
        if self.outcome is None:
            statics = tuple([e for zone in _STATIC_ZONES for c in getattr(self, zone)[p]
                             for e in _printed_static(self.inst[c].spec, zone)] for p in (0, 1))
            won = self._conditions_met(statics)
            if won:
                problems.append(f"SGT-WIN-03/05: a printed condition holds for player(s) {sorted(won)} "
                                "but the game goes on (has_conditions)")
        options = game.options
        if game.ougi_in_battle != (options.ougi_timing == "main_or_battle") \
                or game.shippu_then_muso != options.shippu_then_muso:
            problems.append("SGT-OUGI-03/SGT-WARLORD-11: the game's copies of its options differ from them")
        return problems

    # ----- driver surface ------------------------------------------------------------------------
    def _log_act(self, action: Action, pend: Decision | None) -> None:
        # SGT-KOKU-10, SGT-STATE-03: which card goes face down as kokuryoku is seen only by its
        # owner (the public "koku" event says that a face-down placement happened).
        if action.verb == "koku" and action.args[1:] == ("down",) and self.phase == KOKU and not self.windows:
            self.append_event({"e": "act", "to": [action.player], "player": action.player,
                               "action": str(action)})
            return
        State._log_act(self, action, pend)

    def parse_action(self, text: str, player: int | None = None) -> Action:
        if text.strip() == "concede" and player is None:
            raise IllegalActionError("sengoku_taisen.action.concede_who")
        return super().parse_action(text, player)

    #: SGT-WIN-03/05: the conditions printed on cards are checked after every action.
    on_move = check_card_conditions

    # ----- phases: who decides, what they may do, what it does ---------------------------------
    def _turn_decision(self) -> Decision:
        return self.turns[self.phase][self.turn_player]

    def _intercept_decision(self) -> Decision:
        return self.turns["intercept"][1 - self.turn_player]      # SGT-BASIC-09: the defender

    def _counter_decision(self) -> Decision:
        return self.turns["counter_target"][self.counters[0][0]]  # the wall's owner (SGT-COST-10)

    def _window_decision(self) -> Decision:
        responder = self.windows[-1].responder
        assert responder is not None      # a closed window is popped at once (`combat.respond`)
        return _WINDOW[responder]

    def _mulligan_actions(self, p: int) -> list[Action]:
        return [self.acts.keep[p], self.acts.mulligan[p]]

    def _apply_mulligan(self, a: Action) -> None:
        if a.verb == "mulligan":
            # SGT-START-07: the hand to the bottom of the deck, no shuffle, draw 5.
            p = a.player
            hand = self.hand[p]
            self.deck[p][:0] = list(reversed(hand))
            self.hand[p] = []
            self.say("mulligan", player=p)
            self.draw(p, START_HAND)
        self.end_phase()

    def _apply_koku(self, a: Action) -> None:
        if a.verb == "koku":
            self._place_koku(a.player, a.args[0], a.args[1] == "up")
        self.end_phase()

    def _koku_actions(self, p: int) -> list[Action]:
        out = []
        if self.koku_count(p) < KOKU_MAX:                     # SGT-KOKU-05
            inst, funds = self.inst, None
            up, down = self.acts.koku_up[p], self.acts.koku_down[p]
            for c in self.hand[p]:
                kind = inst[c].type
                # SGT-KOKU-07: a stratagem is never placed face up; a formation with a
                # placement cost must pay it (SGT-FORMATION-04).
                if kind != "stratagem" and (kind != "formation" or effects.affordable(
                        funds := funds or effects.budget(self, p), inst[c].cost)):
                    out.append(up[c])
                out.append(down[c])                            # SGT-KOKU-10
        out.append(self.acts.skip[p])
        return out

    def _main_actions(self, p: int) -> list[Action]:
        """Playing from hand, abilities, the okugi, attacks, then ``end``."""
        out = self._hand_actions(p)
        inst = self.inst
        for u in self.camp[p]:
            if inst[u].main_abilities:
                out += self._ability_actions(p, u)
        if self._ougi_usable(p):
            out += self.ougi_actions(p)
        combat.add_attack_actions(self, p, out)
        out.append(self.acts.end[p])
        return out

    def _hand_actions(self, p: int) -> list[Action]:
        """Deploying warlords and playing メイン stratagems from p's hand, in hand order."""
        out: list[Action] = []
        inst, acts = self.inst, self.acts
        names: set[str] | None = None
        funds: tuple[dict[str, int], int] | None = None
        for c in self.hand[p]:
            card = inst[c]
            play = card.main_play
            if play is None:
                continue
            if funds is None:
                funds = budget(self, p)
            # SGT-WARLORD-03, SGT-STRAT-02, SGT-STRAT-05 (more than all ready kokuryoku: never)
            if card.cost_total > funds[1] or not affordable(funds, card.cost):
                continue
            if play == "deploy":
                # SGT-WARLORD-03, SGT-WARLORD-14: pay the cost; one warlord per name.
                if names is None:
                    names = {inst[w].name for w in self.camp[p]}
                if card.name not in names:
                    out.append(acts.deploy[p][c])
            elif play == "permanent":
                out.append(acts.card_stratagem[p][c])
            else:
                out += combat.stratagem_actions(self, p, c)
        return out

    def _ability_actions(self, p: int, u: int) -> list[Action]:
        """The {メイン} abilities of warlord u that p may use now, with their targets."""
        out: list[Action] = []
        acts = self.acts
        for i, ab, exhaust, once in self.inst[u].main_abilities:
            if (exhaust and u in self.exhausted) or (once and f"{u}:{i}" in self.once_used):
                continue
            units = effects.target_units(self, p, ab, u)
            if units is None:
                out.append(acts.ability_plain.row(p, u)[i])
            elif units:
                row, cards = acts.ability.row(p, u * acts.ability_slots + i), acts.cards
                out += [row[t] if t < cards else Action(p, "ability", (u, i, t)) for t in units]
        return out

    def _ougi_usable(self, p: int) -> bool:
        """SGT-OUGI-03/04/05: once per game, in your own turn, with enough kokuryoku."""
        ougi = self.ougi[p]
        return bool(ougi) and not self.ougi_used[p] and p == self.turn_player \
            and self.koku_count(p) >= self.inst[ougi[0]].threshold

    def ougi_actions(self, p: int) -> list[Action]:
        """``ougi *t`` for each target choice t of p's okugi, if p may use it now."""
        if not self._ougi_usable(p):
            return []
        eff = self.inst[self.ougi[p][0]].effect
        assert eff is not None            # an okugi has an effect (cards.toml's schema)
        return [Action(p, "ougi", t) for t in effects.targets(self, p, eff)]

    def use_ougi(self, p: int, chosen: tuple[int, ...]) -> None:
        og = self.ougi[p].pop()
        self.ougi_up[p].append(og)
        self.ougi_used[p] = True
        self.say("ougi", player=p, card=og)
        eff = self.inst[og].effect
        assert eff is not None
        effects.apply(self, p, eff, tuple(chosen), why="ougi")

    def _place_koku(self, p: int, c: int, up: bool) -> None:
        """SGT-KOKU-03..12: one card from hand into the kokuryoku zone."""
        self.hand[p].remove(c)
        card = self.inst[c]
        if up:
            if card.type == "formation" and card.cost.total:
                effects.pay(self, p, card.cost)
            self.koku_up[p].append(c)
            self.say("koku", player=p, card=c, face="up")
        else:
            self.koku_down[p].append(c)
            self.say("koku", player=p, face="down")
            self.draw(p, 1)                                # SGT-KOKU-12

    def _apply_main(self, a: Action) -> None:
        p, verb, args = a.player, a.verb, a.args
        if verb == "deploy":
            c = args[0]
            effects.pay(self, p, self.inst[c].cost)
            self.hand[p].remove(c)
            self.camp[p].append(c)                          # SGT-WARLORD-02
            self.placed[c] = self.turn
            self.say("deploy", player=p, card=c)
        elif verb == "stratagem":
            c = args[0]
            card = self.inst[c]
            effects.pay(self, p, card.cost)
            self.hand[p].remove(c)
            self.say("stratagem", player=p, card=c, targets=list(args[1:]))
            if card.permanent:
                self.field[p].append(c)                     # SGT-STRAT-04: permanent
            else:
                assert card.effect is not None
                effects.apply(self, p, card.effect, tuple(args[1:]), why="stratagem")
                self.discard[p].append(c)                   # SGT-ZONE-06: instant, after use
        elif verb == "ability":
            u, i = args[0], args[1]
            ab = self.card(u).spec.abilities[i]
            if ab.exhaust:
                self.exhausted.add(u)
            if ab.once:
                self.once_used.add(f"{u}:{i}")
            self.say("ability", player=p, card=u, index=i)
            effects.apply(self, p, ab, tuple(args[2:]), source=u, why="ability")
        elif verb == "ougi":
            self.use_ougi(p, args)
        elif verb == "attack":
            combat.declare(self, a)
        elif verb == "end":
            self.end_phase()

    def _counter_actions(self, p: int) -> list[Action]:
        """SGT-COST-10: the wall's owner aims the counter-stratagem on top at any target."""
        owner, c = self.counters[0]
        eff = self.inst[c].counter
        assert eff is not None            # every stratagem has one (cards.toml's schema)
        return [Action(p, "counter", (c, *t)) for t in effects.targets(self, owner, eff)]

    def _apply_counter(self, a: Action) -> None:
        combat.resolve_counter(self, a.args[1:])

    def _discard_actions(self, p: int) -> list[Action]:
        """SGT-START-05: discard down to the hand limit at the end of the turn."""
        return discard_actions(self.acts.discard[p], self.hand[p])

    def _apply_discard(self, a: Action) -> None:
        p = a.player
        discard_card(self, p, a.args[0], self.hand[p], self.discard[p])

    def _concede_actions(self, p: int) -> list[Action]:
        return [self.game.bare_actions["concede"][p]]

    def _concede(self, a: Action) -> None:
        """SGT-WIN-04: a player may concede at any time; the other player wins."""
        self.finish((1 - a.player,), "concede")

    # SGT-TURN-01: a turn is KOKU (begun by the 開始 and ドロー phases), MAIN, then DISCARD,
    # whose end passes the turn; an attack's steps (INTERCEPT, COUNTER) lie inside MAIN and
    # return to it without its hooks.
    PHASES = {
        MULLIGAN: Phase(_turn_decision, _mulligan_actions, _apply_mulligan,     # SGT-START-06/07
                        on_end=_after_mulligan, next=KOKU),
        KOKU: Phase(_turn_decision, _koku_actions, _apply_koku,                 # SGT-KOKU-03..12
                    on_begin=_start_turn, end_if=_nothing_to_place, next=MAIN),
        MAIN: Phase(_turn_decision, _main_actions, _apply_main, next=DISCARD),  # SGT-TURN-01
        INTERCEPT: Phase(_intercept_decision, intercept_actions, intercept),    # SGT-BASIC-09
        COUNTER: Phase(_counter_decision, _counter_actions, _apply_counter),    # SGT-WALL-09, SGT-COST-10
        DISCARD: Phase(_turn_decision, _discard_actions, _apply_discard,        # SGT-START-05
                       end_if=_hand_fits, on_end=_end_turn, next=KOKU),
    }
    # SGT-STRAT-05: an open battle window interrupts the main phase.
    INTERRUPTS = {"battle": Phase(_window_decision, window_actions, respond)}
    ALWAYS = {"concede": Always(_concede_actions, _concede)}                   # SGT-WIN-04

    def stats(self) -> dict[str, float]:
        """Castle walls left at the end (the winner's, both players' together), and whether the
        second player took the mulligan."""
        winners = self.outcome.winners if self.outcome is not None else ()
        return {"walls_left_winner": float(sum(len(self.walls[w]) for w in winners)),
                "walls_left_total": float(sum(len(w) for w in self.walls)),
                "mulligan": float(any(e["e"] == "mulligan" for e in self.log))}

    # ----- zones and public facts --------------------------------------------------------------
    def zone(self, name: str) -> Any:
        return getattr(self, name)

    def public_info(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "turn_player": self.turn_player,
            "first_player": self.first,
            "phase": self.phase,
            "exhausted": sorted(self.exhausted),
            "koku_down_exhausted": list(self.down_exhausted),
            "strength": {str(u): self.strength(u) for p in (0, 1) for u in self.units(p)},
            "siege": {str(u): self.siege(u) for p in (0, 1) for u in self.units(p)},
            "damage": {str(u): d for u, d in self.damage.items()},
            "tokens": {str(t): v.to_json() for t, v in self.tokens.items()},
            "placed": {str(u): t for u, t in self.placed.items()},
            "attacks": {str(u): n for u, n in self.attacks.items()},
            "ougi_used": list(self.ougi_used),
            "battle": frame_json(self.battle),
            "counters": [list(x) for x in self.counters],
            "buff": {str(u): v for u, v in self.buff.items()},
            "siege_buff": {str(u): v for u, v in self.siege_buff.items()},
            "extra_used": sorted(self.extra_used),
            "once_used": sorted(self.once_used),
            "next_token": self.next_token,
            # battle windows, whole: who is asked and how many passed in a row are public
            # (both players are always polled, whatever they hold)
            "windows": [w.to_json() for w in self.windows],
        }
