"""風帝伝説FIGHTER カードゲーム (15周年版) as a takujo Game: options and factory."""
from __future__ import annotations

from functools import cached_property
from typing import Any, Literal

from pydantic import Field

from ...core.cards import card_file_option
from ...core.errors import OptionError
from ...core.game import Game, GameOptions
from ...core.targets import ArgKinds, Signature, Target
from .cards import CARD_FILE, Catalogue, catalogue
from .schema import FuuteiPublicView
from .state import FuuteiState


class FuuteiOptions(GameOptions):
    # FTR-PLAYERS-01: two or more; supported 2–6 (five or more lower the goal, FTR-WIN-03).
    players: int = Field(4, ge=2, le=6, description="number of players (2-6)")
    center_regions: Literal["invadable", "effects_only"] = Field(
        "invadable", description="regions in the centre: invadable as undefended regions, "
                                 "or gained only through card effects (FTR-DRAW-03)")
    old_region_rule: bool = Field(
        False, description="pre-15th-anniversary rule: a region drawn after setup goes to the "
                           "drawer's own area (FTR-CHANGE-01)")
    deck_out: Literal["pile_emptied", "failed_draw"] = Field(
        "pile_emptied", description="deck-out victory at the end of the turn in which the pile "
                                    "ran out, or of the turn whose draw found it empty (FTR-WIN-04)")
    cards: str = card_file_option("path of a cards.toml to play with instead of the built-in stand-in set")


class FuuteiGame(Game):
    """A configured game of 風帝伝説FIGHTER."""

    name = "fuutei"
    title = "風帝伝説FIGHTER カードゲーム (15周年版)"
    Options = FuuteiOptions
    State = FuuteiState
    PublicView = FuuteiPublicView
    presentation = "takujo.games.fuutei.render"
    heuristic = "takujo.games.fuutei.heuristic:FuuteiHeuristic"
    estimator = "takujo.games.fuutei.heuristic:estimate"
    prior_puct = 0.3             # IS-MCTS keeps to the heuristic unless clearly better (docs/bots.md)
    play_bot = "ismcts:1000"     # ahead of the heuristic at about 0.25 s a move (docs/bots.md)
    options: FuuteiOptions

    def _check_options(self, options: GameOptions) -> None:
        self.catalogue  # load (and validate) the card file now, so errors surface at load
        regions = len(self.catalogue.of_type("region"))
        if options.players > regions:
            raise OptionError("fuutei.options.too_few_regions", players=options.players, regions=regions)

    @cached_property
    def catalogue(self) -> Catalogue:
        return catalogue(self.options.cards or str(CARD_FILE))

    @property
    def card_count(self) -> int:
        return len(self.catalogue)

    def new_state(self, seed: int = 0) -> FuuteiState:
        return FuuteiState.new(self, seed)

    def determinize(self, view: dict[str, Any], rng: Any) -> FuuteiState:
        from .determinize import determinize
        return determinize(self, view, rng)

    # ----- names and the card catalogue ---------------------------------------------------
    def _arg_kinds(self) -> ArgKinds:
        """What each action's arguments name: regions are cards here; a hold card is followed
        by the targets its effect verb declares (`effects.VERBS`)."""
        region, party = Target.card("region"), Target.card("party")
        return ArgKinds(fixed={
            **{verb: () for verb in ("end", "pass", "persuade", "decline", "done", "nosupport", "allow")},
            "attack": (Target.word("phys", "mag"),),
            "play": (Target.card("hand"),), "discard": (Target.card("hand"),),
            "support": (Target.card("hand"),), "tawake": (Target.card("hand"),),
            "equip": (Target.card("hand"), party), "guard": (region, party), "unguard": (region,),
            "invade": (party, region),
        }, by_card={"hold": (Target.card("hand"), _hold_tail)})

    def card_names(self, card: Any) -> tuple[str, str]:
        """(Japanese, English) names of a card instance id (as in zones and events), or of a
        card id such as ``"aoi_kaze"``."""
        cat = self.catalogue
        if isinstance(card, str) and not card.lstrip("-").isdigit():
            found = cat.by_id(card)
            if not found:
                raise KeyError(card)
            card = found[0]
        iid = int(card)
        if not 0 <= iid < len(cat):
            raise IndexError(card)
        spec = cat[iid].spec
        return spec.name_ja, spec.name_en

    def export_catalogue(self) -> dict[str, Any]:
        """Every card of the set once, with names, type, stats, bonus or points, texts in both
        languages, copies and the instance ids that zones and events use; and the set's
        notes (the built-in set is a stand-in, ``stand_in``)."""
        cat = self.catalogue
        by_id: dict[str, list[int]] = {}
        for c in cat.cards:
            by_id.setdefault(c.id, []).append(c.iid)
        cards = []
        for card_id, iids in by_id.items():
            spec = cat[iids[0]].spec
            entry: dict[str, Any] = {
                "id": spec.id, "name_ja": spec.name_ja, "name_en": spec.name_en, "type": spec.type,
                "text_ja": spec.text_ja, "text_en": spec.text_en, "count": len(iids),
                "instances": list(iids),
            }
            if spec.sex is not None:
                entry["sex"] = spec.sex
            if spec.stats is not None:
                entry["stats"] = dict(zip(("phys_atk", "phys_def", "mag_atk", "mag_def"), map(str, spec.stats)))
            if spec.bonus is not None:
                entry["bonus"] = dict(zip(("phys_atk", "phys_def", "mag_atk", "mag_def"), spec.bonus))
            if spec.points is not None:
                entry["points"] = spec.points
            if spec.effect is not None:
                entry["effect"] = {"do": spec.effect.do, **(spec.effect.model_extra or {})}
            if spec.excluded_by is not None:
                entry["excluded_by"] = spec.excluded_by
            if spec.hook is not None:
                entry["hook"] = spec.hook
            cards.append(entry)
        meta = cat.meta
        return {
            "game": self.name, "title": self.title, "set": meta.get("set", ""),
            "stand_in": bool(meta.get("stand_in", False)),
            "note_ja": meta.get("note_ja", ""), "note_en": meta.get("note_en", ""),
            "cards": cards,
        }


def _hold_tail(game: Game, card: int) -> Signature:
    """The targets a hold card's effect verb declares."""
    from .effects import VERBS
    cards = game.catalogue.cards  # type: ignore[attr-defined]
    eff = cards[card].effect if 0 <= card < len(cards) else None
    return VERBS[eff.do].target if eff is not None and eff.do in VERBS else ()
