"""Combat in いばらの姫と4人の騎士: single-card combat of the base game (designed from public
facts) and the optional multi-card combat of the addendum (IBR-COMBAT-MULTI, -RYAN, -RING,
-MIX).

A play is a list of action cards. Its value is (suit, strength); a single 盾 shield played by
the defender forces a tie unless the attacking play is worth 13 or more — which only a
multi-card same-suit play (or ゲイブリッツ's bonus) can reach (IBR-COMBAT-MULTI-06).
"""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from ...core.action import Action
from ...core.decision import Decision, DecisionKind
from ...core.fields import Frame
from ...core.simultaneous import Commits, commit_face_down
from .content import BEATS, SHIELD
from .phases import ACT, COMBAT_CHOOSE, COMBAT_DECLARE, COMBAT_DROP, COMBAT_PLAY, COMBAT_RING

if TYPE_CHECKING:
    from .state import IbaraState

SP_STRENGTH = 15          # IBR-COMBAT-RYAN-01
SHIELD_BREAK = 13         # [designed] a play worth this much breaks a shield's tie
GAIBLITZ_BONUS = 2        # [designed] ゲイブリッツ's base ability
ATTACKER, DEFENDER = 0, 1


class Combat(Frame):
    """The combat in progress (`IbaraState.combat`); two-entry lists are [attacker, defender].
    Its JSON (and the view's ``combat``) has these fields as keys (schema.CombatView)."""
    players: list[int]                      # [attacker, defender]
    came_from: int                          # the attacker's square before the move (a tie sends it back)
    size: list[int] = [1, 1]                # cards each side plays (IBR-COMBAT-MULTI-03); 0: no card
    plays: list[list[int]] = [[], []]       # each side's revealed play
    chosen: list[str] = ["", ""]            # the suit chosen for a same-number play (IBR-COMBAT-MULTI-07)
    ring: list[bool] = [False, False]       # whether each side used 悪運の指輪 (IBR-COMBAT-RING-01)
    ring_turn: int = 0                      # the side asked about the ring; 2 once both were
    declared: int = 0                       # sides that have declared their count
    choosing: int = -1                      # the side choosing a suit, -1 for none
    drops: int = 0                          # rounds of hidden drops so far (IBR-COMBAT-MULTI-09)


# ----- plays ------------------------------------------------------------------------------------
def groups(s: "IbaraState", play: list[int], ryan_sp: bool) -> dict[str, int] | None:
    """Suit -> strength for a legal play, or None if the play breaks the patterns
    (IBR-COMBAT-MULTI-04/05, IBR-COMBAT-MIX-01, IBR-COMBAT-RYAN-01/02)."""
    every = s.content.cards
    if len(play) == 1:                                 # one card: its suit and number
        card = every[play[0]]
        if card.sp is not None:
            return None
        assert card.suit is not None                   # every card but an SP card has a suit
        return {card.suit: card.number}
    cards = [every[c] for c in play]
    normal = [c for c in cards if c.sp is None]
    sps = [c for c in cards if c.sp is not None]
    if not normal:
        return None                                    # an SP card needs a normal card's suit
    if any(c.suit == SHIELD for c in normal):
        return None                                    # shields fight alone [designed]
    suits = {c.suit for c in normal}
    if len(suits) == 1:                                # same suit: the sum (MULTI-05)
        if sps and not ryan_sp:
            return None
        suit = normal[0].suit
        assert suit is not None
        return {suit: sum(c.number for c in normal) + SP_STRENGTH * len(sps)}
    if sps or len({c.number for c in normal}) != 1:
        return None                                    # same number only, no SP (RYAN-02)
    out: dict[str, int] = {}
    for c in normal:                                   # same number, suits grouped (MIX-01)
        suit = c.suit
        assert suit is not None
        out[suit] = out.get(suit, 0) + c.number
    return out


#: Multi-card plays a game keeps cached (a few hundred bytes each): the answer depends only
#: on the cards, so every state of one game shares it; the bound keeps its memory fixed.
PLAYS_CACHED = 1 << 12


