"""Battles of 風帝伝説FIGHTER: declaration, battle support, initiative, attacks, persuasion,
and reassignment of what was gained (FTR-BATTLE, FTR-COMBAT, FTR-ATTACK).

The battle in progress is a `Battle` frame on the state (`state.battle`); sides are indexed
0 = invader, 1 = defender. `mods[side]` holds the battle-long modifiers of that side's
character: physical attack, physical defence, magic attack, magic defence, initiative and a
rolled bonus to both attacks (FTR-COMBAT-07: they last until the end of the battle).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.action import Action
from ...core.dice import Dice
from ...core.fields import Frame
from ...core.simultaneous import Commits, commit_face_down
from . import effects
from .constants import ATTACK, GUARD_CHANGES_MAX, PARTY_MAX, PERSUADE, REASSIGN, SUPPORT

if TYPE_CHECKING:
    from .state import FuuteiState

PHYS_ATK, PHYS_DEF, MAG_ATK, MAG_DEF, INITIATIVE, ROLLED_ATK = range(6)
STAT_INDEX = {"phys_atk": 0, "phys_def": 1, "mag_atk": 2, "mag_def": 3, "initiative": 4}
ATTACKS = {"phys": (PHYS_ATK, PHYS_DEF), "mag": (MAG_ATK, MAG_DEF)}


class Gain(Frame):
    """What one player gained in a battle, to reassign defenders to (FTR-MAIN-05/06)."""
    player: int
    cards: list[int]

    def to_json(self) -> list[int | list[int]]:  # type: ignore[override]
        """Saved and shown as ``[player, cards]`` (the view's documented shape)."""
        return [self.player, list(self.cards)]

    @classmethod
    def from_json(cls, data: list[Any]) -> "Gain":  # type: ignore[override]
        return cls(player=data[0], cards=list(data[1]))


class Battle(Frame):
    """A battle in progress: sides 0 = invader, 1 = defender."""
    players: list[int]                      # [invader, owner of the target]
    chars: list[int]                        # [invading character, defender] (-1: undefended)
    regions: list[int]                      # the target regions (FTR-COMBAT-02)
    mods: list[list[int]] = [[0] * 6, [0] * 6]  # per side: PHYS_ATK … ROLLED_ATK (FTR-COMBAT-07)
    queue: list[list[int]] = []             # revealed support cards to resolve: [side, card]
    order: list[int] = [0, 1]               # sides in strike order (FTR-ATTACK-01)
    strike: int = 0                         # whose strike: an index into `order`
    actor: int                              # the player deciding now
    defeated: int = -1                      # the side defeated, if any
    persuade: int = -1                      # the defeated character that may be persuaded
    gains: list[Gain] = []                  # reassignments still to make, in order
    gained: list[int] = []                  # what the current reassignment may guard
    extra_dice: list[list[int]] = [[], []]  # per side, faces a support card added to its attacks (FTR-ATTACK-03)


# ----- declaration (FTR-BATTLE-01/02, FTR-COMBAT-01..03) -------------------------------------
def invasions(s: "FuuteiState") -> list[Action]:
    p = s.turn_player
    if s.turns_taken[p] <= 1:                       # FTR-BATTLE-02: not in your own first turn
        return []
    guarding = set(s.guard.values())
    # FTR-BATTLE-01 / FTR-GOAL-03: one character that defends no region; sealed ones cannot.
    chars = [c for c in s.party[p] if c not in guarding and c not in s.sealed]
    if not chars:
        return []
    targets = [r for q in range(s.n) if q != p for r in s.regions[q]]
    if s.game.options.center_regions == "invadable":   # FTR-DRAW-03 reading (a)
        targets += s.center
    table, out = s.game.card_pair_actions["invade"], []
    for c in chars:
        row = table.row(p, c)
        out.extend([row[r] for r in targets])
    return out


def declare(s: "FuuteiState", char: int, region: int) -> None:
    p = s.turn_player
    owner = s.region_owner(region)
    defender = s.guard.get(region)
    s.say("invade", player=p, card=char, region=region, owner=owner)
    if defender is None:
        # FTR-COMBAT-03 / FTR-MAIN-09: an undefended region is taken automatically.
        take_regions(s, p, [region])
        s.battle = Battle(players=[p, owner], chars=[char, -1], regions=[region], actor=p,
                          gains=[Gain(player=p, cards=[region])])
        start_reassign(s)
        return
    # FTR-COMBAT-02: the invasion targets every region that defender guards.
    regions = s.defended_by(defender)
    s.battle = Battle(players=[p, owner], chars=[char, defender], regions=list(regions), actor=p)
    # FTR-COMBAT-04, FTR-COMBAT-05: [3] the invader may put one battle support card face
    # down, then [4] the defender may. Two hidden commits in that order: the defender sees
    # *whether* a card lies on the invader's side (a count), never which. Both always commit
    # ("nosupport" when they play none), so the decision names the same players whatever
    # anyone holds.
    s.phase = SUPPORT
    s.commits = Commits([p, owner], ordered=True)


def take_regions(s: "FuuteiState", to: int, regions: list[int]) -> None:
    """FTR-ATTACK-05: the invader gains the target regions (undefended on arrival)."""
    for r in regions:
        s.guard.pop(r, None)
        q = s.move_region(r, to)
        s.say("gain_region", player=to, region=r, from_player=q)


# ----- decisions inside a battle: one pair (legal actions, effect) per phase ------------------
def support_actions(s: "FuuteiState", player: int) -> list[Action]:
    """FTR-COMBAT-04/05: a battle support card from the hand, face down, or none."""
    row, types = s.game.card_actions["support"].row(player, 0), s.cat.types
    out = [row[c] for c in s.hands[player] if types[c] == "battle_support"]
    out.append(s.game.bare_actions["nosupport"][player])
    return out


def apply_support(s: "FuuteiState", a: Action) -> None:
    assert s.commits is not None
    placed = a.verb == "support"
    # public: the face-down card (or its absence) lies on the table for all to see
    if commit_face_down(s, s.commits, a, a.args if placed else (), s.hands[a.player], s.supports[a.player],
                        "support_committed", placed=placed, side=in_battle(s).players.index(a.player)):
        reveal(s)


def attack_actions(s: "FuuteiState", player: int) -> list[Action]:
    """FTR-ATTACK-01: a physical or a magic attack."""
    return [Action(player, "attack", ("phys",)), Action(player, "attack", ("mag",))]


def apply_attack(s: "FuuteiState", a: Action) -> None:
    attack(s, a.args[0])


def persuade_actions(s: "FuuteiState", player: int) -> list[Action]:
    """FTR-ATTACK-06: the victor "may" persuade the defeated character."""
    bare = s.game.bare_actions
    return [bare["persuade"][player], bare["decline"][player]]


def apply_persuade(s: "FuuteiState", a: Action) -> None:
    b = in_battle(s)
    char, striker = b.persuade, b.actor
    if a.verb == "persuade":
        # FTR-ATTACK-07: a persuaded character is not discarded; it joins the persuader.
        s.move_character(char, striker)
        b.gains.append(Gain(player=striker, cards=[char]))
        s.say("persuaded", player=striker, card=char)
    else:
        defeat(s, char)
    conclude(s)


def reassign_actions(s: "FuuteiState", player: int) -> list[Action]:
    """FTR-COMBAT-12; [designed] GUARD_CHANGES_MAX guard actions per reassignment, then only
    "done"."""
    b = in_battle(s)
    out = _reassign_actions(s, player, b.gained) if s.guard_changes < GUARD_CHANGES_MAX else []
    out.append(s.game.bare_actions["done"][player])
    return out


def apply_reassign(s: "FuuteiState", a: Action) -> None:
    if a.verb == "done":
        in_battle(s).gains.pop(0)
        start_reassign(s)
    else:
        r, ch = a.args
        s.guard[r] = ch
        s.guard_changes += 1
        s.say("guard", player=a.player, region=r, card=ch)


def in_battle(s: "FuuteiState") -> Battle:
    """The battle in progress (the battle phases have one)."""
    b = s.battle
    assert b is not None, "no battle in progress"
    return b


def reveal(s: "FuuteiState") -> None:
    """FTR-COMBAT-06: both battle support cards are turned up and take effect together."""
    b = in_battle(s)
    for side, p in enumerate(b.players):
        for c in s.supports[p]:
            s.stack.append(c)
            b.queue.append([side, c])
            s.say("support_revealed", player=p, card=c)
        s.supports[p].clear()
    s.commits = None
    next_support(s)


def next_support(s: "FuuteiState") -> None:
    """Resolve revealed support cards one by one; each may be answered by たわけ！."""
    b = in_battle(s)
    while b.queue:
        side, card = b.queue.pop(0)
        data = effects.support_data(s, side, card)
        if effects.open_window(s, data):
            return
        effects.finish_card(s, data, negated=False)
    initiative(s)


def initiative(s: "FuuteiState") -> None:
    """FTR-COMBAT-08/09: both roll 1 die; higher strikes first, the invader on a tie."""
    b = in_battle(s)
    rolls = []
    for side in (0, 1):
        total, _ = s.roll(Dice(1, b.mods[side][INITIATIVE]), "initiative", b.players[side])
        rolls.append(total)
    first = 0 if rolls[0] >= rolls[1] else 1
    b.order = [first, 1 - first]
    b.strike = 0
    b.actor = b.players[first]
    s.say("initiative", first=b.players[first], rolls=rolls)
    s.phase = ATTACK


def stat_dice(s: "FuuteiState", char: int, index: int, mods: list[int] | None = None) -> Dice:
    """A character's stat with its equipment (FTR-CARD-04) and battle modifiers, stacked
    (FTR-STACK-01/02)."""
    card = s.cat[char]
    assert card.stats is not None, f"card {char} is not a character"
    base = card.stats[index]
    bonus = sum(s.cat[e].bonus[index] for e in s.gear_of(char))
    if mods is not None:
        bonus += mods[index]
        if index in (PHYS_ATK, MAG_ATK):
            bonus += mods[ROLLED_ATK]
    return Dice(base.n, base.bonus + bonus)


def attack(s: "FuuteiState", kind: str) -> None:
    """FTR-COMBAT-10/11, FTR-ATTACK-01..04."""
    b = in_battle(s)
    side = b.order[b.strike]
    other = 1 - side
    atk_i, def_i = ATTACKS[kind]
    striker, target = b.chars[side], b.chars[other]
    total, faces = s.roll(stat_dice(s, striker, atk_i, b.mods[side]), f"{kind}_attack",
                          b.players[side], card=striker)
    guard = stat_dice(s, target, def_i, b.mods[other])
    defence = s.roll(guard, "defence", b.players[other], card=target)[0] if guard.n else guard.bonus
    # FTR-ATTACK-03: dice added by modifiers (a rolled attack bonus) count among "all dice".
    all_faces = list(faces) + b.extra_dice[side]
    critical = bool(all_faces) and all(f == 6 for f in all_faces)
    defeated = critical or total >= defence                     # FTR-ATTACK-02
    s.say("attack", player=b.players[side], card=striker, target=target, attack=kind,
          total=total, defence=defence, critical=critical, defeated=defeated)
    if defeated:
        b.defeated = other
        p = b.players[side]
        # FTR-ATTACK-06/08: exact value or critical, and room in the party (temporary ones
        # cannot be persuaded: they are not character cards of a party).
        if (critical or total == defence) and target not in s.temp and s.party_size(p) < PARTY_MAX:
            b.persuade = target
            b.actor = p
            s.phase = PERSUADE
            return
        defeat(s, target)
        conclude(s)
        return
    b.strike += 1
    if b.strike >= 2:          # neither side was defeated: nothing changes hands
        conclude(s)
    else:
        b.actor = b.players[b.order[1]]


def defeat(s: "FuuteiState", char: int) -> None:
    """FTR-ATTACK-04: a defeated character is discarded (with its equipment)."""
    s.say("defeated", card=char, player=s.owner_of(char))
    s.remove_character(char)


def conclude(s: "FuuteiState") -> None:
    """End of the strikes: hand over the regions, discard battle support (FTR-PERSIST-01)."""
    b = in_battle(s)
    if b.defeated == 1:
        # FTR-ATTACK-05 / FTR-MAIN-07: every region the defeated defender guarded is taken.
        take_regions(s, b.players[0], b.regions)
        for g in b.gains:
            if g.player == b.players[0]:
                g.cards.extend(b.regions)
                break
        else:
            b.gains.insert(0, Gain(player=b.players[0], cards=list(b.regions)))
    for c in list(s.stack):     # FTR-COMBAT-07: support effects end with the battle
        s.stack.remove(c)
        s.discard.append(c)
    b.mods = [[0] * 6, [0] * 6]
    s.say("battle_over", defeated=b.defeated)
    start_reassign(s)


def _reassign_actions(s: "FuuteiState", p: int, gained: list[int]) -> list[Action]:
    """FTR-COMBAT-12: reassign only for the cards gained in this battle."""
    out = []
    regions = [c for c in gained if c in s.regions[p]]
    chars = [c for c in gained if c in s.party[p]]
    guards = s.game.card_pair_actions["guard"]
    for r in s.regions[p]:
        row = guards.row(p, r)
        for ch in s.party[p]:
            if (r in regions or ch in chars) and s.guard.get(r) != ch:
                out.append(row[ch])
    return out


def start_reassign(s: "FuuteiState") -> None:
    b = in_battle(s)
    while b.gains:
        gain = b.gains[0]
        p = gain.player
        if _reassign_actions(s, p, gain.cards):
            b.gained = list(gain.cards)
            b.actor = p
            s.phase = REASSIGN
            s.guard_changes = 0
            return
        b.gains.pop(0)
    s.battle = None
    s.to_hand_phase()
