"""The client contracts of every game: messages in both languages, the view schema, the card
catalogue. Every event kind a game logs, every action it offers and every prompt it asks has
a message in Japanese and English whose placeholders its arguments fill; every view matches
the game's documented schema; the catalogue exports every card in both languages."""
from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

import takujo
from takujo.core.schema import view_model
from takujo.present import LANGS, Renderer
from takujo.present.catalogue import placeholders

from .test_conformance import midgame_states, playout
from .test_contracts import variants

GAMES = takujo.names()
ROOT = Path(takujo.__file__).resolve().parent


def _check(r: Renderer, msg_id: str, args: dict[str, Any], what: str) -> list[str]:
    problems = []
    for lang in LANGS:
        template = r.catalogue.template(msg_id, lang)
        if template is None:
            problems.append(f"{what}: no {lang} message {msg_id!r}")
            continue
        missing = placeholders(template) - set(args)
        if missing:
            problems.append(f"{what}: message {msg_id!r} ({lang}) needs {sorted(missing)}, "
                            f"given {sorted(args)}")
    return problems


@pytest.mark.parametrize("name", GAMES)
def test_every_event_kind_has_a_message_in_both_languages(name):
    problems: set[str] = set()
    kinds: set[str] = set()
    for spec in variants(name):
        game = takujo.load(spec)
        r = Renderer(game, "en")
        for seed in range(4):
            state = playout(game, seed)
            for event in state.log:
                if event["to"] == []:
                    continue
                viewer = None if event["to"] is None else event["to"][0]
                kinds.add(event["e"])
                found = r.event_message(dict(event), None)
                if found is None:
                    if event["e"] not in game.silent_events():
                        problems.add(f"{event['e']}: left out but not declared silent")
                    continue
                problems.update(_check(r, found[0], found[1], f"event {event['e']}"))
                for lang in LANGS:
                    text = Renderer(game, lang).event(dict(event), viewer)
                    assert text and not text.startswith(found[0] + "("), (spec, event)
    assert kinds
    assert not problems, "\n".join(sorted(problems))


@pytest.mark.parametrize("name", GAMES)
def test_every_action_and_prompt_has_a_message_in_both_languages(name):
    problems: set[str] = set()
    for spec in variants(name):
        game = takujo.load(spec)
        r = Renderer(game, "en")
        for state in midgame_states(game, 5, every=2, limit=80):
            pend = state.pending
            problems.update(_check(r, f"prompt.{pend.prompt}", {}, f"prompt {pend.prompt!r}"))
            for p in pend.players:
                view = state.view(p)
                for action in state.legal_actions(p):
                    msg_id, args = r.action_message(action, view)
                    problems.update(_check(r, msg_id, args, f"action {action}"))
    assert not problems, "\n".join(sorted(problems)[:40])


@pytest.mark.parametrize("name", GAMES)
def test_every_option_has_help_in_both_languages(name):
    from takujo.present.catalogue import messages_path, _cached
    cls = takujo.game_class(name)
    cat = _cached(str(messages_path(cls)))
    for key in cls.Options.model_fields:
        ja, en = cat.template(f"option.{key}", "ja"), cat.template(f"option.{key}", "en")
        assert ja and en and ja != en, f"{name}: option {key} needs option.{key} in ja and en"
        assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in ja), key


@pytest.mark.parametrize("name", GAMES)
def test_every_view_matches_the_documented_schema(name):
    cls = takujo.game_class(name)
    assert cls.PublicView is not None, f"{name}: no PublicView model documents public_info()"
    model = view_model(cls)
    for spec in variants(name):
        game = takujo.load(spec)
        for seed in range(2):
            checked = [model.model_validate(game.new_state(seed).view(None))]
            final = playout(game, seed, check=lambda s: checked.append(
                model.model_validate(s.view(s.steps % (game.players + 1) or None))))
            model.model_validate(final.view(0))
    json.dumps(model.model_json_schema())


@pytest.mark.parametrize("name", GAMES)
def test_the_card_catalogue_exports_every_card_in_both_languages(name):
    game = takujo.load(name)
    data = game.export_catalogue()
    json.dumps(data, ensure_ascii=False)
    assert data["game"] == name and data["cards"]
    for card in data["cards"]:
        assert card.get("id") is not None and card.get("name_ja") and card.get("name_en"), card
        if card.get("text_ja"):
            assert card.get("text_en"), f"{name}: card {card['id']} has no English text"
    for part in ("board", "squares", "provinces"):
        for entry in data.get(part) or []:
            assert entry.get("name_ja") and entry.get("name_en"), entry


def _ui_literals(path: Path) -> list[str]:
    """String literals in a module that read as words for people (not docstrings, message
    IDs, or the text of errors that report a bug in a game rather than speak to a player)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    internal = {id(c) for n in ast.walk(tree) if isinstance(n, ast.Raise) for c in ast.walk(n)}
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
                and id(node) not in internal):
            words = [w for w in node.value.replace("[", " [").split() if w.isalpha() and len(w) > 2
                     and not w.startswith("[")]
            if len(words) >= 2:
                found.append(node.value)
    return found


def test_the_terminal_takes_every_sentence_from_the_catalogues():
    literals = _ui_literals(ROOT / "terminal.py")
    assert not literals, f"terminal.py hard-codes text for people: {literals[:5]}"
