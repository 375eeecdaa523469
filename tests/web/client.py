"""Small helpers of the in-process API tests (FastAPI's TestClient)."""
from __future__ import annotations

from fastapi.testclient import TestClient

TWO_PEOPLE = {"game": "sengoku_taisen", "seats": ["human", "human"], "seed": 3}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_match(client: TestClient, body: dict = TWO_PEOPLE) -> tuple[str, list[str | None]]:
    """A new match's id and each seat's token (None for a bot)."""
    res = client.post("/api/matches", json=body)
    assert res.status_code == 201, res.text
    data = res.json()
    return data["match"], [s.get("token") for s in data["seats"]]
