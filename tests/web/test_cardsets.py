"""Card sets from the browser: checked by the game's own loader (every problem by card and
field, in the client's language), kept by the hash of their text (never on a server path),
played in a match whose bots, catalogue, record and replay use them."""
from __future__ import annotations

import json
from pathlib import Path

from takujo.games.fuutei.cards import CARD_FILE

from .client import bearer

BASE = Path(CARD_FILE).read_text(encoding="utf-8")
KEY = {"X-Takujo-Player": "c" * 32}


def patched() -> str:
    """The stand-in set with one card renamed (a designer's change)."""
    assert 'name_ja = "蒼い風"' in BASE
    return BASE.replace('name_ja = "蒼い風"', 'name_ja = "青い風"', 1)


def test_a_set_is_checked_kept_by_hash_and_downloadable(client) -> None:
    text = patched()
    checked = client.post("/api/cardsets/check", json={"game": "fuutei", "option": "cards", "text": text})
    assert checked.status_code == 200 and checked.json()["ok"] and checked.json()["cards"] > 10
    res = client.post("/api/cardsets", json={"game": "fuutei", "option": "cards", "title": "blue", "text": text},
                      headers=KEY)
    assert res.status_code == 201, res.text
    kept = res.json()
    assert kept["set"].startswith("set:") and len(kept["set"]) == 68 and kept["title"] == "blue"
    again = client.post("/api/cardsets", json={"game": "fuutei", "option": "cards", "text": text}).json()
    assert again["set"] == kept["set"]                                 # the same text is the same set
    got = client.get(f"/api/cardsets/{kept['set']}").json()
    assert got["text"] == text and got["game"] == "fuutei"
    file = client.get(f"/api/cardsets/{kept['set']}/file")
    assert file.text == text and "attachment" in file.headers["content-disposition"]
    mine = client.get("/api/me/cardsets", headers=KEY).json()["sets"]
    assert [s["set"] for s in mine] == [kept["set"]] and "text" not in mine[0]
    # someone else keeping the same text has it among their sets too, under their own title
    other = {"X-Takujo-Player": "d" * 32}
    theirs = client.post("/api/cardsets", json={"game": "fuutei", "option": "cards", "title": "mine too", "text": text},
                         headers=other).json()
    assert theirs["set"] == kept["set"] and theirs["title"] == "mine too"
    assert [s["title"] for s in client.get("/api/me/cardsets", headers=other).json()["sets"]] == ["mine too"]
    assert [s["title"] for s in client.get("/api/me/cardsets", headers=KEY).json()["sets"]] == ["blue"]


def test_every_problem_is_named_by_card_and_field_in_the_clients_language(client) -> None:
    bad = BASE.replace('type = "character"', 'type = "charactr"', 2)
    for lang, word in (("en", "card #1 (aoi_kaze)"), ("ja", "1番目の [[card]] (aoi_kaze)")):
        res = client.post(f"/api/cardsets/check?lang={lang}", json={"game": "fuutei", "option": "cards", "text": bad})
        assert res.status_code == 422, res.text
        problems = res.json()["error"]["problems"]
        assert len(problems) >= 2, problems                           # both bad cards, not just the first
        assert all("type" in p for p in problems[:2]) and any(word in p for p in problems), problems
    res = client.post("/api/cardsets/check", json={"game": "fuutei", "option": "cards", "text": "not = [toml"})
    assert res.status_code == 422 and res.json()["error"]["problems"]
    for body in ({"game": "fuutei", "option": "seed", "text": BASE}, {"game": "nope", "option": "cards", "text": BASE},
                 {"game": "fuutei", "option": "cards", "text": "  "}):
        assert client.post("/api/cardsets/check", json=body).status_code in (404, 422)
    assert client.post("/api/cardsets/check", json={"game": "fuutei", "option": "cards",
                                                    "text": "x" * (513 * 1024)}).status_code == 422
    for name in ("set:" + "0" * 64, "../../etc/passwd", "set:xyz"):
        res = client.get(f"/api/cardsets/{name}")
        assert res.status_code == 404 and "root:" not in res.text          # no file is ever read


def test_a_match_plays_an_uploaded_set_and_its_record_replays_elsewhere(client, tmp_path) -> None:
    text = patched()
    kept = client.post("/api/cardsets", json={"game": "fuutei", "option": "cards", "text": text}).json()
    made = client.post("/api/matches", json={"game": f"fuutei(players=2,cards={kept['set']})",
                                             "seats": ["human", "bot:heuristic"], "seed": 2})
    assert made.status_code == 201, made.text
    mid, tok = made.json()["match"], made.json()["seats"][0]["token"]
    names = {c["name_ja"] for c in client.get(f"/api/matches/{mid}/catalogue").json()["cards"]}
    assert "青い風" in names and "蒼い風" not in names
    for _ in range(12):   # a few moves: the heuristic bot plays with the uploaded cards too
        s = client.get(f"/api/matches/{mid}/state", headers=bearer(tok)).json()
        if s["legal"]:
            client.post(f"/api/matches/{mid}/actions", headers=bearer(tok), json={"action": s["legal"][0], "version": s["version"]})
    lines = [json.loads(x) for x in client.get(f"/api/matches/{mid}/record", headers=bearer(tok)).text.splitlines()]
    assert lines[0]["sets"] == {kept["set"]: text}                    # what is needed to replay it elsewhere
    # a server that never saw the set reads the match from the store again (a restart)
    from takujo.core import sources
    sources._TEXTS.clear()
    client.portal.call(_forget, client.app.state.service, mid)
    assert client.get(f"/api/matches/{mid}/state", headers=bearer(tok)).status_code == 200
    # another process without the set, or a record whose text does not match its name
    from takujo.core.errors import RecordError
    from takujo.record import replay_states
    sources._TEXTS.clear()
    header = {**lines[0], "chance": []}
    forged = {**header, "sets": {kept["set"]: text + "\n# changed"}}
    try:
        list(replay_states([forged], "forged"))
        raise AssertionError("a forged set was read")
    except RecordError as exc:
        assert "hash" in str(exc)


