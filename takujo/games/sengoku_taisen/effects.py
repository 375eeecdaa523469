"""The effect vocabulary of 戦国大戦 双 cards, costs and their payment, and targeting.

Stratagems, ougi, counter-stratagems, formations and warlord abilities all name an effect
(``effect = { do = "damage", amount = 2000 }``). `VERBS` holds one entry per verb: the card
types that carry it, its parameters, the ``target`` words card data may give it (`scopes`,
the first its default), what it may be aimed at now (`pool`), the kind of that target, whom
it is meant for (`aim`), a rough `worth`, and what it does (`resolve`). The card loader takes
its vocabulary from it (`cards.Effect`). A verb with no `resolve` is static: a rule reads it
where it applies (``aura`` in `SengokuState.auras`, ``win_if`` and ``lose_if`` in the
victory check, ``cannot_attack`` in `combat.add_attack_actions`).

An effect takes at most one chosen target. One aimed at units by its card's ``target`` word
(``ally``, ``enemy``) names a unit in play; ``self``, ``all_allies`` and ``all_enemies``
choose none.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ...core.effects import Verb, Verbs
from ...core.piles import take_top
from ...core.targets import Kind, Signature, Target

if TYPE_CHECKING:
    from .cards import Cost, Effect
    from .state import SengokuState


# ----- costs (SGT-COST-01..06, SGT-KOKU-11) --------------------------------------------------
def _ready_up(s: "SengokuState", p: int) -> list[int]:
    return [c for c in s.koku_up[p] if c not in s.exhausted]


def budget(s: "SengokuState", p: int) -> tuple[dict[str, int], int]:
    """What p can pay with now: ready face-up kokuryoku by colour, and all ready kokuryoku
    (face up and face down)."""
    inst, exhausted = s.inst, s.exhausted
    by_color: dict[str, int] = {}
    ready = len(s.koku_down[p]) - s.down_exhausted[p]
    for c in s.koku_up[p]:
        if c not in exhausted:
            col = inst[c].color
            by_color[col] = by_color.get(col, 0) + 1
            ready += 1
    return by_color, ready


def affordable(funds: tuple[dict[str, int], int], cost: Cost) -> bool:
    """Coloured parts need ready face-up kokuryoku of that colour; the generic part any."""
    by_color, left = funds
    for col, n in cost.colors:
        if by_color.get(col, 0) < n:
            return False
        left -= n
    return left >= cost.generic


def can_pay(s: "SengokuState", p: int, cost: Cost) -> bool:
    """Whether p can pay `cost` now (SGT-COST-01..06)."""
    return affordable(budget(s, p), cost)


def pay(s: "SengokuState", p: int, cost: Cost) -> None:
    """Exhaust kokuryoku for `cost` (SGT-COST-02): colours first from face-up cards of that
    colour, the generic part from face-down kokuryoku first, then the colours least needed."""
    up = _ready_up(s, p)
    for col, n in cost.colors:
        for c in [c for c in up if s.inst[c].color == col][:n]:
            s.exhausted.add(c)
            up.remove(c)
    generic = cost.generic
    down = min(generic, len(s.koku_down[p]) - s.down_exhausted[p])
    s.down_exhausted[p] += down
    generic -= down
    for c in up[:generic]:
        s.exhausted.add(c)


# ----- the registry ----------------------------------------------------------------------------
#: The kind of a unit target: a warlord in play or a summoned soldier (a token id).
UNIT = Target.card("unit")
#: Card ``target`` words that choose no unit.
NO_CHOICE = ("self", "all_allies", "all_enemies")
#: Card types whose effects are carried out once: stratagems (and their counters), okugi,
#: warlords' abilities.
ONE_SHOT = frozenset({"stratagem", "ougi", "warlord"})
#: Card types whose static effects apply while they lie in place: formations in kokuryoku,
#: permanent stratagems, warlords' {常時} abilities.
STATIC_PLACES = frozenset({"formation", "stratagem", "warlord"})
Pool = Callable[..., list[int] | None]


def _never(s: "SengokuState", p: int, eff: "Effect", source: int | None = None) -> list[int]:
    """A static effect is never aimed (nor carried out once)."""
    return []


def _untargeted(s: "SengokuState", p: int, eff: "Effect", source: int | None = None) -> None:
    """An effect that takes no target: one choice, none."""
    return None


@dataclass(frozen=True, slots=True)
class SengokuVerb(Verb):
    """A verb of this game (`Verb`), and the ``target`` words its card data may give
    (`scopes`: the first is the default) and `pool(state, player, effect, source)`: the target
    values it may be aimed at now (units, or what its `target` kind names), None when it takes
    no chosen target, [] when it has nothing to act on."""

    scopes: tuple[str, ...] = ()
    pool: Pool = _never

    @property
    def on_units(self) -> bool:
        """Its target is a unit, which may leave play before it resolves."""
        return self.target == (UNIT,)


class SengokuVerbs(Verbs):
    """The game's verbs, `SengokuVerb` entries, and the card loader's vocabulary kept in step
    with them (`vocab`: verb -> its parameters), so that a verb registered later is known to
    the loader at once, and one removed (``del VERBS[name]``) refused again."""

    if TYPE_CHECKING:
        def __getitem__(self, name: str, /) -> SengokuVerb: ...

    def __init__(self) -> None:
        super().__init__()
        self.vocab: dict[str, set[str]] = {}

    def add(self, verb: Verb) -> Verb:
        super().add(verb)
        self.vocab[verb.name] = set(verb.params)
        return verb

    def __delitem__(self, name: str, /) -> None:
        super().__delitem__(name)
        del self.vocab[name]

    def effect(self, name: str, types: Iterable[str], params: Iterable[str] = (), scopes: tuple[str, ...] = (),
               pool: Pool = _untargeted, target: Signature = (), aim: str | None = None,
               worth: float = 1.0) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
        """Register the decorated ``resolve(state, player, effect, target, why)`` of a
        one-shot verb; `pool` lists its targets of kind `target`, chosen by the ``target`` word
        among `scopes`."""
        def register(resolve: Callable[..., bool]) -> Callable[..., bool]:
            self.add(SengokuVerb(name, frozenset(types), frozenset(params), frozenset(), resolve, targets,
                                 None, False, tuple(target), aim, worth, tuple(scopes), pool))
            return resolve
        return register

    def passive(self, name: str, types: Iterable[str], params: Iterable[str] = (),
                required: Iterable[str] = ()) -> Verb:
        """Register a static verb: card data may name it; a rule reads it where it applies."""
        return self.add(SengokuVerb(name, frozenset(types), frozenset(params), frozenset(required)))


VERBS = SengokuVerbs()


# ----- targets ---------------------------------------------------------------------------------
def targets(s: "SengokuState", p: int, eff: "Effect", source: int | None = None) -> list[tuple[int, ...]]:
    """Every legal target choice for effect `eff` of player p; [] if it has nothing to act on."""
    units = VERBS[eff.do].pool(s, p, eff, source)
    return [()] if units is None else [(u,) for u in units]


def target_units(s: "SengokuState", p: int, eff: "Effect", source: int | None = None) -> list[int] | None:
    """What effect `eff` of player p may be aimed at (units, for every verb of the shipped
    cards); None if it is aimed at nothing chosen (one choice: no target); [] if it has
    nothing to act on."""
    return VERBS[eff.do].pool(s, p, eff, source)


def needs_choice(eff: "Effect") -> bool:
    """Whether the effect's user chooses a target for it."""
    return bool(VERBS[eff.do].target) and eff.aim not in NO_CHOICE


