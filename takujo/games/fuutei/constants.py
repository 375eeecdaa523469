"""Fuutei's phases and fixed limits, shared by the state, battle and effect modules."""
from __future__ import annotations

HAND_SIZE = 5        # FTR-SETUP-03, FTR-HAND-01
PARTY_MAX = 5        # FTR-MAIN-04

# Phases in which the turn player decides (TURN decisions).
MAIN, BATTLE, HAND = "main", "battle", "hand"
# Phases inside a battle.
SUPPORT, ATTACK, PERSUADE, REASSIGN = "support", "attack", "persuade", "reassign"
OVER = "over"