def legal_plays(s: "IbaraState", p: int, size: int, defender: bool, ryan_sp: bool) -> tuple[tuple[int, ...], ...]:
    """Every distinct legal play of `size` cards from p's hand. Plays of several cards are
    cached on the game (`IbaraGame.plays_cache`), up to `PLAYS_CACHED` of them."""
    if size == 1:                                      # hands rarely repeat: not cached
        return tuple(_plays(s, tuple(sorted(s.hands[p])), 1, defender, ryan_sp))
    key = (tuple(sorted(s.hands[p])), size, defender, ryan_sp)
    cache = s.game.plays_cache
    found = cache.get(key)
    if found is None:
        if len(cache) >= PLAYS_CACHED:
            cache.clear()
        found = cache[key] = tuple(_plays(s, key[0], size, defender, ryan_sp))
    return found


def _plays(s: "IbaraState", held: tuple[int, ...], size: int, defender: bool, ryan_sp: bool) -> list[tuple[int, ...]]:
    cards = s.content.cards
    hand = [c for c in held if cards[c].number or cards[c].sp is not None]
    out = []
    seen = set()
    for combo in combinations(hand, size):
        key = tuple(sorted([(cards[c].suit or "SP", cards[c].number, cards[c].sp or "") for c in combo]))
        if key in seen:
            continue                                   # identical cards: one action is enough
        g = groups(s, list(combo), ryan_sp)
        if g is None:
            continue
        if SHIELD in g and not defender:
            continue                                   # only the defender may play a shield
        seen.add(key)
        out.append(combo)
    return out


def can_fight(s: "IbaraState", p: int, defender: bool) -> bool:
    """Whether p has any legal play. Every multi-card play holds a suited card that could be
    played alone (shields fight alone, SP cards need a suited card), so one card decides."""
    return bool(legal_plays(s, p, 1, defender, False))


def sizes(s: "IbaraState", p: int, defender: bool, ryan_sp: bool) -> list[int]:
    if not can_fight(s, p, defender):
        return []
    cards = s.content.cards
    hand = [c for c in s.hands[p] if cards[c].number or cards[c].sp is not None]
    return [k for k in range(1, len(hand) + 1) if legal_plays(s, p, k, defender, ryan_sp)]


def compare(a: tuple[str, int], d: tuple[str, int]) -> int:
    """1: the attacker wins, -1: the defender wins, 0: a tie."""
    (sa, va), (sd, vd) = a, d
    if sd == SHIELD:
        return 1 if va >= SHIELD_BREAK else 0          # the shield forces a tie (アイコ)
    if sa == sd:
        return (va > vd) - (va < vd)
    return 1 if BEATS[sa] == sd else -1


# ----- the procedure ------------------------------------------------------------------------------
# Who is asked, and when, follows public facts only (hand sizes, the ring chips, the declared
# counts, the revealed plays), never the cards someone holds: a side with no card that can
# fight still commits, face down, a card that cannot fight ("nofight"), revealed as no card.
# Each step of a combat is a phase of `IbaraState.PHASES`: who decides (``*_decision``), what
# they may do (``*_actions``) and what it does (the apply function after it).
def start(s: "IbaraState", attacker: int, defender: int, came_from: int) -> None:
    """Entering another knight's square starts a combat [public]."""
    # the constructor is generated from the fields on first use: mypy sees only object's
    s.combat = Combat(players=[attacker, defender], came_from=came_from)
    s.say("combat", player=attacker, defender=defender)
    if s.game.rules.multi_card_combat:
        s.phase = COMBAT_DECLARE                       # IBR-COMBAT-MULTI-03: attacker first
    else:
        _open_commit(s)


# ----- COMBAT_DECLARE: IBR-COMBAT-MULTI-03 ---------------------------------------------------------
def declare_decision(s: "IbaraState") -> Decision:
    b = s.combat
    assert b is not None
    return s.game.turn_decisions[COMBAT_DECLARE][b.players[b.declared]]


