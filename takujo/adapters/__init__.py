"""Adapters for learning agents: a fixed action index and a fixed-size observation per game
configuration, and the `Table` / `Seat` driver the PettingZoo and OpenSpiel environments are
built on (docs/research.md). numpy is needed here, never by the engine itself."""
from .actions import ActionIndex, ActionIndexError, Dom, Slot, SubsetSteps, VerbShape
from .driver import IllegalIndexError, Seat, Table
from .observe import ObservationError, ObsEncoder, ObsSpec

__all__ = ["ActionIndex", "ActionIndexError", "Dom", "IllegalIndexError", "ObsEncoder", "ObsSpec",
           "ObservationError", "Seat", "Slot", "SubsetSteps", "Table", "VerbShape"]
