"""The effect vocabulary of 風帝伝説FIGHTER cards, and the たわけ！ response window.

Card data names an effect (``effect = {do = "draw", n = 2}``); `VERBS` holds one entry per
verb: the card types that carry it, its parameters, targets, dice and what it does. Hold cards (FTR-MAIN-11) and battle support cards (FTR-COMBAT-06) pass through a
response window in which other players may negate them with 「たわけ！」 (FTR-TAWAKE).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.dice import Dice
from ...core.effects import Verb, Verbs
from ...core.response import Window, polling_order
from ...core.targets import Target
from .constants import PARTY_MAX, STATS

if TYPE_CHECKING:
    from .cards import Effect
    from .state import FuuteiState

Targets = tuple[int, ...]


def effect_of(s: "FuuteiState", card: int) -> Effect:
    """The effect printed on `card` (hold, battle support, たわけ！ and event cards have one)."""
    return s.cat.effect(card)


def hold_targets(s: "FuuteiState", p: int, card: int) -> list[Targets]:
    """Every legal choice of targets for hold card `card` of player `p` ([] = unusable)."""
    targets = VERBS[effect_of(s, card).do].targets
    assert targets is not None, f"hold effect of card {card} has no targeting rule"
    return targets(s, p, card)


def _others(s: "FuuteiState", p: int) -> list[int]:
    return [ch for q in range(s.n) if q != p for ch in s.party[q]]


def use_hold(s: "FuuteiState", p: int, card: int, targets: Targets) -> None:
    """FTR-MAIN-11: use a hold card. Dice are rolled once the target is chosen, then the
    たわけ！ window opens (FTR-TAWAKE-02/03)."""
    s.hands[p].remove(card)
    s.stack.append(card)
    s.say("hold", player=p, card=card, targets=list(targets))
    data: dict[str, Any] = {"for": "hold", "card": card, "user": p, "targets": list(targets)}
    eff = effect_of(s, card)
    verb = VERBS[eff.do]
    dice = verb.dice(eff) if verb.dice is not None else None
    if dice:
        data["roll"] = s.roll(Dice.parse(dice), eff.do, p, card=card)[0]
    if not open_window(s, data):
        finish_card(s, data, negated=False)


def support_data(s: "FuuteiState", side: int, card: int) -> dict[str, Any]:
    """A revealed battle support card about to take effect; a dice card rolls first."""
    assert s.battle is not None
    user = s.battle.players[side]
    data: dict[str, Any] = {"for": "support", "card": card, "user": user, "side": side}
    eff = effect_of(s, card)
    dice = VERBS[eff.do].dice
    roll = dice(eff) if dice is not None else None
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
        eff = effect_of(s, card)
        resolve = VERBS[eff.do].resolve
        assert resolve is not None
        resolve(s, data, eff)
        stays = True   # in the battle area until the battle ends (FTR-COMBAT-07)
        s.stack.append(card)
    if not stays:
        s.discard.append(card)   # FTR-PERSIST-01: single-use


# ----- hold effects -------------------------------------------------------------------------------
def apply_hold(s: "FuuteiState", data: dict[str, Any]) -> bool:
    """Carry out a hold card; True if the card itself stays in play. A card whose target is
    no longer there does nothing, and the log says so (``no_effect``)."""
    eff = effect_of(s, data["card"])
    verb = VERBS[eff.do]
    assert verb.resolve is not None
    done = verb.resolve(s, data, eff)
    if verb.stays:
        return True
    if not done:
        s.say("no_effect", player=data["user"], card=data["card"])
    return False


def _target(use: dict[str, Any]) -> int | None:
    return use["targets"][0] if use["targets"] else None


# One registry entry per verb: the card types that carry it, the parameters card data may give
# it (cards.py refuses any other), its targets, its dice and what it does.
VERBS = Verbs()


@VERBS.verb("draw", types={"hold"}, params={"n"}, targets=lambda s, p, card: [()], aim="own", worth=5)
def _draw(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    s.draw(use["user"], int(eff.get("n", 1)))           # an empty pile is logged by `draw`
    return True


@VERBS.verb("temporary_character", types={"hold"}, targets=lambda s, p, card: [()], stays=True, aim="own", worth=5)
def _temporary_character(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    # FTR-TEMP-01: joins as a temporary character, outside the party-size count.
    s.enter_party(use["user"], use["card"], temporary=True)
    s.say("temporary_joins", player=use["user"], card=use["card"])
    return True


def _characters_in_hand(s: "FuuteiState", p: int, card: int) -> list[Targets]:
    return [(h,) for h in s.hands[p] if s.cat[h].type == "character"]


@VERBS.verb("temporary_from_hand", types={"hold"}, targets=_characters_in_hand, target=(Target.card("hand"),),
            aim="own", worth=3)
def _temporary_from_hand(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    p, t = use["user"], _target(use)
    if t not in s.hands[p]:
        return False
    assert t is not None
    s.hands[p].remove(t)
    s.enter_party(p, t, temporary=True)
    s.say("temporary_joins", player=p, card=t)
    return True


def _proposal_targets(s: "FuuteiState", p: int, card: int) -> list[Targets]:
    # FTR-KYUKON-01: no condition on the user's own characters; only room is needed.
    if s.party_size(p) >= PARTY_MAX:
        return []
    return [(ch,) for ch in _others(s, p) if ch not in s.temp]


@VERBS.verb("proposal", types={"hold"}, params={"need", "opposite_sex_bonus"}, targets=_proposal_targets,
            dice=lambda eff: "1D", target=(Target.card("party"),), aim="foe", worth=6)
def _proposal(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    # FTR-KYUKON-01: usable with no character, or only same-sex ones, in your area; an
    # opposite-sex character of yours makes the proposal easier.
    p, t = use["user"], _target(use)
    if t is None or s.owner_of(t) in (-1, p) or s.party_size(p) >= PARTY_MAX:
        return False
    need = proposal_need(s, eff, p, t)
    ok = use["roll"] >= need
    if ok:
        s.move_character(t, p)
    s.say("proposal", player=p, card=t, roll=use["roll"], need=need, success=ok)
    return True


@VERBS.verb("seal_invasion", types={"hold"},
            targets=lambda s, p, card: [(ch,) for party in s.party for ch in party if ch not in s.sealed],
            target=(Target.card("party"),), aim="foe", worth=4)
def _seal_invasion(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    # FTR-ERION-01: lasts until the end of the turn of the player who has that character.
    t = _target(use)
    if t is None or s.owner_of(t) < 0 or t in s.sealed:
        return False
    s.sealed.append(t)
    s.say("sealed", card=t, player=s.owner_of(t))
    return True


@VERBS.verb("destroy_equipment", types={"hold"}, targets=lambda s, p, card: [(e,) for e in s.host],
            target=(Target.card("equipment"),), aim="foe", worth=4)
def _destroy_equipment(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    t = _target(use)
    if t is None or t not in s.host:
        return False
    del s.host[t]
    s.discard.append(t)
    s.say("discarded", card=t, why="destroy_equipment")
    return True


@VERBS.verb("claim_center_region", types={"hold"}, targets=lambda s, p, card: [(r,) for r in s.center],
            target=(Target.card("region"),), aim="own", worth=20)
def _claim_center_region(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    t = _target(use)
    if t is None or t not in s.center:
        return False
    s.move_region(t, use["user"])
    s.say("gain_region", player=use["user"], region=t, from_player=-1)
    return True


def _destroyable_regions(s: "FuuteiState", p: int, card: int) -> list[Targets]:
    owned = [r for q in range(s.n) for r in s.regions[q] if r not in s.guard]
    return [(r,) for r in s.center + owned]


@VERBS.verb("destroy_region", types={"hold"}, targets=_destroyable_regions, target=(Target.card("region"),),
            aim="foe", worth=3)
def _destroy_region(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    t = _target(use)
    if t is None or not (t in s.center or (s.region_owner(t) >= 0 and t not in s.guard)):
        return False
    s.move_region(t, None)
    s.say("discarded", card=t, why="destroy_region")
    return True


@VERBS.verb("assassinate", types={"hold"}, params={"dice", "against"}, required={"dice"},
            targets=lambda s, p, card: [(ch,) for ch in _others(s, p)], dice=lambda eff: eff.get("dice"),
            target=(Target.card("party"),), aim="foe", worth=6)
def _assassinate(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    p, t = use["user"], _target(use)
    if t is None or s.owner_of(t) < 0:
        return False
    # 刺客: the roll against the defence the card names (``against``: physical defence on the
    # stand-in card), with equipment (FTR-CARD-04); a defence with dice is rolled now, as in
    # an attack (FTR-ATTACK-02 reading (1)).
    from .battle import STAT_INDEX, stat_dice
    against = eff.get("against", "phys_def")
    guard = stat_dice(s, t, STAT_INDEX[against])
    defence = s.roll(guard, "defence", s.owner_of(t), card=t)[0] if guard.n else guard.bonus
    ok = use["roll"] >= defence
    s.say("assassination", player=p, card=t, roll=use["roll"], against=against, defence=defence, success=ok)
    if ok:
        s.remove_character(t)
    return True


def proposal_need(s: "FuuteiState", eff: Any, p: int, target: int) -> int:
    """The roll 求婚 needs: ``need``, less ``opposite_sex_bonus`` when `p`'s party has a
    character of the other sex than `target` (FTR-KYUKON-01; the bonus is designed)."""
    sex = s.cat[target].spec.sex
    partner = any(s.cat[c].spec.sex not in (None, sex) for c in s.party[p])
    return int(eff.get("need", 5)) - (int(eff.get("opposite_sex_bonus", 0)) if partner else 0)


# ----- battle support effects -------------------------------------------------------------------
@VERBS.verb("modify", types={"battle_support"}, params={"target", "roll", "roll_to", *STATS, "initiative"},
            dice=lambda eff: eff.get("roll"))
def _modify(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    """Stat changes for the rest of this battle (FTR-COMBAT-07), stacking (FTR-STACK-01). The
    event lists every change made: [side, stat, amount]; none at all is said too (a card
    whose changes are all zero)."""
    from .battle import ROLLED_ATK, STAT_INDEX
    assert s.battle is not None
    side = use["side"]
    target = 1 - side if eff.get("target", "self") == "opponent" else side
    mods = s.battle.mods
    changes: list[list[Any]] = []
    for stat, i in STAT_INDEX.items():
        amount = int(eff.get(stat, 0))
        if amount:
            mods[target][i] += amount
            changes.append([target, stat, amount])
    if "roll" in use:
        to = eff.get("roll_to", "attack")
        mods[side][ROLLED_ATK if to == "attack" else STAT_INDEX[to]] += use["roll"]
        changes.append([side, to, use["roll"]])
        if to == "attack":
            # FTR-ATTACK-03: dice added by a modifier count among "all dice" of an attack.
            s.battle.extra_dice[side].extend(use.get("faces", []))
    s.say("support_effect", player=use["user"], card=use["card"], changes=changes)
    return True


# たわけ！ negates the card its window answers (FTR-TAWAKE-04): `respond` carries it out.
VERBS.add(Verb("negate", frozenset({"tawake"})))


# ----- events ----------------------------------------------------------------------------------------
def resolve_event(s: "FuuteiState", p: int, card: int) -> None:
    """FTR-DRAW-02: an event drawn is revealed and obeyed at once."""
    eff = effect_of(s, card)
    resolve = VERBS[eff.do].resolve
    assert resolve is not None
    resolve(s, {"card": card, "user": p}, eff)


@VERBS.verb("discard_center_regions", types={"event"})
def _discard_center_regions(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    for r in list(s.center):
        s.move_region(r, None)
        s.say("discarded", card=r, why="event")
    return True


@VERBS.verb("random_discard", types={"event"}, params={"n"})
def _random_discard(s: "FuuteiState", use: dict[str, Any], eff: Effect) -> bool:
    for q in polling_order(use["user"], s.n):
        for _ in range(int(eff.get("n", 1))):
            hand = s.hands[q]
            if hand:
                c = hand.pop(s.pick(len(hand), "random_discard", player=q))
                s.discard.append(c)
                s.say("discard", player=q, card=c)
    return True


def expire_temporaries(s: "FuuteiState", p: int) -> None:
    """Temporary characters of `p` leave at the start of p's next turn: a character card from
    the hand returns to it, a card that is itself a temporary character is discarded."""
    for c in [c for c in s.temp if c in s.party[p]]:
        back = s.cat[c].type == "character"
        s.remove_character(c, to_discard=not back)
        if back:
            s.hands[p].append(c)
        s.say("temporary_leaves", player=p, card=c, dest="hand" if back else "discard")
