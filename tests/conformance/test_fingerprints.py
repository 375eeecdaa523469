"""Play stays identical: fixed-seed fingerprints of whole event logs, for every game.

Each case plays a whole game (random legal actions from a fixed stream, at most 600 steps)
and hashes its complete event log and final outcome. The expected hashes are in
`fingerprints.json`; the compiled build is checked against the same file, so pure and
compiled play must agree too. A change that is meant to change play (a rule, a random
stream) regenerates them on purpose:

    python3 -m tests.conformance.test_fingerprints --update
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import takujo
from takujo.core import Rng

FILE = Path(__file__).with_name("fingerprints.json")
CASES = [
    ("fuutei(players=3)", 0), ("fuutei(players=3)", 1), ("fuutei(players=5,old_region_rule=true)", 2),
    ("sengoku_taisen(deck1=蒼,deck2=紅)", 0), ("sengoku_taisen(deck1=翠,deck2=黒)", 1),
    ("ibara(players=4)", 0), ("ibara(players=3,multi_card_combat=true,gaiblitz_buff=true)", 1),
    ("draft_daimyo(players=4)", 0), ("draft_daimyo(players=4,expansion=true,tactics=true)", 1),
]
MAX_STEPS = 600


def fingerprint(spec: str, seed: int) -> str:
    game = takujo.load(spec)
    state = game.new_state(seed)
    pick = Rng(seed * 31 + 7)
    while state.outcome is None and state.steps < MAX_STEPS:
        pend = state.pending
        player = pend.players[0] if len(pend.players) == 1 else pend.players[pick.below(len(pend.players))]
        legal = state.legal_actions(player)
        if not legal:
            player = next(p for p in pend.players if state.legal_actions(p))
            legal = state.legal_actions(player)
        state.apply(legal[pick.below(len(legal))])
    data = {"log": state.log, "outcome": state.outcome.to_json() if state.outcome else None, "steps": state.steps}
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _key(spec: str, seed: int) -> str:
    return f"{spec} seed {seed}"


@pytest.mark.parametrize("spec,seed", CASES, ids=[_key(s, n) for s, n in CASES])
def test_a_fixed_seed_plays_the_same_game_as_recorded(spec, seed):
    expected = json.loads(FILE.read_text(encoding="utf-8"))
    assert _key(spec, seed) in expected, f"no fingerprint for {_key(spec, seed)}: run with --update"
    assert fingerprint(spec, seed) == expected[_key(spec, seed)], (
        f"{spec} seed {seed} plays differently from its recorded fingerprint; if play is meant to "
        "change, regenerate: python3 -m tests.conformance.test_fingerprints --update")


if __name__ == "__main__":
    if "--update" not in sys.argv:
        sys.exit("usage: python3 -m tests.conformance.test_fingerprints --update")
    FILE.write_text(json.dumps({_key(s, n): fingerprint(s, n) for s, n in CASES}, ensure_ascii=False, indent=1)
                    + "\n", encoding="utf-8")
    print(f"wrote {FILE}")