def declare_options(s: "IbaraState") -> list[int]:
    """The counts the declaring player may announce: the sizes of their legal plays; with no
    card that can fight, 1 (a face-down card that cannot fight) — 0 only with an empty hand,
    which everyone sees."""
    b = s.combat
    assert b is not None
    i = b.declared
    p = b.players[i]
    options = sizes(s, p, i == DEFENDER, s.ryan_sp(p))
    if not options:
        options = [1] if s.hands[p] else [0]
    return options


def declare_actions(s: "IbaraState", p: int) -> list[Action]:
    return [Action(p, "declare", (k,)) for k in declare_options(s)]


def declare(s: "IbaraState", a: Action) -> None:
    """IBR-COMBAT-MULTI-03: the attacker declares the count, then the defender, in the open."""
    b = s.combat
    assert b is not None
    b.size[b.declared] = a.args[0]
    s.say("declare", player=a.player, cards=a.args[0])
    b.declared += 1
    if b.declared == 2:
        _open_commit(s)


def _open_commit(s: "IbaraState") -> None:
    """Both sides commit at once, except one who declared no card (an empty hand)."""
    b = s.combat
    assert b is not None
    waiting = [p for i, p in enumerate(b.players) if b.size[i] > 0 and s.hands[p]]
    for i, p in enumerate(b.players):
        if p not in waiting:
            b.size[i] = 0
            b.plays[i] = []
    if not waiting:
        return resolve(s)
    s.commits = Commits(waiting)
    s.phase = COMBAT_PLAY


# ----- COMBAT_PLAY: both sides commit face down at once --------------------------------------------
def play_decision(s: "IbaraState") -> Decision:
    assert s.commits is not None
    return Decision(DecisionKind.SIMULTANEOUS, s.commits.waiting(), COMBAT_PLAY)


def play_actions(s: "IbaraState", p: int) -> list[Action]:
    """The plays of the declared size; with no card that can fight, one "nofight" action
    laying a card face down that counts as no card [designed]: the hand's first card by what
    it is (shields before SP cards, then number, SP effect and name), not by id, so a content
    file's order does not choose it."""
    b = s.combat
    assert b is not None
    i = b.players.index(p)
    plays = legal_plays(s, p, b.size[i], i == DEFENDER, s.ryan_sp(p))
    if not plays:
        if not legal_plays(s, p, 1, i == DEFENDER, False):
            cards = s.content.cards
            laid = min(s.hands[p], key=lambda c: (cards[c].sp is not None, cards[c].suit or "", cards[c].number,
                                                  cards[c].sp or "", cards[c].name, c))
            return [Action(p, "nofight", (laid,))]
        return []
    if b.size[i] == 1:                                 # one-card plays: actions built once
        singles = s.game.card_actions["fight"].row(p, 0)
        return [singles[combo[0]] for combo in plays]
    return [Action(p, "fight", combo) for combo in plays]


def commit(s: "IbaraState", a: Action) -> None:
    """A hidden commit: the cards leave the hand face down (SIMULTANEOUS decision); everyone
    learns only that the player committed the declared count."""
    b, commits = s.combat, s.commits
    assert b is not None and commits is not None
    p = a.player
    if commit_face_down(s, commits, a, a.args, s.hands[p], s.played[p], "committed",
                        n=b.size[b.players.index(p)]):
        for act in commits.reveal():
            j = b.players.index(act.player)
            b.plays[j] = list(act.args) if act.verb == "fight" else []
        s.commits = None
        reveal(s)


def reveal(s: "IbaraState") -> None:
    """Both plays are turned up; a "nofight" card is shown as no card and goes back to the
    hand [designed]."""
    b = s.combat
    assert b is not None
    for i, p in enumerate(b.players):
        if b.plays[i]:
            s.shown[p].extend(s.played[p])
        else:
            s.hands[p].extend(s.played[p])
        s.played[p].clear()
        s.say("reveal", player=p, cards=list(b.plays[i]))
    b.ring_turn = 0
    next_ring(s)


# ----- COMBAT_RING: IBR-COMBAT-RING-01/02 ----------------------------------------------------------
def ring_holder(s: "IbaraState", p: int) -> int | None:
    return next((it for it in s.items[p] if s.item(it).id == "akuun_no_yubiwa"), None)


