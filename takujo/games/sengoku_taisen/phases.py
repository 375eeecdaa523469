"""The phases of a game of 戦国大戦 双, as `SengokuState.phase` names them: the mulligan, then
each turn's 国力 and メイン phases (with an attack's interception and counter-stratagems
inside the main phase), the end-of-turn discard, and the game's end."""

MULLIGAN, KOKU, MAIN, INTERCEPT, COUNTER, DISCARD, OVER = (
    "mulligan", "koku", "main", "intercept", "counter", "discard", "over")
