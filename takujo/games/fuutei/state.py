"""The state of a game of 風帝伝説FIGHTER and its turn sequence.

Plain data only: card ids (instances of the frozen catalogue) in lists, small dicts for
defenders and equipment, and the battle in progress as a dict. Battle steps live in
`battle.py`, card effects in `effects.py`; this module owns the data, the phases and the
legal actions.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.decision import Decision, DecisionKind
from ...core.response import Window, polling_order
from ...core.rng import Rng
from ...core.simultaneous import Commits
from ...core.fields import Bound, Transient, per_player
from ...core.phases import Phase, PhasedState
from ...core.piles import DrawLog, discard_actions, discard_card, draw_cards, take_top
from ...core.state import frame_json
from ...core.visibility import Vis, ZoneSpec
from . import battle, effects
from .battle import (Battle, apply_attack, apply_persuade, apply_reassign, apply_support, attack_actions,
                     persuade_actions, reassign_actions, support_actions)
from .cards import Catalogue
from .constants import (ATTACK, BATTLE, CENTER, GUARD_CHANGES_MAX, HAND, HAND_SIZE, MAIN, OVER, PARTY_MAX,
                        PERSUADE, REASSIGN, SUPPORT)

if TYPE_CHECKING:
    from .game import FuuteiGame



#: FTR-DRAW-01: a card drawn is seen by its drawer; everyone sees that one was drawn
DRAW = DrawLog(count="each")


class FuuteiState(PhasedState):
    ZONES = (
        ZoneSpec("deck", Vis.COUNT),
        ZoneSpec("discard", Vis.PUBLIC),
        ZoneSpec("center", Vis.PUBLIC),
        ZoneSpec("stack", Vis.PUBLIC),            # hold / battle support cards resolving
        ZoneSpec("hand", Vis.OWNER, per_player=True),
        ZoneSpec("support", Vis.OWNER, per_player=True),  # battle support played face down
        ZoneSpec("regions", Vis.PUBLIC, per_player=True),
        ZoneSpec("party", Vis.PUBLIC, per_player=True),
        ZoneSpec("equipment", Vis.PUBLIC, per_player=True),
    )

    game: "FuuteiGame"
    cat: Bound[Catalogue]
    n: Bound[int]                                   # players
    deck: list[int] = []
    discard: list[int] = []
    center: list[int] = []                          # regions belonging to no one (FTR-DRAW-03)
    stack: list[int] = []                           # hold / battle support cards resolving
    hands: list[list[int]] = per_player([])
    supports: list[list[int]] = per_player([])      # battle support played face down
    regions: list[list[int]] = per_player([])
    party: list[list[int]] = per_player([])
    guard: dict[int, int] = {}                      # region -> defending character
    host: dict[int, int] = {}                       # equipment -> character carrying it
    temp: list[int] = []                            # temporary characters in play (FTR-TEMP-01)
    sealed: list[int] = []                          # cannot invade until their own turn ends (FTR-ERION-01)
    turn_player: int = 0
    turn: int = 0
    turns_taken: list[int] = per_player(0)
    phase: str = MAIN
    pile_emptied: bool = False
    failed_draw: bool = False
    battle: Battle | None = None
    commits: Commits | None = None
    windows: list[Window] = []
    guard_changes: int = 0                          # guard/unguard actions this main phase or reassignment
    victory_stale: Transient[bool] = False          # see victory_may_change

    # ----- creation -------------------------------------------------------------------
    @classmethod
    def new(cls, game: "FuuteiGame", seed: int) -> "FuuteiState":
        s = cls.__new__(cls)
        s._init_base(game, Rng(seed))
        s._setup()
        return s

    def _bind(self, game: "FuuteiGame") -> None:  # type: ignore[override]
        self.cat = game.catalogue
        self.n = game.players

    def _setup(self) -> None:
        cat, n = self.cat, self.n
        # FTR-SETUP-01: as many regions as players, at random, one to each player's area.
        regions = cat.of_type("region")
        self.shuffle(regions, "regions")
        for p in range(n):
            self.regions[p].append(regions[p])
            self.say("region_setup", player=p, card=regions[p])
        # FTR-SETUP-02: shuffle every remaining card together, remaining regions included.
        self.deck = regions[n:] + [c.iid for c in cat.cards if c.type != "region"]
        self.shuffle(self.deck, "deck")
        # FTR-SETUP-03: deal 5 cards to each player.
        for p in range(n):
            self.hands[p].extend(take_top(self.deck, HAND_SIZE))
        # FTR-SETUP-04/05/06: no open card may stay in a hand; resolve players in dealing order
        # and repeat until no hand holds one.
        for p in range(n):
            while True:
                open_cards = [c for c in self.hands[p] if cat[c].type in ("event", "region")]
                if not open_cards:
                    break
                c = open_cards[0]
                self.hands[p].remove(c)
                if cat[c].type == "event":
                    self.deck.append(c)
                    self.shuffle(self.deck, "deck")
                    self.say("setup_event_returned", player=p, card=c)
                else:
                    self.regions[p].append(c)
                    self.say("setup_region", player=p, card=c)
                if self.deck:
                    self.hands[p].append(self.deck.pop())
        for p in range(n):
            self.say("dealt", [p], player=p, cards=list(self.hands[p]))
        # FTR-SETUP-07: player 1 (seat 0) goes first, then clockwise.
        self.turn_player = 0
        self.enter(MAIN)

    # ----- derived facts --------------------------------------------------------------
    def points(self, p: int) -> int:
        return sum(map(self.cat.points.__getitem__, self.regions[p]))

    def party_size(self, p: int) -> int:
        """FTR-TEMP-01: temporary characters do not count toward party size."""
        if not self.temp:
            return len(self.party[p])
        return sum(1 for c in self.party[p] if c not in self.temp)

    def owner_of(self, char: int) -> int:
        for p in range(self.n):
            if char in self.party[p]:
                return p
        return -1

    def gear_of(self, char: int) -> list[int]:
        return [e for e, h in self.host.items() if h == char]

    def defended_by(self, char: int) -> list[int]:
        return [r for r, c in self.guard.items() if c == char]

    def region_owner(self, region: int) -> int:
        """Owner of a region in play; -1 for the centre."""
        for p in range(self.n):
            if region in self.regions[p]:
                return p
        return -1

    def in_play(self, card_id: str) -> bool:
        ids = self.cat.ids
        return any(ids[c] == card_id for party in self.party for c in party)

    def threshold(self) -> int:
        """FTR-WIN-02/03: 40 points, or 30 with five or more players."""
        return 30 if self.n >= 5 else 40

    # ----- turn sequence: MAIN, BATTLE, HAND (the hooks of their `PHASES` entries) ----------
    def _start_turn(self) -> None:
        """MAIN's on_begin, FTR-TURN-01: the turn player's draw phase comes first."""
        p = self.turn_player
        self.turn += 1
        self.turns_taken[p] += 1
        self.say("turn", player=p, turn=self.turn)
        effects.expire_temporaries(self, p)
        self.guard_changes = 0
        # FTR-DRAW-01: draw one card (events and regions are opened by `draw`).
        if not self.deck:
            self.failed_draw = True
            self.say("empty_draw", player=p, missed=1)
        else:
            self.draw(p, 1)
        self.check_victory()

    def draw(self, p: int, k: int) -> None:
        """Draw k cards for p; open cards are revealed and resolved (FTR-DRAW-02/03). Cards
        the pile no longer holds are not drawn, and the log says so (``empty_draw``)."""
        for i in range(k):
            if not self.deck:
                self.say("empty_draw", player=p, missed=k - i)
                return
            draw_cards(self, p, 1, self.deck, self.hands[p], DRAW, route=lambda c: self._open_card(p, c))
            if not self.deck:
                self.pile_emptied = True   # FTR-WIN-04 (reading a)
                self.say("pile_emptied", player=p)

    def _open_card(self, p: int, c: int) -> bool:
        """A drawn event or region is opened at once instead of joining the hand (True)."""
        kind = self.cat.types[c]
        if kind == "event":
            # FTR-DRAW-02: reveal and follow it; then it is discarded as a one-shot card.
            self.say("event", player=p, card=c)
            effects.resolve_event(self, p, c)
            self.discard.append(c)
            return True
        if kind == "region":
            # FTR-DRAW-03 / FTR-CHANGE-01: regions drawn after setup go to the centre,
            # belonging to no one (old rule as an option: to the drawer's area).
            if self.game.options.old_region_rule:
                self.move_region(c, p)
                self.say("region_drawn", player=p, card=c, dest="own")
            else:
                self.move_region(c, CENTER)
                self.say("region_drawn", player=p, card=c, dest="center")
            return True
        return False

    def _no_invasion(self) -> bool:
        """BATTLE's end_if: FTR-BATTLE-02, no invasion during a player's own first turn; nor
        without a character free to invade or a region to invade (FTR-BATTLE-01)."""
        return self.turns_taken[self.turn_player] <= 1 or not battle.invasions(self)

    def to_hand_phase(self) -> None:
        """The battle phase is over (a battle ends it: one invasion a turn)."""
        self.enter(HAND)

    def _hand_fits(self) -> bool:
        """HAND's end_if, FTR-TURN-01: the turn ends once the hand holds HAND_SIZE cards or fewer."""
        return len(self.hands[self.turn_player]) <= HAND_SIZE

    def _end_turn(self) -> None:
        """HAND's on_end: the turn ends and passes clockwise (FTR-SETUP-07)."""
        p = self.turn_player
        # FTR-ERION-01: seals on characters of this player end with their own turn.
        self.sealed = [c for c in self.sealed if c not in self.party[p]]
        # FTR-WIN-04: deck-out victory at the end of the turn in which the pile ran out.
        mode = self.game.options.deck_out
        if (mode == "pile_emptied" and self.pile_emptied) or (mode == "failed_draw" and self.failed_draw):
            scores = [self.points(q) for q in range(self.n)]
            best = max(scores)
            self.finish(tuple(q for q in range(self.n) if scores[q] == best), "deck_out")
            return
        self.turn_player = (p + 1) % self.n

    def finish(self, winners: tuple[int, ...], reason: str) -> None:
        if self.end_game(winners, reason, tuple(self.points(q) for q in range(self.n))):
            self.phase = OVER

    def move_region(self, region: int, to: int | None) -> int | None:
        """Every change of where a region lies during play goes through here, since the
        instant victories depend on it (FTR-WIN-01..03, 05): from a player's area, the centre,
        or outside play (a card just drawn) to player `to`'s area, the centre (`CENTER`) or
        the discard pile (None). Returns where it was: a player, `CENTER`, or None."""
        src: int | None = None
        for q in range(self.n):
            if region in self.regions[q]:
                src = q
                self.regions[q].remove(region)
                break
        else:
            if region in self.center:
                src = CENTER
                self.center.remove(region)
        if to is None:
            self.discard.append(region)
        elif to == CENTER:
            self.center.append(region)
        else:
            self.regions[to].append(region)
        self.victory_may_change()
        return src

    def victory_may_change(self) -> None:
        """Regions, the centre or equipment changed: the victory conditions are checked again
        when the action in progress is done (FTR-WIN-01..03, 05 depend on nothing else)."""
        self.victory_stale = True

    def check_invariants(self) -> list[str]:
        """The instant victories (FTR-WIN-01..03, 05) are checked only after a change flagged
        by `victory_may_change`: between actions, no victory condition may hold unnoticed."""
        problems = []
        if self.outcome is None and not self.victory_stale:
            twin = self.clone()
            twin.check_victory()
            if twin.outcome is not None:
                problems.append(f"FTR-WIN: {twin.outcome.reason} victory holds but the game goes on "
                                "(a change of regions, centre or equipment did not call victory_may_change)")
        return problems

    def check_victory(self) -> None:
        """FTR-WIN-01..03, 05: instant victories, checked whenever something they depend on
        changed (points come from regions; 闇王丸's win from equipment and regions in play)."""
        self.victory_stale = False
        if self.outcome is not None:
            return
        need = self.threshold()
        points = [self.points(p) for p in range(self.n)]
        if max(points) >= need:
            order = polling_order(self.turn_player, self.n)
            self.finish(tuple(p for p in order if points[p] >= need), "points")
            return
        # FTR-WIN-05: a character carrying 闇王丸 and no region cards anywhere on the table.
        if not self.center and not any(self.regions):
            holders = tuple(p for p in polling_order(self.turn_player, self.n) if any(
                self.cat[e].spec.hook == "yamiomaru_victory" and self.host[e] in self.party[p]
                for e in self.host))
            if holders:
                self.finish(holders, "yamiomaru")

    # ----- removal helpers ------------------------------------------------------------------
    def remove_character(self, char: int, to_discard: bool = True) -> None:
        """Take a character out of its party: equipment is discarded, its regions undefended."""
        p = self.owner_of(char)
        if p >= 0:
            self.party[p].remove(char)
        for r in self.defended_by(char):
            del self.guard[r]
        for e in self.gear_of(char):
            del self.host[e]
            self.discard.append(e)
        if char in self.sealed:
            self.sealed.remove(char)
        if char in self.temp:
            self.temp.remove(char)
        if to_discard:
            self.discard.append(char)

    def move_character(self, char: int, to: int) -> None:
        """Persuasion or proposal: the character joins `to` with its equipment (FTR-ATTACK-06)."""
        p = self.owner_of(char)
        self.party[p].remove(char)
        for r in self.defended_by(char):
            del self.guard[r]
        self.party[to].append(char)

    def enter_party(self, p: int, char: int, temporary: bool = False) -> None:
        self.party[p].append(char)
        if temporary:
            self.temp.append(char)
        if self.cat[char].id == "val":
            # FTR-VAL-02: 操士ヴァル is discarded when ヴァル enters play.
            for e in [e for e in self.host if self.cat[e].spec.excluded_by == "val"]:
                del self.host[e]
                self.discard.append(e)
                self.say("discarded", card=e, why="val_entered")

    # ----- phases: who decides, what they may do, what it does ------------------------------
    def _turn_decision(self) -> Decision:
        return self.game.turn_decisions[self.phase][self.turn_player]

    def _battle_decision(self) -> Decision:
        return self.game.turn_decisions[self.phase][battle.in_battle(self).actor]

    def _support_decision(self) -> Decision:
        # a hidden commit (the core's kind for face-down choices); the commits are ordered,
        # so it names the invader, then the defender (FTR-COMBAT-04/05)
        assert self.commits is not None
        return Decision(DecisionKind.SIMULTANEOUS, self.commits.waiting(), "battle_support")

    def _window_decision(self) -> Decision:
        responder = self.windows[-1].responder
        assert responder is not None       # a window is closed once everyone has answered
        return Decision(DecisionKind.RESPONSE, (responder,), "tawake")

    def on_move(self) -> None:
        """After every action: the instant victories, if what they depend on changed
        (FTR-WIN-01..03, 05; `victory_may_change`)."""
        if self.victory_stale:
            self.check_victory()

    def _main_actions(self, p: int) -> list[Action]:
        cat, game, out = self.cat, self.game, []
        types = cat.types
        hand = self.hands[p]
        room = self.party_size(p) < PARTY_MAX
        val_in_play = None
        plays = game.card_actions["play"].row(p, 0)
        for c in hand:
            t = types[c]
            if t == "character" and room:                       # FTR-MAIN-02, FTR-MAIN-04
                out.append(plays[c])
            elif t == "equipment":                              # FTR-MAIN-10
                if cat[c].spec.excluded_by == "val":
                    if val_in_play is None:
                        val_in_play = self.in_play("val")
                    if val_in_play:
                        continue                                # FTR-VAL-01
                row = game.card_pair_actions["equip"].row(p, c)
                out.extend([row[ch] for ch in self.party[p]])
            elif t == "hold":                                   # FTR-MAIN-11
                out.extend(Action(p, "hold", (c, *tg)) for tg in effects.hold_targets(self, p, c))
        # FTR-MAIN-05/06/08/09: reassign defenders; one character may guard several regions.
        # [designed] at most GUARD_CHANGES_MAX guard/unguard actions per main phase.
        if self.guard_changes >= GUARD_CHANGES_MAX:
            out.append(game.bare_actions["end"][p])
            return out
        guards, party = game.card_pair_actions["guard"], self.party[p]
        unguards = game.card_actions["unguard"].row(p, 0)
        for r in self.regions[p]:
            current = self.guard.get(r)
            row = guards.row(p, r)
            out.extend([row[ch] for ch in party if ch != current])
            if current is not None:
                out.append(unguards[r])
        out.append(game.bare_actions["end"][p])
        return out

    def _battle_actions(self, p: int) -> list[Action]:
        """FTR-BATTLE-01: invade, or pass to the hand phase."""
        return battle.invasions(self) + [self.game.bare_actions["pass"][p]]

    def _apply_battle(self, a: Action) -> None:
        if a.verb == "pass":
            self.end_phase()
        else:
            battle.declare(self, a.args[0], a.args[1])

    def _hand_actions(self, p: int) -> list[Action]:
        """FTR-TURN-01: discard down to HAND_SIZE cards, one at a time."""
        return discard_actions(self.game.card_actions["discard"].row(p, 0), self.hands[p])

    def _apply_hand(self, a: Action) -> None:
        discard_card(self, a.player, a.args[0], self.hands[a.player], self.discard)

    def _apply_main(self, a: Action) -> None:
        p, verb = a.player, a.verb
        if verb == "play":
            c = a.args[0]
            self.hands[p].remove(c)
            self.enter_party(p, c)
            self.say("play", player=p, card=c)
        elif verb == "equip":
            e, ch = a.args
            self.hands[p].remove(e)
            self.host[e] = ch
            self.victory_may_change()
            self.say("equip", player=p, card=e, target=ch)
        elif verb == "guard":
            r, ch = a.args
            self.guard[r] = ch
            self.guard_changes += 1
            self.say("guard", player=p, region=r, card=ch)
        elif verb == "unguard":
            del self.guard[a.args[0]]
            self.guard_changes += 1
            self.say("unguard", player=p, region=a.args[0])
        elif verb == "hold":
            effects.use_hold(self, p, a.args[0], a.args[1:])
        elif verb == "end":
            self.end_phase()

    # FTR-TURN-01: a turn is MAIN (begun by the draw phase), BATTLE, then HAND, whose end
    # passes the turn; a battle's phases come between BATTLE and HAND.
    PHASES = {
        MAIN: Phase(_turn_decision, _main_actions, _apply_main,                  # FTR-MAIN
                    on_begin=_start_turn, next=BATTLE),
        BATTLE: Phase(_turn_decision, _battle_actions, _apply_battle,            # FTR-BATTLE-01/02
                      end_if=_no_invasion, next=HAND),
        HAND: Phase(_turn_decision, _hand_actions, _apply_hand,                  # FTR-TURN-01
                    end_if=_hand_fits, on_end=_end_turn, next=MAIN),
        SUPPORT: Phase(_support_decision, support_actions, apply_support),  # FTR-COMBAT-04/05
        ATTACK: Phase(_battle_decision, attack_actions, apply_attack),      # FTR-ATTACK-01
        PERSUADE: Phase(_battle_decision, persuade_actions, apply_persuade),  # FTR-ATTACK-06
        REASSIGN: Phase(_battle_decision, reassign_actions, apply_reassign),  # FTR-COMBAT-12
    }
    # FTR-TAWAKE-01: an open たわけ！ window interrupts every phase.
    INTERRUPTS = {"tawake": Phase(_window_decision, effects.tawake_actions, effects.respond)}

    # ----- zones and public facts ---------------------------------------------------------
    def stats(self) -> dict[str, float]:
        """Regions taken from another player (by invasion or effect), for the balance lab."""
        return {"regions_changed_hands": sum(1 for e in self.log
                                             if e["e"] == "gain_region" and e.get("from_player") is not None)}

    def zone(self, name: str) -> Any:
        if name == "hand":
            return self.hands
        if name == "support":
            return self.supports
        if name == "equipment":                  # each player's carried equipment, in host order
            carried: list[list[int]] = [[] for _ in self.party]
            if self.host:
                owner = {c: p for p, members in enumerate(self.party) for c in members}
                for e, h in self.host.items():
                    if h in owner:
                        carried[owner[h]].append(e)
            return carried
        return getattr(self, name)

    def public_info(self) -> dict[str, Any]:
        b = self.battle
        return {
            "turn": self.turn,
            "turn_player": self.turn_player,
            "phase": self.phase,
            "points": [self.points(p) for p in range(self.n)],
            "threshold": self.threshold(),
            "guard": {str(r): c for r, c in self.guard.items()},
            "host": {str(e): c for e, c in self.host.items()},
            "temporary": list(self.temp),
            "sealed": list(self.sealed),
            "turns_taken": list(self.turns_taken),
            "pile_emptied": self.pile_emptied,
            "failed_draw": self.failed_draw,
            "battle": frame_json(b),
            # the たわけ！ windows, whole: what is being answered, whom they poll (fixed from
            # hand sizes, FTR-TAWAKE-01) and who is asked now
            "windows": [w.to_json() for w in self.windows],
            "committed": [p for p in self.commits.players if p in self.commits.choices] if self.commits else [],
            "guard_changes": self.guard_changes,
        }