async def _forget(service, match_id: str) -> None:
    """The server lets the match leave memory (as after a restart, it is read again)."""
    service._drop(match_id)


def test_only_the_operator_starts_an_experiment_and_no_client_value_names_a_path(tmp_path) -> None:
    from fastapi.testclient import TestClient

    from takujo.web.app import create_app
    from takujo.web.settings import Limits, Settings

    from .limits import RATES
    settings = Settings(limits=Limits(**RATES), operator_token="t" * 32, lab_dir=str(tmp_path / "lab"))
    body = {"game": "ibara", "kind": "option", "key": "ryan_last", "values": ["false", "true"], "games": 10}
    with TestClient(create_app(tmp_path / "t.db", settings=settings)) as c:
        res = c.post("/api/lab/experiments", json=body)                 # a stranger (not this machine, no token)
        assert res.status_code == 403 and "operator" in res.json()["error"]["message"]
        assert c.get("/api/lab/experiments").json()["operator"] is False
        op = {"Authorization": "Bearer " + "t" * 32}
        for bad in ({**body, "values": ["../../etc", "true"]}, {**body, "key": "a;rm"}, {**body, "bots": "ismcts:999999"},
                    {**body, "game": "nope"}, {**body, "kind": "cards", "key": "cards", "values": ["", "set:" + "0" * 64]}):
            res = c.post("/api/lab/experiments", json=bad, headers=op)
            assert res.status_code in (404, 422), (bad, res.text)
        assert not any((tmp_path / "lab").glob("*")) if (tmp_path / "lab").exists() else True   # nothing started
        for name in ("../../etc/passwd", "0" * 12, "x"):
            assert c.get(f"/api/lab/experiments/{name}").status_code == 404


def test_the_server_keeps_no_more_sets_than_its_limit(client, monkeypatch) -> None:
    import dataclasses
    service = client.app.state.service
    monkeypatch.setattr(service, "settings", dataclasses.replace(
        service.settings, limits=dataclasses.replace(service.settings.limits, card_sets=2)))
    texts = [BASE.replace('name_ja = "蒼い風"', f'name_ja = "風{i}"', 1) for i in range(3)]
    kept = [client.post("/api/cardsets", json={"game": "fuutei", "option": "cards", "text": t}, headers=KEY) for t in texts[:2]]
    assert [r.status_code for r in kept] == [201, 201]
    res = client.post("/api/cardsets", json={"game": "fuutei", "option": "cards", "text": texts[2]}, headers=KEY)
    assert res.status_code == 422 and "2" in res.json()["error"]["message"], res.text
    again = client.post("/api/cardsets", json={"game": "fuutei", "option": "cards", "text": texts[0]}, headers=KEY)
    assert again.status_code == 201 and again.json()["set"] == kept[0].json()["set"]   # a kept set is no new one
    assert len(client.get("/api/me/cardsets", headers=KEY).json()["sets"]) == 2


def test_a_decklist_is_checked_against_an_uploaded_pool_and_plays_with_it(client) -> None:
    """A 戦国大戦 双 pool with a new card: a decklist that uses it is refused against the
    built-in pool, accepted against the kept one, and a match plays that deck from that pool."""
    from takujo.games.sengoku_taisen.cards import CARD_FILE as SGT_FILE
    from takujo.games.sengoku_taisen.game import SengokuGame
    new_card = ('\n[[card]]\nnumber = "ZZ-01"\nname_ja = "新武将"\nname_en = "New warlord"\ntype = "warlord"\n'
                'color = "蒼"\ncost = "蒼"\nunit = "infantry"\nstrength = 2000\nsiege = 1\n')
    pool_text = Path(SGT_FILE).read_text(encoding="utf-8") + new_card
    kept = client.post("/api/cardsets", json={"game": "sengoku_taisen", "option": "cards", "text": pool_text}, headers=KEY)
    assert kept.status_code == 201, kept.text
    pool = kept.json()["set"]
    deck = SengokuGame.deck_text("蒼").replace("2 AO-01 ", "2 ZZ-01 ", 1)
    assert "ZZ-01" in deck
    built_in = client.post("/api/decklists", json={"game": "sengoku_taisen", "text": deck})
    assert built_in.status_code == 422 and "ZZ-01" in built_in.json()["error"]["message"], built_in.text
    res = client.post("/api/decklists", json={"game": "sengoku_taisen", "text": deck, "cards": pool})
    assert res.status_code == 200, res.text
    code = res.json()["deck"]
    assert "ZZ-01" in code and res.json()["cards"] == pool
    for bad in ("set:" + "0" * 64, "../cards.toml"):                     # no such set; not a set's name
        assert client.post("/api/decklists", json={"game": "sengoku_taisen", "text": deck, "cards": bad}).status_code == 404
    made = client.post("/api/matches", json={"game": f"sengoku_taisen(cards={pool},deck1={code})",
                                             "seats": ["human", "bot:random"], "seed": 1})
    assert made.status_code == 201, made.text
    catalogue = client.get(f"/api/matches/{made.json()['match']}/catalogue").json()
    assert "ZZ-01" in json.dumps(catalogue, ensure_ascii=False)