def next_ring(s: "IbaraState") -> None:
    """IBR-COMBAT-RING-01: after the reveal, each holder of the ring (a public chip) is asked
    whether to play again, attacker first — in single-card combat too [designed: the chip's
    text is the base game's]. A holder with no card to play may only decline."""
    b = s.combat
    assert b is not None
    while b.ring_turn < 2:
        i = b.ring_turn
        p = b.players[i]
        if ring_holder(s, p) is not None and not b.ring[i]:
            s.phase = COMBAT_RING
            return
        b.ring_turn += 1
    choose_or_drop(s)


def ring_decision(s: "IbaraState") -> Decision:
    b = s.combat
    assert b is not None
    return s.game.turn_decisions[COMBAT_RING][b.players[b.ring_turn]]


def ring_plays(s: "IbaraState", p: int) -> list[tuple[int, ...]]:
    """IBR-COMBAT-RING-02: the second play follows the play patterns — one card, or with
    multi-card combat any legal count; the cards already played are spent (not in the hand)."""
    b = s.combat
    assert b is not None
    i = b.players.index(p)
    if not s.game.rules.multi_card_combat:
        return list(legal_plays(s, p, 1, i == DEFENDER, False))
    out: list[tuple[int, ...]] = []
    for k in sizes(s, p, i == DEFENDER, s.ryan_sp(p)):
        out.extend(legal_plays(s, p, k, i == DEFENDER, s.ryan_sp(p)))
    return out


def ring_actions(s: "IbaraState", p: int) -> list[Action]:
    return [Action(p, "ring", combo) for combo in ring_plays(s, p)] + [Action(p, "noring")]


def use_ring(s: "IbaraState", a: Action) -> None:
    """IBR-COMBAT-RING-01/02: the first cards are spent; one or several new cards."""
    b = s.combat
    assert b is not None
    i = b.players.index(a.player)
    if a.verb == "ring":
        ring = ring_holder(s, a.player)
        assert ring is not None                        # offered to a holder only
        s.items[a.player].remove(ring)
        s.item_discard.append(ring)
        for c in a.args:
            s.hands[a.player].remove(c)
            s.shown[a.player].append(c)
        b.plays[i] = list(a.args)
        b.ring[i] = True
        s.say("ring", player=a.player, cards=list(a.args))
    b.ring_turn += 1
    next_ring(s)


# ----- COMBAT_CHOOSE and COMBAT_DROP: IBR-COMBAT-MULTI-07/09/10, IBR-COMBAT-MIX-02 -------------------
def _multi_suit(s: "IbaraState", b: Combat, i: int) -> bool:
    play = b.plays[i]
    if len(play) < 2 or b.chosen[i]:
        return False                                   # a single card has one suit
    g = groups(s, play, s.ryan_sp(b.players[i]))
    return g is not None and len(g) > 1


def choose_or_drop(s: "IbaraState") -> None:
    """IBR-COMBAT-MULTI-07/09/10: both same-number plays → hidden drops; else a same-number
    player picks the suit that suits the situation, attacker first."""
    b = s.combat
    assert b is not None
    multi = [_multi_suit(s, b, 0), _multi_suit(s, b, 1)]
    if all(multi):
        if b.drops >= 24:                              # loop guard (never reached: plays shrink)
            return resolve(s)
        s.commits = Commits(list(b.players))
        s.phase = COMBAT_DROP
        return
    for i in (0, 1):
        if multi[i]:
            b.choosing = i
            s.phase = COMBAT_CHOOSE
            return
    resolve(s)


def drop_decision(s: "IbaraState") -> Decision:
    assert s.commits is not None
    return Decision(DecisionKind.SIMULTANEOUS, s.commits.waiting(), COMBAT_DROP)


