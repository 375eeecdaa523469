"""The effect vocabulary of 風帝伝説FIGHTER cards, and the たわけ！ response window.

Card data names an effect (``effect = {do = "draw", n = 2}``); this module implements each
verb. Hold cards (FTR-MAIN-11) and battle support cards (FTR-COMBAT-06) pass through a
response window in which other players may negate them with 「たわけ！」 (FTR-TAWAKE).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.dice import Dice
from ...core.response import Window, polling_order
from .constants import PARTY_MAX

if TYPE_CHECKING:
    from .state import FuuteiState

Targets = tuple[int, ...]


# ----- hold cards: targets ----------------------------------------------------------------------
def hold_targets(s: "FuuteiState", p: int, card: int) -> list[Targets]:
    """Every legal choice of targets for hold card `card` of player `p` ([] = unusable)."""
    eff = s.cat[card].effect
    do = eff.do
    others = [ch for q in range(s.n) if q != p for ch in s.party[q]]
    if do in ("draw", "temporary_character"):
        return [()]
    if do == "temporary_from_hand":
        return [(h,) for h in s.hands[p] if s.cat[h].type == "character"]
    if do == "proposal":
        # FTR-KYUKON-01: no condition on the user's own characters; only room is needed.
        if s.party_size(p) >= PARTY_MAX:
            return []
        return [(ch,) for ch in others if ch not in s.temp]
    if do == "seal_invasion":
        return [(ch,) for party in s.party for ch in party if ch not in s.sealed]
    if do == "destroy_equipment":
        return [(e,) for e in s.host]
    if do == "claim_center_region":
        return [(r,) for r in s.center]
    if do == "destroy_region":
        owned = [r for q in range(s.n) for r in s.regions[q] if r not in s.guard]
        return [(r,) for r in s.center + owned]
    if do == "assassinate":
        return [(ch,) for ch in others]
    raise AssertionError(f"hold effect {do!r} has no targeting rule")


def use_hold(s: "FuuteiState", p: int, card: int, targets: Targets) -> None:
    """FTR-MAIN-11: use a hold card. Dice are rolled once the target is chosen, then the
    たわけ！ window opens (FTR-TAWAKE-02/03)."""
    s.hands[p].remove(card)
    s.stack.append(card)
    s.say("hold", player=p, card=card, targets=list(targets))
    data: dict[str, Any] = {"for": "hold", "card": card, "user": p, "targets": list(targets)}
    eff = s.cat[card].effect
    dice = {"proposal": "1D", "assassinate": eff.get("dice")}.get(eff.do)
    if dice:
        data["roll"] = s.roll(Dice.parse(dice), eff.do, p, card=card)[0]
    if not open_window(s, data):
        finish_card(s, data, negated=False)


def support_data(s: "FuuteiState", side: int, card: int) -> dict[str, Any]:
    """A revealed battle support card about to take effect; a dice card rolls first."""
    user = s.battle.players[side]
    data: dict[str, Any] = {"for": "support", "card": card, "user": user, "side": side}
    roll = s.cat[card].effect.get("roll")
    if roll:
        data["roll"], faces = s.roll(Dice.parse(roll), "support", user, card=card)
        data["faces"] = list(faces)
    return data


# ----- the たわけ！ window ------------------------------------------------------------------------
def open_window(s: "FuuteiState", data: dict[str, Any]) -> bool:
    """FTR-TAWAKE-01, FTR-TAWAKE-02: every player may answer (polled in turn order from the turn
    player, FTR-TAWAKE-04 recommended order; the card's own user is not asked). Everyone else
    with a card in hand is asked, whether or not they hold たわけ！: hand sizes are public, hand
    contents are not, so neither the window nor whom it names tells anyone who holds one.
    Returns False when nobody else holds a card at all, so the card just resolves."""
    order = [q for q in polling_order(s.turn_player, s.n) if q != data["user"] and s.hands[q]]
    if not order:
        return False
    w = Window("tawake", order, 0, data)
    s.windows.append(w)
    return True


def tawake_actions(s: "FuuteiState", q: int) -> list[Action]:
    """A polled player may negate with a たわけ！ from hand, or allow; with none, only allow."""
    cards = sorted(c for c in s.hands[q] if s.cat[c].type == "tawake")
    return ([Action(q, "tawake", (cards[0],))] if cards else []) + [Action(q, "allow")]


def respond(s: "FuuteiState", a: Action) -> None:
    w = s.windows[-1]
    data = w.data
    if a.verb == "tawake":
        # FTR-TAWAKE-04: the negated card is discarded without effect; the たわけ！ card is
        # single-use (FTR-PERSIST-01).
        s.hands[a.player].remove(a.args[0])
        s.discard.append(a.args[0])
        s.say("tawake", player=a.player, card=a.args[0], negates=data["card"])
        s.windows.pop()
        finish_card(s, data, negated=True)
    else:
        w.passed()
        if w.responder is not None:
            return
        s.windows.pop()
        finish_card(s, data, negated=False)
    if data["for"] == "support" and s.battle is not None:
        from .battle import next_support
        next_support(s)


def finish_card(s: "FuuteiState", data: dict[str, Any], negated: bool) -> None:
    card = data["card"]
    s.stack.remove(card)
    if negated:
        s.discard.append(card)
        s.say("negated", card=card)
        return
    if data["for"] == "hold":
        stays = apply_hold(s, data)
    else:
        apply_support(s, data)
        stays = True   # in the battle area until the battle ends (FTR-COMBAT-07)
        s.stack.append(card)
    if not stays:
        s.discard.append(card)   # FTR-PERSIST-01: single-use


# ----- hold effects -------------------------------------------------------------------------------
def apply_hold(s: "FuuteiState", data: dict[str, Any]) -> bool:
    """Carry out a hold card; True if the card itself stays in play. A card whose target is
    no longer there does nothing, and the log says so (``no_effect``)."""
    card, p, targets = data["card"], data["user"], data["targets"]
    eff = s.cat[card].effect
    do = eff.do
    t = targets[0] if targets else None
    done = True
    if do == "draw":
        s.draw(p, int(eff.get("n", 1)))           # an empty pile is logged by `draw`
    elif do == "temporary_character":
        # FTR-TEMP-01: joins as a temporary character, outside the party-size count.
        s.enter_party(p, card, temporary=True)
        s.say("temporary_joins", player=p, card=card)
        return True
    elif do == "temporary_from_hand":
        done = t in s.hands[p]
        if done:
            s.hands[p].remove(t)
            s.enter_party(p, t, temporary=True)
            s.say("temporary_joins", player=p, card=t)
    elif do == "proposal":
        # FTR-KYUKON-01: usable with no character, or only same-sex ones, in your area; an
        # opposite-sex character of yours makes the proposal easier.
        done = t is not None and s.owner_of(t) not in (-1, p) and s.party_size(p) < PARTY_MAX
        if done:
            need = proposal_need(s, eff, p, t)
            ok = data["roll"] >= need
            if ok:
                s.move_character(t, p)
            s.say("proposal", player=p, card=t, roll=data["roll"], need=need, success=ok)
    elif do == "seal_invasion":
        # FTR-ERION-01: lasts until the end of the turn of the player who has that character.
        done = t is not None and s.owner_of(t) >= 0 and t not in s.sealed
        if done:
            s.sealed.append(t)
            s.say("sealed", card=t, player=s.owner_of(t))
    elif do == "destroy_equipment":
        done = t in s.host
        if done:
            del s.host[t]
            s.discard.append(t)
            s.say("discarded", card=t, why="destroy_equipment")
    elif do == "claim_center_region":
        done = t in s.center
        if done:
            s.move_region(t, p)
            s.say("gain_region", player=p, region=t, from_player=-1)
    elif do == "destroy_region":
        q = s.region_owner(t)
        done = t in s.center or (q >= 0 and t not in s.guard)
        if done:
            s.move_region(t, None)
            s.say("discarded", card=t, why="destroy_region")
    elif do == "assassinate":
        done = t is not None and s.owner_of(t) >= 0
        if done:
            # 刺客: the roll against the defence the card names (``against``: physical
            # defence on the stand-in card), with equipment (FTR-CARD-04); a defence with
            # dice is rolled now, as in an attack (FTR-ATTACK-02 reading (1)).
            from .battle import STAT_INDEX, stat_dice
            against = eff.get("against", "phys_def")
            guard = stat_dice(s, t, STAT_INDEX[against])
            defence = s.roll(guard, "defence", s.owner_of(t), card=t)[0] if guard.n else guard.bonus
            ok = data["roll"] >= defence
            s.say("assassination", player=p, card=t, roll=data["roll"], against=against,
                  defence=defence, success=ok)
            if ok:
                s.remove_character(t)
    if not done:
        s.say("no_effect", player=p, card=card)
    return False


def proposal_need(s: "FuuteiState", eff: Any, p: int, target: int) -> int:
    """The roll 求婚 needs: ``need``, less ``opposite_sex_bonus`` when `p`'s party has a
    character of the other sex than `target` (FTR-KYUKON-01; the bonus is designed)."""
    sex = s.cat[target].spec.sex
    partner = any(s.cat[c].spec.sex not in (None, sex) for c in s.party[p])
    return int(eff.get("need", 5)) - (int(eff.get("opposite_sex_bonus", 0)) if partner else 0)


# ----- battle support effects -------------------------------------------------------------------
def apply_support(s: "FuuteiState", data: dict[str, Any]) -> None:
    """``modify``: stat changes for the rest of this battle (FTR-COMBAT-07), stacking
    (FTR-STACK-01). The event lists every change made: [side, stat, amount]; none at all is
    said too (a card whose changes are all zero)."""
    from .battle import ROLLED_ATK, STAT_INDEX
    eff = s.cat[data["card"]].effect
    side = data["side"]
    target = 1 - side if eff.get("target", "self") == "opponent" else side
    mods = s.battle.mods
    changes: list[list[Any]] = []
    for stat, i in STAT_INDEX.items():
        amount = int(eff.get(stat, 0))
        if amount:
            mods[target][i] += amount
            changes.append([target, stat, amount])
    if "roll" in data:
        to = eff.get("roll_to", "attack")
        mods[side][ROLLED_ATK if to == "attack" else STAT_INDEX[to]] += data["roll"]
        changes.append([side, to, data["roll"]])
        if to == "attack":
            # FTR-ATTACK-03: dice added by a modifier count among "all dice" of an attack.
            s.battle.extra_dice[side].extend(data.get("faces", []))
    s.say("support_effect", player=data["user"], card=data["card"], changes=changes)


# ----- events ----------------------------------------------------------------------------------------
def resolve_event(s: "FuuteiState", p: int, card: int) -> None:
    """FTR-DRAW-02: an event drawn is revealed and obeyed at once."""
    eff = s.cat[card].effect
    if eff.do == "discard_center_regions":
        for r in list(s.center):
            s.move_region(r, None)
            s.say("discarded", card=r, why="event")
    elif eff.do == "random_discard":
        for q in polling_order(p, s.n):
            for _ in range(int(eff.get("n", 1))):
                hand = s.hands[q]
                if hand:
                    c = hand.pop(s.pick(len(hand), "random_discard", player=q))
                    s.discard.append(c)
                    s.say("discard", player=q, card=c)


def expire_temporaries(s: "FuuteiState", p: int) -> None:
    """Temporary characters of `p` leave at the start of p's next turn: a character card from
    the hand returns to it, a card that is itself a temporary character is discarded."""
    for c in [c for c in s.temp if c in s.party[p]]:
        back = s.cat[c].type == "character"
        s.remove_character(c, to_discard=not back)
        if back:
            s.hands[p].append(c)
        s.say("temporary_leaves", player=p, card=c, dest="hand" if back else "discard")
