"""The phases of a turn of いばらの姫と4人の騎士 (`IbaraState.phase`), in their own module so
that `state.py` and `combat.py` both import them at load time."""
from __future__ import annotations

ACT, DISCARD, PENALTY, GABE_DISCARD = "act", "discard", "penalty", "gabe_discard"
COMBAT_DECLARE, COMBAT_PLAY, COMBAT_RING, COMBAT_CHOOSE, COMBAT_DROP = (
    "combat_declare", "combat_play", "combat_ring", "combat_choose", "combat_drop")
OVER = "over"