def effect_target(eff: "Effect") -> Signature:
    """The kind of each argument naming the effect's chosen target (() for none)."""
    return VERBS[eff.do].target if needs_choice(eff) else ()


def auto_target(s: "SengokuState", p: int, eff: "Effect", source: int | None) -> tuple[int, ...] | None:
    """Triggered effects choose for themselves [designed]: the strongest eligible unit; of
    equal 兵力 the first in play order (camp, then summoned soldiers), not the lowest id, so a
    decklist's order does not choose. A verb aimed at players takes the first one its aim
    allows (``foe``: another player; ``own``: its user)."""
    options = targets(s, p, eff, source)
    if not options:
        return None
    verb = VERBS[eff.do]
    if verb.target and verb.target[0].kind is Kind.PLAYER:
        fits = [t for t in options if (t[0] != p) == (verb.aim == "foe")] if verb.aim else options
        return (fits or options)[0]
    return max(options, key=lambda t: s.strength(t[0]) if t else 0)


def _aimed(s: "SengokuState", p: int, eff: "Effect", source: int | None = None) -> list[int] | None:
    """The units an effect may act on by its card's ``target`` word: any ally or enemy unit
    (chosen), its own warlord while in play (``self``), every enemy while there is one
    (``all_enemies``), every ally (``all_allies``)."""
    want = eff.aim
    if want == "ally":
        return s.units(p)
    if want == "enemy":
        return s.units(1 - p)
    if want == "self":
        return None if source is not None and s.in_play(source) else []
    if want == "all_enemies" and not s.units(1 - p):
        return []
    return None


