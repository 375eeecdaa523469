"""Fuutei's phases and fixed limits, shared by the state, battle and effect modules."""
from __future__ import annotations

HAND_SIZE = 5        # FTR-SETUP-03, FTR-HAND-01
PARTY_MAX = 5        # FTR-MAIN-04
# [designed] Guard and unguard actions allowed in one main phase (and in one reassignment
# after a battle, FTR-COMBAT-12). The source sets no limit ("何度でも", FTR-MAIN-01), but
# reassigning back and forth would let one phase last for ever. A player holds at most 12
# regions, so 12 guard actions set every defender: 40 allows more than three complete
# rearrangements, which no real player needs. Past it only the phase's other actions remain.
GUARD_CHANGES_MAX = 40

# Phases in which the turn player decides (TURN decisions).
MAIN, BATTLE, HAND = "main", "battle", "hand"
# Phases inside a battle.
SUPPORT, ATTACK, PERSUADE, REASSIGN = "support", "attack", "persuade", "reassign"
OVER = "over"
# Where a region lies when no player holds it (`FuuteiState.move_region`, `region_owner`).
CENTER = -1
#: a character's four stats, in the order of its dice (FTR-CARD-02)
STATS = ("phys_atk", "phys_def", "mag_atk", "mag_def")