def drop_actions(s: "IbaraState", p: int) -> list[Action]:
    """IBR-COMBAT-MIX-02: a player with several cards of one suit drops a whole suit."""
    b = s.combat
    assert b is not None
    play = b.plays[b.players.index(p)]
    by_suit: dict[str | None, list[int]] = {}
    for c in play:
        by_suit.setdefault(s.card(c).suit, []).append(c)
    if any(len(v) > 1 for v in by_suit.values()):
        return [Action(p, "drop_suit", (suit,)) for suit in by_suit]
    return [Action(p, "drop", (c,)) for c in play]


def drop(s: "IbaraState", a: Action) -> None:
    b, commits = s.combat, s.commits
    assert b is not None and commits is not None
    if not commit_face_down(s, commits, a):
        return
    for act in commits.reveal():
        i = b.players.index(act.player)
        play = b.plays[i]
        gone = [c for c in play if (act.verb == "drop" and c == act.args[0])
                or (act.verb == "drop_suit" and s.card(c).suit == act.args[0])]
        for c in gone:
            play.remove(c)
            s.shown[act.player].remove(c)
            s.discard.append(c)
        s.say("dropped", player=act.player, n=len(gone), remaining=list(play))
    s.commits = None
    b.drops += 1
    choose_or_drop(s)


def choose_decision(s: "IbaraState") -> Decision:
    b = s.combat
    assert b is not None
    return s.game.turn_decisions[COMBAT_CHOOSE][b.players[b.choosing]]


def choose_actions(s: "IbaraState", p: int) -> list[Action]:
    b = s.combat
    assert b is not None
    g = groups(s, b.plays[b.choosing], s.ryan_sp(p))
    assert g is not None                               # a same-number play of several suits
    return [Action(p, "choose", (suit,)) for suit in sorted(g)]


def choose(s: "IbaraState", a: Action) -> None:
    b = s.combat
    assert b is not None
    b.chosen[b.choosing] = a.args[0]
    s.say("choose", player=a.player, suit=a.args[0])
    choose_or_drop(s)


# ----- the outcome -----------------------------------------------------------------------------------
def value(s: "IbaraState", i: int) -> tuple[str, int] | None:
    b = s.combat
    assert b is not None
    p = b.players[i]
    if not b.plays[i]:
        return None
    g = groups(s, b.plays[i], s.ryan_sp(p))
    assert g is not None                               # plays are legal ones
    suit = b.chosen[i] or _strongest(g)
    strength = g[suit]
    if suit != SHIELD and s.has_ability(p, "combat") and not s.game.rules.gaiblitz_buff:
        strength += GAIBLITZ_BONUS
    return suit, strength


def _strongest(g: dict[str, int]) -> str:
    """The suit of the strongest group (the greater suit name on a tie)."""
    if len(g) == 1:
        return next(iter(g))
    return max(g, key=lambda k: (g[k], k))


def resolve(s: "IbaraState") -> None:
    va, vd = value(s, ATTACKER), value(s, DEFENDER)
    if va is None and vd is None:
        result = 0
    elif va is None:
        result = -1
    elif vd is None:
        result = 1
    else:
        result = compare(va, vd)
    s.say("combat_result", attacker=list(va or ()), defender=list(vd or ()), result=result)
    finish(s, result)


def finish(s: "IbaraState", result: int) -> None:
    """The loser is placed at random; a defeated escort loses the princess to the winner;
    on a tie the attacker goes back [designed]. Played cards are discarded."""
    b = s.combat
    assert b is not None
    attacker, defender = b.players
    for p in (attacker, defender):
        s.discard.extend(s.shown[p])
        s.shown[p].clear()
        s.hands[p].extend(s.played[p])
        s.played[p].clear()
    s.combat = None
    s.commits = None
    s.phase = ACT
    if result == 0:
        s.move_knight(attacker, b.came_from)
        s.say("tie", player=attacker)
    else:
        winner, loser = (attacker, defender) if result > 0 else (defender, attacker)
        if s.escort == loser:
            s.escort = winner
            s.princess = s.pos[winner]
            s.say("princess_taken", player=winner, from_player=loser)
        s.say("won_combat", player=winner, loser=loser)
        s.random_place_knight(loser, "combat")
        s.whim_deed(winner, "win_combat")
    s.check_win()