def _limited(s: "SengokuState", eff: "Effect", pool: list[int]) -> list[int]:
    """The units of `pool` of 兵力 at most the effect's ``max_strength``, if it has one."""
    limit = eff.strength_limit
    return pool if limit is None else [u for u in pool if s.strength(u) <= limit]


def _exhausted_allies(s: "SengokuState", p: int, eff: "Effect", source: int | None = None) -> list[int] | None:
    pool = _aimed(s, p, eff, source)
    return [u for u in pool if u in s.exhausted] if pool else pool


def _ready_enemies(s: "SengokuState", p: int, eff: "Effect", source: int | None = None) -> list[int] | None:
    pool = _aimed(s, p, eff, source)
    return [u for u in pool if u not in s.exhausted] if pool else pool


def _weak_enemies(s: "SengokuState", p: int, eff: "Effect", source: int | None = None) -> list[int] | None:
    pool = _aimed(s, p, eff, source)
    return _limited(s, eff, pool) if pool else pool


def _weak_enemy_warlords(s: "SengokuState", p: int, eff: "Effect", source: int | None = None) -> list[int] | None:
    """Enemy warlords (a summoned soldier has no card to move) within the strength limit."""
    pool = _aimed(s, p, eff, source)
    return _limited(s, eff, [u for u in pool if u not in s.tokens]) if pool else pool


# ----- carrying out ------------------------------------------------------------------------------
def apply(s: "SengokuState", p: int, eff: "Effect", chosen: tuple[int, ...], source: int | None = None,
          why: str = "") -> None:
    """Carry out a one-shot effect for player p on the chosen target (if any); a target unit
    no longer in play makes it fizzle."""
    verb = VERBS[eff.do]
    resolve = verb.resolve
    assert resolve is not None, f"effect {eff.do!r} is static and is never applied once"
    t = source if eff.aim == "self" else (chosen[0] if chosen else None)
    if t is not None and verb.on_units and not s.in_play(t):
        s.say("fizzle", player=p, why=why)
        return
    resolve(s, p, eff, t, why)


def _one(t: int | None) -> int:
    """The unit an effect aimed at one unit acts on (never None: see `target_units`)."""
    assert t is not None, "an effect aimed at one unit has no unit"
    return t


# Every verb below but draw, summon, build_wall and those on all units acts on the one unit
# t: its target choice names it, or it is the source (``target = "self"``).
@VERBS.effect("strength", ONE_SHOT, {"amount", "target"}, ("ally", "all_allies", "self"), _aimed, (UNIT,),
              aim="own", worth=1.0)
