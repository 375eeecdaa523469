"""Fuutei's client contracts: card names for messages, the card catalogue, the documented
schema of the public view, and the message catalogue."""
from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

import takujo
from takujo.core import Rng
from takujo.core.schema import view_model
from takujo.games.fuutei.render import SILENT_EVENTS
from takujo.games.fuutei.schema import FuuteiPublicView
from takujo.present import LANGS, Renderer
from takujo.present.catalogue import catalogue_for

from .helpers import act, put, table


def test_card_names_of_instance_ids_and_card_ids():
    game = takujo.load("fuutei")
    blue = game.catalogue.by_id("aoi_kaze")[0]
    assert game.card_names(blue) == ("蒼い風", "Blue Wind")
    assert game.card_names("aoi_kaze") == ("蒼い風", "Blue Wind")
    assert game.card_names(str(blue)) == ("蒼い風", "Blue Wind")
    for bad in (-1, len(game.catalogue), "no_such_card"):
        with pytest.raises((KeyError, IndexError)):
            game.card_names(bad)
    # the renderer shows an unknown id as it is (an undefended battle's -1 is never a card)
    assert Renderer(game, "en").card(-1) == "-1"


def test_the_catalogue_exports_every_card_once_with_its_instances():
    game = takujo.load("fuutei")
    data = game.export_catalogue()
    json.dumps(data, ensure_ascii=False)
    assert data["game"] == "fuutei" and data["stand_in"] is True
    assert "stand-in" in data["note_en"] and data["note_ja"]
    ids = [c["id"] for c in data["cards"]]
    assert len(ids) == len(set(ids)) == len({c.id for c in game.catalogue.cards})
    instances = sorted(i for c in data["cards"] for i in c["instances"])
    assert instances == list(range(len(game.catalogue)))      # every instance id in zones and events
    assert sum(c["count"] for c in data["cards"]) == 99
    by_id = {c["id"]: c for c in data["cards"]}
    blue = by_id["aoi_kaze"]
    assert blue["type"] == "character" and blue["sex"] == "male"
    assert blue["stats"] == {"phys_atk": "2D+3", "phys_def": "11", "mag_atk": "2D+2", "mag_def": "11"}
    assert by_id["orion_shichijingi"]["bonus"] == {"phys_atk": 5, "phys_def": 0, "mag_atk": 0, "mag_def": 0}
    assert by_id["teito"]["points"] == 9 and by_id["teito"]["text_en"] == "Region. 9 points."
    assert by_id["shikaku"]["effect"] == {"do": "assassinate", "dice": "2D+1", "against": "phys_def"}
    assert by_id["soshi_val"]["excluded_by"] == "val" and by_id["yamiomaru"]["hook"] == "yamiomaru_victory"
    for card in data["cards"]:
        assert card["name_ja"] and card["name_en"]
        assert bool(card["text_ja"]) == bool(card["text_en"]), card["id"]


def _views(spec: str, seeds: range):
    game = takujo.load(spec)
    for seed in seeds:
        s = game.new_state(seed)
        rng = Rng(seed)
        while s.outcome is None:
            yield s
            options = s.legal_actions(s.pending.players[0])
            s.apply(options[rng.below(len(options))])
        yield s


def test_the_public_view_schema_documents_every_key():
    s = takujo.load("fuutei").new_state(0)
    assert set(FuuteiPublicView.model_fields) == set(s.public_info())
    assert takujo.game_class("fuutei").PublicView is FuuteiPublicView
    for name, field in FuuteiPublicView.model_fields.items():
        assert field.description, name
    schema = view_model(takujo.game_class("fuutei")).model_json_schema()
    assert "TawakeWindow" in json.dumps(schema) and "Battle" in json.dumps(schema)


@pytest.mark.parametrize("spec", ["fuutei", "fuutei(players=2,center_regions=effects_only)"])
def test_views_of_battles_and_windows_match_the_schema(spec):
    seen = set()
    for s in _views(spec, range(3)):
        pub = s.public_info()
        FuuteiPublicView.model_validate(pub)
        if pub["battle"]:
            seen.add("battle")
        if pub["windows"]:
            seen.add(pub["windows"][-1]["data"]["for"])
    assert {"battle", "hold", "support"} <= seen


def test_the_schema_refuses_unknown_keys():
    pub = takujo.load("fuutei").new_state(0).public_info()
    with pytest.raises(ValidationError):
        FuuteiPublicView.model_validate({**pub, "secret": 1})
    s = table(3)
    h = put(s, "hokyu", hand=0)
    put(s, "tawake", hand=1)
    act(s, f"hold {h}")
    pub = s.public_info()
    pub["windows"][0]["data"]["extra"] = 1
    with pytest.raises(ValidationError):
        FuuteiPublicView.model_validate(pub)


def test_every_message_is_in_both_languages():
    """The loader checks each message; here: the event, action, prompt and phase IDs Fuutei
    uses are all there, and no English message is written in Japanese."""
    import re
    cat = catalogue_for(takujo.load("fuutei"))
    japanese = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
    for msg_id in cat.ids():
        if msg_id.startswith(("ui.", "word.none", "word.nothing", "word.nobody")):
            continue
        assert set(cat.messages[msg_id]) == set(LANGS)
        en = cat.template(msg_id, "en")
        assert not japanese.search(en), (msg_id, en)
    for phase in ("main", "battle", "hand", "support", "attack", "persuade", "reassign", "over"):
        assert f"phase.{phase}" in cat
    assert SILENT_EVENTS == {"shuffle", "act"}
