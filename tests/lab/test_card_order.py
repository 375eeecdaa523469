"""Card order: a card file and the same file in reverse order play the same games once the
deal is the same.

Reversing a card file gives every card another instance id, and a shuffle of a deck built in
another order deals other cards from the same seed: that much is expected. Everything else —
the bots' choices and the rules — must not depend on the order. To see only that, the tests
here make chance follow content (`same_deal`: each shuffle first sorts its cards by what they
are, and a card picked at random from a hand is picked in content order, so a seed deals the
same cards whatever the file's order), play a game and its reordered twin in step
(`lockstep`), and check that at every decision the legal actions correspond and each game's
heuristic picks the same card content.

The per-game tests (``tests/<game>/test_heuristic_card_order.py``) use these helpers; this
file checks the helpers themselves and the balance lab's null behaviour (a paired experiment
of a file against its reversal finds no difference at all).

``python3 -m tests.lab.test_card_order GAME [SEEDS] [KEY=VALUE …] [--walk]`` counts, for
heuristic play (``--walk``: random play) on seeds 1..SEEDS (default 50), the decisions where
the heuristic's choice, and the games where the legal actions, differ between the built-in
files and their reversal; ``… GAME [GAMES] --lab`` plays the lab's experiment of the two
(default 400 games) and counts the games that end otherwise (docs/bots.md, "Card order").
"""
from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import takujo
from takujo.core.action import Action
from takujo.core.game import Game
from takujo.core.rng import Rng
from takujo.core.state import State
from takujo.lab.experiment import Experiment
from takujo.lab.runner import play_job
from takujo.sim import bot_rng