def _strength(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    """+兵力 this turn, to one ally, this warlord or all allies."""
    amount = int(eff.get("amount", 0))
    for u in (s.units(p) if eff.aim == "all_allies" else [_one(t)]):
        s.buff[u] = s.buff.get(u, 0) + amount
    s.say("effect", player=p, do="strength", target=t, amount=amount, why=why)
    return True


@VERBS.effect("damage", ONE_SHOT, {"amount", "target"}, ("enemy", "all_enemies"), _aimed, (UNIT,),
              aim="foe", worth=2.0)
def _damage(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    """Damage to one enemy or every enemy (SGT-WARLORD-12: one brought to 0 兵力 is destroyed)."""
    amount = int(eff.get("amount", 0))
    for u in (list(s.units(1 - p)) if eff.aim == "all_enemies" else [_one(t)]):
        s.damage[u] = s.damage.get(u, 0) + amount
    s.say("effect", player=p, do="damage", target=t, amount=amount, why=why)
    s.destroy_defeated()
    return True


@VERBS.effect("draw", ONE_SHOT, {"n"}, aim="own", worth=1.5)
def _draw(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    s.draw(p, int(eff.get("n", 1)))
    return True


@VERBS.effect("destroy", ONE_SHOT, {"max_strength"}, ("enemy",), _weak_enemies, (UNIT,), aim="foe", worth=3.0)
def _destroy(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    """Destroy an enemy of 兵力 at most ``max_strength``: its {撤退時} abilities fire."""
    s.say("effect", player=p, do="destroy", target=t, why=why)
    s.destroy(_one(t))
    return True


@VERBS.effect("ready", ONE_SHOT, {"target"}, ("ally", "self"), _exhausted_allies, (UNIT,), aim="own", worth=1.0)
def _ready(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    s.exhausted.discard(_one(t))
    s.say("effect", player=p, do="ready", target=t, why=why)
    return True


@VERBS.effect("exhaust", ONE_SHOT, {"target"}, ("enemy",), _ready_enemies, (UNIT,), aim="foe", worth=1.0)
def _exhaust(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    s.exhausted.add(_one(t))
    s.say("effect", player=p, do="exhaust", target=t, why=why)
    return True


@VERBS.effect("summon", ONE_SHOT, {"strength", "siege", "unit", "count"}, aim="own", worth=2.0)
def _summon(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    """SGT-SUMMON-01/03: soldier tokens whose stats the card sets."""
    for _ in range(int(eff.get("count", 1))):
        s.summon(p, int(eff.get("strength", 1000)), int(eff.get("siege", 0)), eff.get("unit", "infantry"))
    return True


@VERBS.effect("build_wall", ONE_SHOT, {"n"}, aim="own", worth=2.0)
def _build_wall(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    s.walls[p] += take_top(s.deck[p], int(eff.get("n", 1)))    # 築城: face down, unseen (SGT-WALL-07)
    s.say("build_wall", player=p, n=int(eff.get("n", 1)), why=why)
    return True


@VERBS.effect("siege_up", ONE_SHOT, {"amount", "target"}, ("ally", "self"), _aimed, (UNIT,), aim="own", worth=1.0)
def _siege_up(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    """+攻城力 this turn."""
    amount = int(eff.get("amount", 1))
    t = _one(t)
    s.siege_buff[t] = s.siege_buff.get(t, 0) + amount
    s.say("effect", player=p, do="siege_up", target=t, amount=amount, why=why)
    return True


@VERBS.effect("bounce", ONE_SHOT, {"max_strength"}, ("enemy",), _weak_enemy_warlords, (UNIT,), aim="foe", worth=2.5)
def _bounce(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    """Return an enemy warlord to its owner's hand."""
    s.say("effect", player=p, do="bounce", target=t, why=why)
    t = _one(t)
    s.leave_play(t)
    s.hand[s.owner[t]].append(t)
    return True


@VERBS.effect("exile", ONE_SHOT, {"max_strength"}, ("enemy",), _weak_enemy_warlords, (UNIT,), aim="foe", worth=3.0)
def _exile(s: "SengokuState", p: int, eff: "Effect", t: int | None, why: str) -> bool:
    """Remove an enemy warlord from the game (除外)."""
    s.say("effect", player=p, do="exile", target=t, why=why)
    t = _one(t)
    s.leave_play(t)
    s.exile[s.owner[t]].append(t)             # SGT-ZONE-07
    return True


# Static verbs: read where they apply.
VERBS.passive("aura", STATIC_PLACES, {"amount", "unit"})             # SGT-KOKU-09: your warlords (of a troop type) +兵力
VERBS.passive("win_if", STATIC_PLACES, {"koku", "camp"})             # SGT-WIN-03: its owner wins with this many kokuryoku and warlords
VERBS.passive("lose_if", STATIC_PLACES, {"hand_at_most", "deck_at_most"})  # SGT-WIN-03: its owner's opponent loses when met
VERBS.passive("cannot_attack", {"warlord"})                          # a {常時} ability: this warlord cannot attack
