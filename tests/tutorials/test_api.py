"""The tutorials' JSON API (kirifuda/server/tutorials.py), on the router alone."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from fastapi import FastAPI

from kirifuda.tutorials import available, load

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from kirifuda.server.tutorials import router


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(router)
    return TestClient(app)


def test_list(client: TestClient) -> None:
    body = client.get("/api/tutorials?lang=ja").json()
    assert [g["game"] for g in body["games"]] == list(available())
    assert body["games"][0]["title"] == load("meitora").data.title.ja
    assert client.get("/api/tutorials?lang=fr").status_code == 400


@pytest.mark.parametrize("game", sorted(available()))
def test_walk_the_api(client: TestClient, game: str) -> None:
    tutorial = load(game)
    step = 0
    while True:
        frame: dict[str, Any] = client.get(f"/api/tutorials/{game}/{step}?lang=en").json()
        assert frame["step"] == step and frame["total"] == len(tutorial.steps)
        assert frame["notes"] == [n.text.en for n in tutorial.notes_at(step)]
        if frame["done"]:
            assert frame["result"]["lines"]
            break
        current = tutorial.steps[step]
        if frame["learner_turn"]:
            labels = {json.dumps(c["action"]) for c in frame["choices"]}
            assert json.dumps(current.action.to_json()) in labels
            if current.expect is not None:
                worse = next(
                    (
                        c["action"]
                        for c in frame["choices"]
                        if tutorial.info.action_from_json(c["action"], 0) not in current.expect
                    ),
                    None,
                )
                if worse is not None:
                    r = client.post(f"/api/tutorials/{game}/{step}", json={"action": worse, "lang": "en"}).json()
                    assert not r["accepted"] and r["next"] == step
                    assert current.why is not None and current.why.en in r["message"]
            r = client.post(
                f"/api/tutorials/{game}/{step}", json={"action": current.action.to_json(), "lang": "en"}
            ).json()
            assert r["accepted"] and r["correct"] and r["next"] == step + 1
        else:
            assert frame["choices"] == [] and frame["guide"] is None
            r2 = client.post(f"/api/tutorials/{game}/{step}", json={"action": current.action.to_json()})
            assert r2.status_code == 409
        step += 1


def test_hidden_cards_are_not_sent(client: TestClient) -> None:
    frame = client.get("/api/tutorials/unsun/1?lang=en").json()  # seat 3's ♠K lies face down
    assert frame["table"] == [{"seat": 3, "who": "Seat 3", "card": None}]
    assert "KS" not in json.dumps(frame) and "K♠" not in json.dumps(frame, ensure_ascii=False)
    tutorial = load("napoleon")
    others = {c for s, h in enumerate(tutorial.record.deals[0].hands) if s != 0 for c in h}
    frame = client.get("/api/tutorials/napoleon/0?lang=en").json()
    assert not others & set(frame["hand"])
    assert not {"QC", "6H"} & set(frame["hand"])  # the kitty, before Napoleon takes it


def test_errors(client: TestClient) -> None:
    r = client.get("/api/tutorials/chess/0")
    assert r.status_code == 404 and "meitora" in r.json()["detail"]
    assert client.get("/api/tutorials/meitora/999").status_code == 404
    r = client.post("/api/tutorials/meitora/3", json={"action": {"bid": "6X"}})
    assert r.status_code == 400 and "6X" in r.json()["detail"]
    r = client.post("/api/tutorials/meitora/3", json={"action": {"bid": "6S"}, "lang": "ja"})
    assert r.status_code == 200 and not r.json()["accepted"] and "6♠" in r.json()["message"]


def test_page(client: TestClient) -> None:
    r = client.get("/tutorial")
    assert r.status_code == 200 and "/static/tutorial.js" in r.text and "/static/cards.js" in r.text
