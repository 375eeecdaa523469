"""The state of a game of 戦国大戦 双 and its turn sequence.

Turn: 開始 (ready your cards) → ドロー → 国力 (place 0–1 kokuryoku) → メイン (deploy, stratagems,
abilities, the okugi, attacks) → 終了 (discard to 7; damage and this-turn changes end).
Attacks are resolved in `combat.py`, effects and costs in `effects.py`.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.decision import Decision, DecisionKind
from ...core.errors import IllegalActionError
from ...core.response import Window
from ...core.rng import Rng
from ...core.state import State
from ...core.visibility import Vis, ZoneSpec
from . import combat, effects
from .cards import CardDef, Effect
from .effects import affordable, budget
from .phases import COUNTER, DISCARD, INTERCEPT, KOKU, MAIN, MULLIGAN, OVER

if TYPE_CHECKING:
    from .game import SengokuGame

START_HAND = 5        # SGT-START-04
HAND_LIMIT = 7        # SGT-START-05
START_WALLS = 8       # SGT-START-01, SGT-SETUP-06
KOKU_MAX = 10         # SGT-KOKU-05
TOKEN_BASE = 10_000   # summoned soldiers are tokens with ids from here (SGT-SUMMON-01)


# What `pending` returns in a battle window, by player (TURN decisions: `game.turn_decisions`).
_WINDOW = (Decision(DecisionKind.RESPONSE, (0,), "battle_stratagem"),
           Decision(DecisionKind.RESPONSE, (1,), "battle_stratagem"))


class SengokuState(State):
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
    _PER_PLAYER = ("deck", "hand", "walls", "koku_up", "koku_down", "camp", "summons", "field",
                   "ougi", "ougi_up", "discard", "exile")

    # Instance attributes as slots: they are read on every step, and a slot is read faster
    # than an entry of the instance dict.
    __slots__ = ("inst", "owner", "acts", "turns", *_PER_PLAYER, "down_exhausted", "exhausted",
                 "tokens", "next_token", "damage", "buff", "siege_buff", "placed", "attacks", "extra_used",
                 "once_used", "ougi_used", "turn", "turn_player", "phase", "first", "battle",
                 "windows", "counters")

    game: "SengokuGame"

    # ----- creation ---------------------------------------------------------------------
    @classmethod
    def new(cls, game: "SengokuGame", seed: int) -> "SengokuState":
        s = cls.__new__(cls)
        s._init_base(game, Rng(seed))
        s._bind(game)
        for name in cls._PER_PLAYER:
            setattr(s, name, [[], []])
        s.down_exhausted = [0, 0]
        s.exhausted = set()
        s.tokens = {}
        s.next_token = TOKEN_BASE
        s.damage, s.buff, s.siege_buff, s.placed, s.attacks = {}, {}, {}, {}, {}
        s.extra_used, s.once_used = set(), set()
        s.ougi_used = [False, False]
        s.turn, s.turn_player, s.phase = 0, 0, MULLIGAN
        s.battle = None
        s.windows = []
        s.counters = []
        s._setup()
        return s

    def _bind(self, game: "SengokuGame") -> None:
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
        # SGT-SETUP-06: 8 cards from the top of the deck, face down, unseen, as walls.
        for p in (self.first, 1 - self.first):
            for _ in range(START_WALLS):
                if self.deck[p]:
                    self.walls[p].append(self.deck[p].pop())
        self._start_turn(self.first)

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
        return self.tokens[u]["owner"] if u in self.tokens else self.owner[u]

    def unit_type(self, u: int) -> str:
        return self.tokens[u]["unit"] if u in self.tokens else (self.inst[u].unit or "")

    def has(self, u: int, keyword: str) -> bool:
        return u not in self.tokens and keyword in self.inst[u].keywords

    def base_strength(self, u: int) -> int:
        return self.tokens[u]["strength"] if u in self.tokens else self.inst[u].strength

    def strength(self, u: int, auras: Sequence[tuple[str | None, int]] | None = None) -> int:
        """Current 兵力: printed, plus auras and this turn's changes, less damage. `auras`, when
        given, are the owner's (`auras(p)`), computed once for many units; () leaves them out."""
        token = self.tokens.get(u)
        base = self.inst[u].strength if token is None else token["strength"]
        if auras is None:
            auras = self.auras(self.owner[u] if token is None else token["owner"])
        if auras:
            kind = (self.inst[u].unit or "") if token is None else token["unit"]
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
        base = self.tokens[u]["siege"] if u in self.tokens else self.inst[u].siege
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
        deck, hand = self.deck[p], self.hand[p]
        got = 0
        for _ in range(n):
            if not deck:
                break
            c = deck.pop()
            hand.append(c)
            self.say("draw", [p], player=p, card=c)
            got += 1
        if got:
            self.say("draw_count", player=p, n=got)
        return got

    def summon(self, p: int, strength: int, siege: int, unit: str) -> int:
        """SGT-SUMMON-01/03: a token whose stats the summoning card sets."""
        t = self.next_token
        self.next_token += 1
        self.tokens[t] = {"owner": p, "strength": strength, "siege": siege, "unit": unit}
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

    # ----- turn sequence ----------------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        self.turn += 1
        self.turn_player = p
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
        self.phase = KOKU if self._can_place_koku(p) else MAIN

    def end_main(self) -> None:
        self.phase = DISCARD
        if len(self.hand[self.turn_player]) <= HAND_LIMIT:
            self._end_turn()

    def _end_turn(self) -> None:
        # 終了フェイズ: SGT-WARLORD-13, SGT-BASIC-06 — damage and this turn's changes end.
        self.damage.clear()
        self.buff.clear()
        self.siege_buff.clear()
        self.say("end_turn", player=self.turn_player)
        self._start_turn(1 - self.turn_player)

    def finish(self, winners: tuple[int, ...], reason: str) -> None:
        if self.end_game(winners, reason, (len(self.walls[0]), len(self.walls[1]))):
            self.phase = OVER
            self.windows.clear()

    def check_card_conditions(self) -> None:
        """SGT-WIN-03: victory and defeat conditions printed on cards; SGT-WIN-05: if both
        players meet one at once the game is drawn (a shared result)."""
        if self.outcome is not None or not self.game.has_conditions:
            return
        won = set()
        for p in (0, 1):
            for eff in self.static_effects(p):
                if eff.do == "win_if" and self.koku_count(p) >= int(eff.get("koku", 0)) \
                        and len(self.camp[p]) >= int(eff.get("camp", 0)):
                    won.add(p)
                if eff.do == "lose_if" and len(self.hand[1 - p]) <= int(eff.get("hand_at_most", 99)) \
                        and len(self.deck[1 - p]) <= int(eff.get("deck_at_most", 999)):
                    won.add(p)
        if won:
            self.finish(tuple(sorted(won)), "card_condition" if len(won) == 1 else "draw")

    # ----- driver surface ------------------------------------------------------------------------
    @property
    def pending(self) -> Decision | None:
        if self.outcome is not None:
            return None
        if self.windows:
            return _WINDOW[self.windows[-1].responder]
        phase, turns = self.phase, self.turns
        if phase == INTERCEPT:
            return turns["intercept"][1 - self.turn_player]
        if phase == COUNTER:
            return turns["counter_target"][self.counters[0][0]]
        return turns[phase][self.turn_player]

    def _legal(self, player: int) -> list[Action]:
        if self.windows:
            return combat.window_actions(self, player)
        phase = self.phase
        if phase == MULLIGAN:
            return [self.acts.keep[player], self.acts.mulligan[player]]
        if phase == KOKU:
            return self._koku_actions(player)
        if phase == MAIN:
            return self._main_actions(player)
        if phase == INTERCEPT:
            return combat.intercept_actions(self, player)
        if phase == COUNTER:
            owner, c = self.counters[0]
            eff = self.inst[c].counter
            return [Action(player, "counter", (c, *t)) for t in effects.targets(self, owner, eff)]
        if phase == DISCARD:
            discard = self.acts.discard[player]
            return [discard[c] for c in self.hand[player]]
        return []

    def apply(self, action: Action | str, player: int | None = None, expect_version: int | None = None) -> None:
        """As `State.apply`, and SGT-WIN-04: ``concede`` is always open to a player."""
        if expect_version is not None and expect_version != self.steps:
            super().apply(action, player, expect_version)  # raises StaleActionError
        if isinstance(action, str):
            action = self.parse_action(action, player)
        if isinstance(action, Action) and action.verb == "concede" and not action.args \
                and self.outcome is None and action.player in (0, 1):
            self._log_act(action, self.pending)
            self.finish((1 - action.player,), "concede")
            self.steps += 1
            return
        super().apply(action)

    def _log_act(self, action: Action, pend: Decision | None) -> None:
        # SGT-KOKU-10, SGT-STATE-03: which card goes face down as kokuryoku is seen only by its
        # owner (the public "koku" event says that a face-down placement happened).
        if action.verb == "koku" and action.args[1:] == ("down",) and self.phase == KOKU and not self.windows:
            self.log.append({"e": "act", "to": [action.player], "player": action.player,
                             "action": str(action)})
            return
        State._log_act(self, action, pend)

    def parse_action(self, text: str, player: int | None = None) -> Action:
        if text.strip() == "concede" and player is None:
            raise IllegalActionError("sengoku_taisen.action.concede_who")
        return super().parse_action(text, player)

    def _can_place_koku(self, p: int) -> bool:
        """Whether p has a card to place as kokuryoku (each card may go face down)."""
        return self.koku_count(p) < KOKU_MAX and bool(self.hand[p])    # SGT-KOKU-05

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
            slot = u * acts.ability_slots + i
            if units is None:
                out.append(acts.ability_plain[p][slot])
            elif units:
                row, cards = acts.ability.row(p, slot), acts.cards
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
        og = self.inst[self.ougi[p][0]]
        return [Action(p, "ougi", t) for t in effects.targets(self, p, og.effect)]

    def use_ougi(self, p: int, chosen: tuple) -> None:
        og = self.ougi[p].pop()
        self.ougi_up[p].append(og)
        self.ougi_used[p] = True
        self.say("ougi", player=p, card=og)
        effects.apply(self, p, self.inst[og].effect, tuple(chosen), why="ougi")

    def _apply(self, a: Action) -> None:
        p, verb, phase = a.player, a.verb, self.phase
        if self.windows:
            combat.respond(self, a)
        elif phase == MULLIGAN:
            if verb == "mulligan":
                # SGT-START-07: the hand to the bottom of the deck, no shuffle, draw 5.
                hand = self.hand[p]
                self.deck[p][:0] = list(reversed(hand))
                self.hand[p] = []
                self.say("mulligan", player=p)
                self.draw(p, START_HAND)
            self._after_mulligan()
        elif phase == KOKU:
            if verb == "koku":
                self._place_koku(p, a.args[0], a.args[1] == "up")
            self.phase = MAIN
        elif phase == MAIN:
            self._apply_main(a)
        elif phase == INTERCEPT:
            combat.intercept(self, a)
        elif phase == COUNTER:
            combat.resolve_counter(self, a.args[1:])
        elif phase == DISCARD:
            self.hand[p].remove(a.args[0])
            self.discard[p].append(a.args[0])
            self.say("discard", player=p, card=a.args[0])
            if len(self.hand[p]) <= HAND_LIMIT:
                self._end_turn()
        self.check_card_conditions()

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
            self.end_main()

    def stats(self) -> dict[str, float]:
        """Castle walls left at the end (the winner's, both players' together), and whether the
        second player took the mulligan."""
        winners = self.outcome.winners if self.outcome is not None else ()
        return {"walls_left_winner": float(sum(len(self.walls[w]) for w in winners)),
                "walls_left_total": float(sum(len(w) for w in self.walls)),
                "mulligan": float(any(e["e"] == "mulligan" for e in self.log))}

    def estimate(self) -> list[float]:
        """Chances follow the walls left, and the warlords' strength on the field."""
        if self.outcome is not None:
            return super().estimate()
        power = [1 + 2 * len(self.walls[p]) + sum(max(0, self.strength(u)) for u in self.units(p)) / 1000
                 for p in (0, 1)]
        return [power[0] / sum(power), power[1] / sum(power)]

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
            "tokens": {str(t): dict(v) for t, v in self.tokens.items()},
            "placed": {str(u): t for u, t in self.placed.items()},
            "attacks": {str(u): n for u, n in self.attacks.items()},
            "ougi_used": list(self.ougi_used),
            "battle": dict(self.battle) if self.battle else None,
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

    # ----- copy and serialise ------------------------------------------------------------------
    def clone(self) -> "SengokuState":
        s = SengokuState.__new__(SengokuState)
        self._clone_base(s)
        s.inst, s.owner, s.acts, s.turns = self.inst, self.owner, self.acts, self.turns
        for name in self._PER_PLAYER:
            a, b = getattr(self, name)
            setattr(s, name, [a[:], b[:]])
        s.down_exhausted = self.down_exhausted[:]
        s.exhausted = set(self.exhausted)
        s.tokens = {t: dict(v) for t, v in self.tokens.items()}
        s.next_token = self.next_token
        s.damage, s.buff, s.siege_buff = dict(self.damage), dict(self.buff), dict(self.siege_buff)
        s.placed, s.attacks = dict(self.placed), dict(self.attacks)
        s.extra_used, s.once_used = set(self.extra_used), set(self.once_used)
        s.ougi_used = self.ougi_used[:]
        s.turn, s.turn_player, s.phase, s.first = self.turn, self.turn_player, self.phase, self.first
        s.battle = dict(self.battle) if self.battle else None
        s.windows = [w.clone() for w in self.windows]
        s.counters = [list(x) for x in self.counters]
        return s

    _DICTS = ("damage", "buff", "siege_buff", "placed", "attacks")

    def _to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {name: [list(x) for x in getattr(self, name)] for name in self._PER_PLAYER}
        d.update({name: [[k, v] for k, v in getattr(self, name).items()] for name in self._DICTS})
        d.update(
            down_exhausted=list(self.down_exhausted), exhausted=sorted(self.exhausted),
            tokens=[[t, dict(v)] for t, v in self.tokens.items()], next_token=self.next_token,
            extra_used=sorted(self.extra_used), once_used=sorted(self.once_used),
            ougi_used=list(self.ougi_used), turn=self.turn, turn_player=self.turn_player,
            phase=self.phase, first=self.first, battle=dict(self.battle) if self.battle else None,
            windows=[w.to_json() for w in self.windows], counters=[list(x) for x in self.counters],
        )
        return d

    def _from_json(self, d: dict[str, Any]) -> None:
        self._bind(self.game)
        for name in self._PER_PLAYER:
            setattr(self, name, [list(x) for x in d[name]])
        for name in self._DICTS:
            setattr(self, name, {k: v for k, v in d[name]})
        self.down_exhausted = list(d["down_exhausted"])
        self.exhausted = set(d["exhausted"])
        self.tokens = {t: dict(v) for t, v in d["tokens"]}
        self.next_token = d["next_token"]
        self.extra_used, self.once_used = set(d["extra_used"]), set(d["once_used"])
        self.ougi_used = list(d["ougi_used"])
        self.turn, self.turn_player, self.phase, self.first = d["turn"], d["turn_player"], d["phase"], d["first"]
        self.battle = dict(d["battle"]) if d["battle"] else None
        self.windows = [Window.from_json(w) for w in d["windows"]]
        self.counters = [list(x) for x in d["counters"]]
