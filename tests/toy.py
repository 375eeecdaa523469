"""A tiny toy game for testing the CLI, the simulator and the bench: "dice race".

2-4 players take turns. On its turn a player chooses ``roll`` or ``hold``:

* ``roll`` rolls 1D6 into the turn's pot; a 1 busts (the pot is lost and the turn ends); as soon
  as score + pot reaches the target the pot is banked and the player wins (reason "target").
* ``hold`` banks the pot and ends the turn.

At the start of every ``bid_every``-th round (default 3) all players simultaneously commit
``bid 0|1|2`` (at most their score) through core `Commits`; the bids are revealed together,
everyone pays its bid and the single highest bidder (if any bid > 0) gains 4 points.

Cards: each player owns three bid tokens (card ids ``3p + b`` for bid ``b``), held in an
owner-only ``tokens`` zone; a committed token moves to the owner-only ``committed`` zone (the
others see only that one was committed) and goes back when the bids are revealed.

Register it with ``takujo.register("toy", "tests.toy:ToyGame")``.
"""
from __future__ import annotations

from typing import Any

from pydantic import Field

from takujo.core import (Action, Commits, Decision, DecisionKind, Dice, Game, GameOptions,
                         IllegalActionError, Outcome, Rng, State, Vis, ZoneSpec)
from takujo.core.fields import per_player
from takujo.core.simultaneous import commit_face_down

BID_GAIN = 4
MAX_BID = 2


class ToyOptions(GameOptions):
    players: int = Field(4, ge=2, le=4, description="number of players")
    target: int = Field(20, ge=2, le=10_000, description="points needed to win")
    bid_every: int = Field(3, ge=0, le=100, description="every N-th round starts with a simultaneous bid (0: never)")


class ToyState(State):
    # Bid tokens: the owner sees its own, the others only how many (so whether one was committed).
    ZONES = (ZoneSpec("tokens", Vis.OWNER, per_player=True), ZoneSpec("committed", Vis.OWNER, per_player=True))

    # The state's data, declared once: this makes its slots, initial values, clone and JSON.
    scores: list[int] = per_player(0)
    pot: int = 0
    current: int = 0
    round: int = 1
    turn: int = 1
    commits: Commits | None = None           # the bids being made, hidden until all are in
    tokens: list[list[int]] = per_player([])
    committed: list[list[int]] = per_player([])

    def __init__(self, game: "ToyGame", rng: Rng) -> None:
        self._init_base(game, rng)
        self.tokens = [[3 * p, 3 * p + 1, 3 * p + 2] for p in range(game.players)]
        self.say("start", players=game.players, target=self._target)

    @property
    def _target(self) -> int:
        return self.game.options.target  # type: ignore[attr-defined]

    # ----- driver surface -------------------------------------------------------------
    @property
    def pending(self) -> Decision | None:
        if self.outcome is not None:
            return None
        if self.commits is not None:
            return Decision(DecisionKind.SIMULTANEOUS, self.commits.waiting(), "bid")
        return Decision(DecisionKind.TURN, (self.current,), "roll_or_hold")

    def _legal(self, player: int) -> list[Action]:
        if self.commits is not None:
            return [Action(player, "bid", (b,)) for b in range(min(MAX_BID, self.scores[player]) + 1)]
        return [Action(player, "roll"), Action(player, "hold")]

    def _apply(self, action: Action) -> None:
        p = action.player
        if self.commits is not None:
            if action.verb != "bid":
                raise IllegalActionError(f"{action} is not a bid")
            token = 3 * p + int(action.args[0])
            if commit_face_down(self, self.commits, action, (token,), self.tokens[p], self.committed[p]):
                self._reveal()
            return
        if action.verb == "roll":
            total, _ = self.roll(Dice(1, 0), "roll", player=p)
            if total == 1:
                self.say("bust", player=p, lost=self.pot)
                self.pot = 0
                self._next_turn()
                return
            self.pot += total
            if self.scores[p] + self.pot >= self._target:
                self.scores[p] += self.pot
                self.pot = 0
                self.outcome = Outcome((p,), "target", tuple(self.scores))
                self.say("win", player=p, score=self.scores[p])
        elif action.verb == "hold":
            self.scores[p] += self.pot
            self.say("bank", player=p, points=self.pot, score=self.scores[p])
            self.pot = 0
            self._next_turn()
        else:
            raise IllegalActionError(f"unknown action {action}")

    def _next_turn(self) -> None:
        n = self.game.players
        self.current = (self.current + 1) % n
        self.turn += 1
        if self.current == 0:
            self.round += 1
            every = self.game.options.bid_every  # type: ignore[attr-defined]
            if every and self.round % every == 0:
                self.commits = Commits(list(range(n)))
                self.say("bidding", round=self.round)

    def _reveal(self) -> None:
        assert self.commits is not None
        bids = [0] * self.game.players
        for act in self.commits.reveal():
            bids[act.player] = int(act.args[0])
        self.commits = None
        for p in range(self.game.players):
            self.tokens[p].extend(self.committed[p])
            self.tokens[p].sort()
            self.committed[p].clear()
        for p, b in enumerate(bids):
            self.scores[p] -= b
        top = max(bids)
        gainer = bids.index(top) if top > 0 and bids.count(top) == 1 else None
        if gainer is not None:
            self.scores[gainer] += BID_GAIN
        self.say("bids", bids=bids, gainer=gainer)
        best = max(self.scores)
        if best >= self._target:
            winners = tuple(p for p, s in enumerate(self.scores) if s == best)
            self.outcome = Outcome(winners, "target", tuple(self.scores))
            self.say("win", player=winners[0], score=best)

    # ----- visibility -----------------------------------------------------------------
    def zone(self, name: str) -> Any:
        if name == "tokens":
            return self.tokens
        if name == "committed":
            return self.committed
        raise KeyError(name)

    def public_info(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "pot": self.pot, "current": self.current,
                "round": self.round, "turn": self.turn, "target": self._target}


class ToyHeuristic:
    """Roll until the pot holds 10 or more, then hold; bid 1 when it can."""

    name = "heuristic"

    def act(self, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        by_text = {str(a): a for a in legal}
        if "roll" in by_text:
            return by_text["hold"] if view["public"]["pot"] >= 10 else by_text["roll"]
        return by_text.get("bid 1", legal[0])


class ToyGame(Game):
    name = "toy"
    title = "Dice race (toy)"
    Options = ToyOptions
    State = ToyState

    def new_state(self, seed: int = 0) -> ToyState:
        return ToyState(self, self.rng_for(seed))

    def heuristic_bot(self) -> ToyHeuristic:
        return ToyHeuristic()

    presentation = "tests.toy_present"
    messages_file = "toy_messages.toml"