GAMES_DIR = Path(takujo.__file__).parent / "games"
DECKS = GAMES_DIR / "sengoku_taisen" / "decks"
#: game -> (the option naming its card file, the built-in file)
CARD_FILES = {
    "fuutei": ("cards", GAMES_DIR / "fuutei" / "cards.toml"),
    "ibara": ("content", GAMES_DIR / "ibara" / "content.toml"),
    "draft_daimyo": ("cards", GAMES_DIR / "draft_daimyo" / "cards.toml"),
    "sengoku_taisen": ("cards", GAMES_DIR / "sengoku_taisen" / "cards.toml"),
}
#: 戦国大戦 双's instance ids come from the decklists (the pool file only names the cards)
DECK_OPTIONS = ("deck1", "deck2")
#: the table header of a TOML line: [name] or [[name]]
_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.]+)\s*\]\]?\s*(#.*)?$")


# ----- reversed files ------------------------------------------------------------------------------
def reverse_tables(text: str) -> str:
    """The same TOML text with the entries of each array of tables (``[[card]]`` …) in
    reverse order; plain tables and the text before the first table stay where they are."""
    head: list[str] = []
    groups: list[tuple[str, list[list[str]]]] = []       # (table name, its entries' lines)
    for line in text.splitlines(keepends=True):
        if not line.endswith("\n"):
            line += "\n"
        m = _HEADER.match(line)
        if m and m.group(1) == "[[":
            if not groups or groups[-1][0] != m.group(2):
                groups.append((m.group(2), []))
            groups[-1][1].append([line])
        elif m:
            groups.append(("", [[line]]))               # a plain table: never moved
        elif groups:
            groups[-1][1][-1].append(line)
        else:
            head.append(line)
    out = head
    for name, entries in groups:
        for entry in (entries[::-1] if name else entries):
            out.extend(entry)
    return "".join(out)


def reverse_decklist(text: str) -> str:
    """A decklist with its count lines in reverse order (its name and okugi lines first)."""
    lines = text.splitlines()
    counts = [line for line in lines if re.match(r"^\s*\d", line)]
    return "\n".join([line for line in lines if line not in counts] + counts[::-1]) + "\n"


def reversed_options(name: str, folder: Path, decks: tuple[str, str] = ("kuro", "midori")) -> tuple[dict[str, str], dict[str, str]]:
    """(options of the built-in files, options of the same files reversed, written to
    `folder`): the card file, and for 戦国大戦 双 also both decklists."""
    key, path = CARD_FILES[name]
    reversed_path = folder / f"{name}-reversed.toml"
    reversed_path.write_text(reverse_tables(path.read_text(encoding="utf-8")), encoding="utf-8")
    base, other = {key: str(path)}, {key: str(reversed_path)}
    if name == "sengoku_taisen":
        for option, deck in zip(DECK_OPTIONS, decks):
            source = DECKS / f"{deck}.txt"
            target = folder / f"{deck}-reversed.txt"
            target.write_text(reverse_decklist(source.read_text(encoding="utf-8")), encoding="utf-8")
            base[option], other[option] = str(source), str(target)
    return base, other


def twin_games(name: str, folder: Path, decks: tuple[str, str] = ("kuro", "midori"), **options: Any) -> tuple[Game, Game]:
    """The game with its built-in files, and the same game with them reversed (`decks`: the
    starter decklists of 戦国大戦 双, by file name)."""
    base, other = reversed_options(name, folder, decks)
    return takujo.load(name, **options, **base), takujo.load(name, **options, **other)


# ----- what a card is, whatever its id ---------------------------------------------------------------
def content_keys(game: Game) -> dict[str, list[Any]]:
    """Per space of ids (cards; in いばらの姫と4人の騎士 also knights, whims, events and item
    chips), each id's content: what the card is, shared by its copies."""
    if game.name == "fuutei":
        return {"card": [c.id for c in game.catalogue.cards]}
    if game.name == "draft_daimyo":
        return {"card": [(c.spec.id, c.spec.set) for c in game.cards.cards]}
    if game.name == "sengoku_taisen":
        return {"card": [(game.owners[i], c.number) for i, c in enumerate(game.instances)]}
    if game.name == "ibara":
        c = game.content
        return {"card": [(a.suit or "", a.number, a.sp or "") for a in c.cards],
                "knight": [k.id for k in c.knights], "whim": [w.id for w in c.whims],
                "event": [e.id for e in c.events], "item": [i.id for i in c.items]}
    raise KeyError(game.name)


#: いばらの姫と4人の騎士: what each shuffle shuffles (the others shuffle cards)
IBARA_SHUFFLES = {"knights": "knight", "item chips": "item", "whim deck": "whim", "event deck": "event"}
#: random picks of a card from a player's hand (by position: いばらの姫と4人の騎士 keeps the
#: cards of a draw in id order, so the same position holds another card in the twin)
HAND_PICKS = frozenset({"discard_random", "random_discard"})


@lru_cache(maxsize=32)
def _ranks(game: Game) -> dict[str, list[int]]:
    """Per space, each id's place in content order (copies in id order)."""
    out = {}
    for space, keys in content_keys(game).items():
        order = sorted(range(len(keys)), key=lambda i: (keys[i], i))
        rank = [0] * len(keys)
        for place, i in enumerate(order):
            rank[i] = place
        out[space] = rank
    return out


def _space(game: Game, what: str) -> str:
    return IBARA_SHUFFLES.get(what, "card") if game.name == "ibara" else "card"


@contextmanager
def same_deal() -> Iterator[None]:
    """Chance by content (in this process): every shuffle first sorts its cards by content,
    and a card picked at random from a hand is picked from the hand in content order, so that
    a seed deals and picks the same cards from a file and from its reversal."""
    shuffle, pick = State.shuffle, State.pick

    def shuffle_by_content(self: State, cards: list[int], what: str) -> None:
        rank = _ranks(self.game)[_space(self.game, what)]
        cards.sort(key=rank.__getitem__)
        shuffle(self, cards, what)

    def pick_by_content(self: State, n: int, why: str, to: list[int] | None = None, **fields: Any) -> int:
        i = pick(self, n, why, to, **fields)
        if why not in HAND_PICKS:
            return i
        hand = getattr(self, "hands")[fields["player"]]
        assert len(hand) == n, why
        return hand.index(sorted(hand, key=_ranks(self.game)["card"].__getitem__)[i])

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(State, "shuffle", shuffle_by_content)
        mp.setattr(State, "pick", pick_by_content)
        yield


def correspondence(a: Game, b: Game) -> dict[str, list[int]]:
    """Per space, ``phi[space][id in a]`` = the id in b of the same card (same content, same
    copy)."""
    ra, rb = _ranks(a), _ranks(b)
    ka, kb = content_keys(a), content_keys(b)
    out = {}
    for space in ra:
        assert sorted(ka[space]) == sorted(kb[space]), f"{space}: the two games hold other cards"
        at = {place: i for i, place in enumerate(rb[space])}
        out[space] = [at[place] for place in ra[space]]
    return out


def translate(game: Game, phi: dict[str, list[int]], action: Action) -> Action:
    """`action` of `game` as the same move in the reordered twin (ids mapped by `phi`)."""
    cards = phi["card"]

    def card(x: Any) -> Any:
        return cards[x] if type(x) is int and 0 <= x < len(cards) else x   # tokens and words stay

    verb, args = action.verb, action.args
    if game.name == "fuutei":                         # every number is a card (regions too)
        new = tuple(card(x) for x in args)
    elif game.name == "sengoku_taisen":               # … but an ability's index
        new = tuple(x if verb == "ability" and i == 1 else card(x) for i, x in enumerate(args))
    elif game.name == "ibara":
        if verb in ("move", "sp"):                    # a card, then a square
            new = (card(args[0]), *args[1:])
        elif verb in ("fight", "ring"):                # a play: its cards in id order
            new = tuple(sorted(card(x) for x in args))
        elif verb in ("explore", "discard", "nofight", "drop"):
            new = tuple(card(x) for x in args)
        elif verb == "lose":
            new = (phi["whim"][args[0]],)
        else:                                         # counts, suits, players
            new = args
    elif game.name == "draft_daimyo":
        if verb in ("pick", "choose", "sell", "tactic"):
            new = (card(args[0]),)
        elif verb == "play":                          # a warlord target is a card, else a province
            play = game.cards[args[0]].spec.play
            warlord = play is not None and play.do in ("subvert", "treason_mark")
            new = (card(args[0]), *(card(x) if warlord else x for x in args[1:]))
        else:                                         # counts and provinces
            new = args
    else:
        raise KeyError(game.name)
    return Action(action.player, verb, new)


# ----- playing in step -----------------------------------------------------------------------------
@dataclass
class Tally:
    """What a game and its reordered twin did differently, decision by decision."""

    decisions: int = 0
    choices: int = 0                                  # decisions with more than one action
    bot: list[str] = field(default_factory=list)      # the heuristics chose other cards
    rules: list[str] = field(default_factory=list)    # the legal actions do not correspond
    outcome: bool = True                              # the same winners, reason and steps


def lockstep(a: Game, b: Game, seed: int, walk: Rng | None = None, max_steps: int = 3000) -> Tally:
    """Play `a` and its reordered twin `b` from `seed` in step (call inside `same_deal`). At
    every decision both games' heuristics are asked (each seat's bot with its own stream);
    the game goes on with a's heuristic's choice — or with a random legal action of `walk`,
    to reach states heuristic play rarely does — and b follows with the same move."""
    phi = correspondence(a, b)
    sa, sb = a.new_state(seed), b.new_state(seed)
    bots_a = [a.heuristic_bot() for _ in range(a.players)]
    bots_b = [b.heuristic_bot() for _ in range(b.players)]
    rng_a = [bot_rng(seed, p) for p in range(a.players)]
    rng_b = [bot_rng(seed, p) for p in range(b.players)]
    t = Tally()
    while sa.outcome is None and sa.steps < max_steps:
        pend = sa.pending
        assert pend is not None and sb.pending is not None and pend.players == sb.pending.players
        for i, p in enumerate(pend.players):
            if i and (sa.outcome is not None or p not in sa.to_act):
                continue
            legal_a, legal_b = sa.legal_actions(p), sb.legal_actions(p)
            mapped = [translate(a, phi, x) for x in legal_a]
            where = f"seed {seed} step {sa.steps} player {p}"
            if sorted(map(str, mapped)) != sorted(map(str, legal_b)):
                t.rules.append(f"{where}: {sorted(set(map(str, mapped)) ^ set(map(str, legal_b)))[:6]}")
                t.outcome = False
                return t                              # the games part: nothing more to compare
            if not legal_a:
                continue
            t.decisions += 1
            t.choices += len(legal_a) > 1
            choice_a = bots_a[p].act(sa.view(p), legal_a, rng_a[p])
            choice_b = bots_b[p].act(sb.view(p), legal_b, rng_b[p])
            if translate(a, phi, choice_a) != choice_b:
                t.bot.append(f"{where}: {choice_a} -> {translate(a, phi, choice_a)} but {choice_b}")
            move = choice_a if walk is None else legal_a[walk.below(len(legal_a))]
            sa.apply(move)
            sb.apply(translate(a, phi, move))
    oa, ob = sa.outcome, sb.outcome
    t.outcome = sa.steps == sb.steps and (oa and (oa.winners, oa.reason)) == (ob and (ob.winners, ob.reason))
    return t


# ----- the helpers themselves ----------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(CARD_FILES))
def test_a_reversed_file_holds_the_same_cards_under_other_ids(name, tmp_path):
    a, b = twin_games(name, tmp_path, **({} if name == "sengoku_taisen" else {"players": 4}))
    phi = correspondence(a, b)
    ka, kb = content_keys(a), content_keys(b)
    for space, ids in phi.items():
        assert sorted(ids) == list(range(len(ids)))                    # one to one
        assert all(ka[space][i] == kb[space][j] for i, j in enumerate(ids))
    moved = sum(i != j for i, j in enumerate(phi["card"]))
    assert moved >= (4 if name == "ibara" else len(phi["card"]) // 2)   # (ibara: its SP cards)


def test_reversing_keeps_plain_tables_and_comments_in_place():
    text = "# head\n[meta]\nset = 'x'\n\n[[card]]\nid = 'a'\n# about b\n[[card]]\nid = 'b'\n[deck]\nn = 1\n"
    assert reverse_tables(text) == ("# head\n[meta]\nset = 'x'\n\n[[card]]\nid = 'b'\n"
                                    "[[card]]\nid = 'a'\n# about b\n[deck]\nn = 1\n")
    assert reverse_decklist("name: x\nokugi: Y\n2 A-1\n# c\n3 A-2\n") == "name: x\nokugi: Y\n# c\n3 A-2\n2 A-1\n"


@pytest.mark.parametrize("name", sorted(CARD_FILES))
def test_shuffling_by_content_deals_the_same_cards_from_both_files(name, tmp_path):
    a, b = twin_games(name, tmp_path, **({} if name == "sengoku_taisen" else {"players": 4}))
    phi = correspondence(a, b)

    def deals(seed: int) -> list[list[list[int]]]:
        """Each game's shuffles (what they dealt) from `seed`, in a's ids."""
        out = []
        for game, mapping in ((a, None), (b, phi)):
            shuffles = [e for e in game.new_state(seed).log if e["e"] == "shuffle"]
            back = {space: {j: i for i, j in enumerate(ids)} for space, ids in phi.items()}
            out.append([[back[_space(game, e["what"])][c] if mapping else c for c in e["order"]]
                        for e in shuffles])
        return out
    plain = deals(3)
    with same_deal():
        canonical = deals(3)
    assert canonical[0] == canonical[1] and len(canonical[0]) >= 2
    assert plain[0] != plain[1]                     # without it: another deal


# ----- the balance lab's null: a file against its reversal ------------------------------------------
LAB = [("fuutei", {"players": "4"}, 16),
       ("ibara", {"players": "4", "multi_card_combat": "true", "gaiblitz_buff": "true"}, 16),
       ("draft_daimyo", {"players": "4", "expansion": "true", "tactics": "true"}, 20),
       ("sengoku_taisen", {}, 8)]                       # (8 variants: pool, deck1, deck2)


def lab_null(name: str, options: dict[str, str], games: int, folder: Path,
             with_leads: bool = True) -> tuple[Experiment, dict[tuple[int, int], list[dict[str, Any]]]]:
    """A paired experiment of the built-in files against the same files reversed (each file
    option one axis of ``--compare``), shuffled by content: the result rows of each game
    (seed, rotation), one per variant, the baseline first."""
    base, other = reversed_options(name, folder)
    compare = [f"{k}={base[k]},{other[k]}" for k in base]
    with same_deal():
        exp = Experiment.make(name, options, compare, ["heuristic"], games, 1, 5000)
        rows = [play_job(exp, job, with_leads=with_leads) for job in exp.jobs()]
    by_game: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for row in rows:
        by_game.setdefault((row["seed"], row["rotation"]), []).append(row)
    return exp, by_game


def _result(row: dict[str, Any]) -> tuple[Any, ...]:
    return row["winners"], row["reason"], row["steps"], row["metrics"]


@pytest.mark.parametrize("name,options,games", LAB, ids=[g for g, _, _ in LAB])
def test_the_lab_finds_no_difference_between_a_file_and_its_reversal(name, options, games, tmp_path):
    """A paired experiment of the built-in files against the same files reversed, shuffled by
    content so the deal is the same: every game's every metric (each seat's win, length,
    lead changes, the game's own figures) must come out identical."""
    exp, by_game = lab_null(name, options, games, tmp_path)
    assert len(by_game) == games and all(len(v) == len(exp.variants) for v in by_game.values())
    for (seed, _), variants in by_game.items():
        for row in variants[1:]:
            assert _result(row) == _result(variants[0]), \
                f"{name} seed {seed}: {variants[0]['variant']} and {row['variant']} differ"


# ----- measuring ------------------------------------------------------------------------------------
DEFAULTS: dict[str, dict[str, Any]] = {"fuutei": {"players": 4}, "ibara": {"players": 4},
                                       "draft_daimyo": {"players": 4, "expansion": True, "tactics": True},
                                       "sengoku_taisen": {}}


def measure(name: str, seeds: int, options: dict[str, Any] | None = None, walk: bool = False,
            out: Callable[[str], None] = print) -> Tally:
    """Seeds 1..`seeds` played by the heuristic (with `walk`, by random legal actions, the
    heuristic asked at every decision): the decisions whose choice, and the games whose legal
    actions, differ between the built-in files and their reversal (shuffled by content)."""
    import tempfile
    total = Tally()
    parted = 0
    with tempfile.TemporaryDirectory() as folder, same_deal():
        a, b = twin_games(name, Path(folder), **(DEFAULTS[name] if options is None else options))
        for seed in range(1, seeds + 1):
            t = lockstep(a, b, seed, walk=Rng(seed) if walk else None)
            total.decisions += t.decisions
            total.choices += t.choices
            total.bot += t.bot
            total.rules += t.rules
            parted += not t.outcome
    out(f"{a}: {seeds} games{' of random play' if walk else ''}, {total.decisions} decisions "
        f"({total.choices} with a choice); the heuristic chose other cards at {len(total.bot)}; "
        f"the legal actions parted in {len(total.rules)} games; {parted} games ended otherwise")
    for line in (total.rules + total.bot)[:8]:
        out("  " + line)
    return total


def measure_lab(name: str, games: int, out: Callable[[str], None] = print) -> int:
    """`lab_null` on `games` games (without lead changes): how many games end otherwise in
    some variant, and the largest paired change of a seat's win rate against the baseline."""
    import tempfile
    from takujo.lab.analysis import analyse
    options = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in DEFAULTS[name].items()}
    with tempfile.TemporaryDirectory() as folder:
        exp, by_game = lab_null(name, options, games, Path(folder), with_leads=False)
    differ = sum(any(_result(r) != _result(v[0]) for r in v[1:]) for v in by_game.values())
    labels = [v.label for v in exp.variants]
    analysis = analyse([r for v in by_game.values() for r in v], labels)
    moves = [(abs(p.diff), k, p) for c in analysis.comparisons for k, p in c.metrics.items()
             if k.startswith("seat") and k.endswith("_won")]
    _, seat, largest = max(moves, key=lambda m: m[0])
    out(f"{name}: {games} games a variant, {len(labels)} variants; {differ} games ended otherwise; "
        f"largest change of a seat's win rate {largest.diff * 100:+.1f} points ({seat})")
    return differ


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--lab" in sys.argv:
        measure_lab(args[0], int(args[1]) if len(args) > 1 else 400)
    else:
        given = dict(a.split("=", 1) for a in args[2:])
        measure(args[0], int(args[1]) if len(args) > 1 else 50,
                {**DEFAULTS[args[0]], **given} if given else None, walk="--walk" in sys.argv)
