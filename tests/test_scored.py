"""Scored deals (docs/records.md, "Scored deals"): a deal given by its facts is scored by the
game's own rules, a match may mix both forms, and bad facts are refused naming deal and field."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kirifuda import record
from kirifuda.errors import RecordError
from kirifuda.games import find_game
from kirifuda.scored import score_deal


def _play_deal(state: Any, rng: random.Random) -> None:
    """Deal and play one deal with random legal actions (until the next chance node)."""
    state.deal_random(rng)
    while not state.needs_deal and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))


def _facts_of(game: str, state: Any, rec: record.Record, summary: dict[str, Any]) -> dict[str, Any]:
    """The facts a scorer would write down for the last finished deal."""
    deal = rec.deals[-1]
    if game == "meitora":
        if summary["outcome"] == "redeal":
            return {"broken": summary["broken"]} if summary["broken"] is not None else {"all_pass": True}
        declarer = summary["declarer"]
        if summary["outcome"] == "chombo":
            facts = {"chombo": summary["chombo"], "failed_claim": summary["failed_claim"], "score": summary["score"]}
            if declarer is not None:
                facts.update(declarer=declarer, contract=summary["contract"])
            return facts
        return {
            "declarer": declarer,
            "contract": summary["contract"],
            "tricks": summary["team_tricks"][declarer % 2],
            "score": summary["score"],
        }
    if game == "napoleon":
        if summary["outcome"] == "redeal":
            return {"all_pass": True}
        return {
            "napoleon": summary["napoleon"],
            "declared": summary["declared"],
            "contract": summary["contract"],
            "adjutant": summary["adjutant"],
            "adjutant_card": summary["adjutant_card"],
            "face_cards": summary["face_cards"],
            "score": summary["score"],
        }
    if game == "kakeya":
        trump = summary["trump"]
        holder = {}
        for seat, hand in enumerate(deal.hands):
            for code in hand:
                holder[code] = seat % (len(deal.hands) // 2)
        ace_pairs = {holder["A" + s] for s in "SHDC"}
        facts = {
            "trump": trump,
            "face_cards": summary["face_cards"],
            "rensho_pair": holder[summary["rensho"]],
            "trump_ace_pair": holder["A" + trump],
            "chips": summary["payment"],
            "score": summary["score"],
            "leader": summary["leader"],
        }
        if len(ace_pairs) == 1:
            facts["four_aces_pair"] = ace_pairs.pop()
        return facts
    return {
        "tricks_won": summary["tricks_won"],
        "winners": summary["winners"],
        "indicator": summary["indicator"],
        "score": summary["score"],
    }


_TABLES = [
    ("meitora", {}),
    ("napoleon", {}),
    ("napoleon", {"players": 4, "joker": True}),
    ("kakeya", {}),
    ("kakeya", {"players": 6}),
    ("unsun", {}),
    ("unsun", {"players": 3}),
]


@pytest.mark.parametrize("game,options", _TABLES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_scored_deal_scores_as_the_deal_played_card_by_card(game: str, options: dict[str, Any], seed: int) -> None:
    """Play a match at random; write every finished deal again as its facts: the replay of the
    scored record gives the same scores, totals and end of match as the full one."""
    rng = random.Random(seed)
    info = find_game(game)
    state = info.new_state(info.options(options), first=rng.randrange(info.min_players))
    full = []
    for _ in range(4):
        if state.is_over:
            break
        _play_deal(state, rng)
        full.append(state.summary()["deals"][-1])
    rec = record.from_state(state)
    scored = record.Record(game=rec.game, options=rec.options, first=rec.first)
    for i, (_deal, summary) in enumerate(zip(rec.deals, full)):
        partial = record.Record(game=rec.game, options=rec.options, first=rec.first, deals=rec.deals[: i + 1])
        facts = _facts_of(game, state, partial, summary)
        scored.deals.append(record.DealRecord([], [], [], scored=facts))
    want = record.replay(rec).summary()
    got = record.replay(record.loads(record.dumps(scored))).summary()
    assert got["totals"] == want["totals"]
    assert got["finished"] == want["finished"] and got["winner"] == want["winner"]
    for g, w in zip(got["deals"], want["deals"]):
        assert g["scored"] is True and g["tricks"] == []
        assert g["outcome"] == w["outcome"] and g["score"] == w["score"]
        for key in (
            "declarer",
            "contract",
            "team_tricks",
            "broken",
            "first_bidder",
            "napoleon",
            "adjutant",
            "army_face_cards",
            "napoleon_wins",
            "solo",
            "declared",
            "winning_pair",
            "payment",
            "payment_column",
            "rensho_pair",
            "dealing_pair",
            "sitting_out",
            "tricks_won",
            "winners",
            "dealer",
            "indicator",
            "trump",
        ):
            if key in w and not (key == "team_tricks" and w["outcome"] == "chombo"):
                assert g[key] == w[key], key  # (a chombo's tricks so far are not a fact of it)


@pytest.mark.parametrize("game,options", _TABLES)
def test_a_match_mixes_both_forms(game: str, options: dict[str, Any]) -> None:
    """Full deal, scored deal, full deal: the engine carries totals, the first bidder or dealer
    and the roles across the scored deal; writing and reading the record changes nothing."""
    rng = random.Random(7)
    info = find_game(game)
    state = info.new_state(info.options(options))
    _play_deal(state, rng)
    done = record.from_state(state)
    other = info.new_state(info.options(options))
    _play_deal(other, rng)
    facts = _facts_of(game, other, record.from_state(other), other.summary()["deals"][-1])
    facts.pop("score", None)
    if game == "kakeya":  # the pairs playing the second game depend on who lost the first
        faces: list[int | None] = [None] * (state.num_players // 2)
        other_pair = ({s % len(faces) for s in state.active_seats} - {state.leading_pair}).pop()
        faces[state.leading_pair], faces[other_pair] = 6, 10
        facts = {"trump": "S", "face_cards": faces, "trump_ace_pair": state.leading_pair}
    if not state.is_over:
        score_deal(state, facts, 1)
    if not state.is_over:
        _play_deal(state, rng)
    rec = record.from_state(state)
    assert rec.deals[0].scored is None and rec.deals[0] == done.deals[0]
    if len(rec.deals) > 1:
        assert rec.deals[1].scored is not None and rec.deals[1].hands == []
    text = record.dumps(rec)
    again = record.loads(text)
    assert record.dumps(again) == text
    assert record.replay(again).summary() == state.summary()


def _replay(game: str, deals: list[dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    data = {"format": "kirifuda-record/1", "game": game, "options": options or {}, "deals": deals}
    return record.replay(record.from_json(data)).summary()


def _refused(
    game: str, deals: list[dict[str, Any]], field: str, deal: int = 0, options: dict[str, Any] | None = None
) -> RecordError:
    with pytest.raises(RecordError) as exc:
        _replay(game, deals, options)
    assert exc.value.deal == deal
    assert (f"scored.{field}: " if field else "scored: ") in str(exc.value), str(exc.value)
    return exc.value


def test_meitora_scored_deals() -> None:
    out = _replay(
        "meitora",
        [
            {"scored": {"bids": ["7H", "pass", "8S", "pass"], "tricks": 9, "score": [3.5, 0]}},
            {"scored": {"broken": 2}},
            {"scored": {"declarer": 1, "contract": "6N", "tricks": 5, "claim": {"seat": 0, "after": 7}}},
            {"scored": {"chombo": 3, "reason": "played against the request"}},
            {"scored": {"bids": ["pass", "pass", "pass", "pass"]}},
        ],
    )
    assert [d["score"] for d in out["deals"]] == [[3.5, 0], [0, 0], [1, 0], [5, 0], [0, 0]]
    assert [d["outcome"] for d in out["deals"]] == ["played", "redeal", "played", "chombo", "redeal"]
    # the broken keeps the first bidder, the others pass it on
    assert [d["first_bidder"] for d in out["deals"]] == [0, 1, 1, 2, 3]
    assert out["deals"][0]["declarer"] == 2 and out["deals"][0]["contract"] == "8S"
    assert out["totals"] == [9.5, 0] and not out["finished"]


def test_meitora_bad_scored_deals() -> None:
    _refused("meitora", [{"scored": {"declarer": 0, "contract": "7H", "tricks": 11}}], "tricks")
    _refused("meitora", [{"scored": {"declarer": 0, "contract": "7H", "tricks": -1}}], "tricks")
    _refused("meitora", [{"scored": {"declarer": 4, "contract": "7H", "tricks": 7}}], "declarer")
    _refused("meitora", [{"scored": {"declarer": 0, "contract": "5H", "tricks": 7}}], "contract")
    _refused("meitora", [{"scored": {"declarer": 0, "contract": "7H", "tricks": 7, "score": [2.5, 0]}}], "score")
    _refused("meitora", [{"scored": {"bids": ["8H", "7S", "pass", "pass"], "tricks": 8}}], "bids[1]")
    _refused("meitora", [{"scored": {"bids": ["7H", "pass", "pass", "pass"], "declarer": 1, "tricks": 8}}], "declarer")
    _refused(
        "meitora",
        [{"scored": {"declarer": 0, "contract": "7H", "tricks": 7, "claim": {"seat": 1, "after": 5}}}],
        "claim",
    )
    _refused("meitora", [{"scored": {"broken": 1, "tricks": 4}}], "tricks")
    _refused("meitora", [{"scored": {"declarer": 0, "contract": "7H", "tricks": 7, "hands": []}}], "hands")
    _refused("meitora", [{"scored": {}}], "")
    # the second deal is named, and the first stays scored as it was
    err = _refused(
        "meitora",
        [{"scored": {"broken": 0}}, {"scored": {"declarer": 0, "contract": "9N", "tricks": 12}}],
        "tricks",
        deal=1,
    )
    assert "out of range 0-10" in str(err)


def test_a_scored_deal_is_not_mixed_with_cards_and_not_after_the_match() -> None:
    with pytest.raises(RecordError, match="instead of hands"):
        record.from_json(
            {
                "format": "kirifuda-record/1",
                "game": "unsun",
                "deals": [{"scored": {"tricks_won": [3, 3, 3, 3]}, "hands": [], "rest": []}],
            }
        )
    with pytest.raises(RecordError, match="already over") as exc:
        _replay(
            "meitora", [{"scored": {"chombo": 0}}, {"scored": {"chombo": 0}}, {"scored": {"chombo": 2}}], {"target": 10}
        )
    assert exc.value.deal == 2


def test_napoleon_scored_deals() -> None:
    out = _replay(
        "napoleon",
        [
            {
                "scored": {
                    "napoleon": 0,
                    "declared": "13S",
                    "adjutant": 2,
                    "adjutant_card": "AH",
                    "face_cards": [9, 3, 5, 2, 1],
                    "score": [6, -3, 3, -3, -3],
                }
            },
            {"scored": {"all_pass": True}},
            {
                "scored": {
                    "napoleon": 1,
                    "declared": "12H",
                    "contract": "14H",
                    "adjutant": None,
                    "face_cards": [5, 12, 0, 2, 0],
                }
            },
        ],
    )
    assert [d["score"] for d in out["deals"]] == [[6, -3, 3, -3, -3], [0] * 5, [4, -16, 4, 4, 4]]
    assert out["deals"][2]["solo"] is True and out["deals"][2]["napoleon_wins"] is False
    assert [d["first_bidder"] for d in out["deals"]] == [0, 1, 2]


def test_napoleon_bad_scored_deals() -> None:
    base = {"napoleon": 0, "declared": "13S", "adjutant": 2, "face_cards": [9, 3, 5, 2, 1]}
    _refused("napoleon", [{"scored": {**base, "declared": "21S"}}], "declared")
    _refused("napoleon", [{"scored": {**base, "face_cards": [9, 3, 5, 2, 21]}}], "face_cards[4]")
    _refused("napoleon", [{"scored": {**base, "face_cards": [9, 3, 5, 2, 4]}}], "face_cards")
    _refused("napoleon", [{"scored": {**base, "face_cards": [9, 3, 5, 0, 0]}}], "face_cards")
    _refused("napoleon", [{"scored": {**base, "adjutant": 0}}], "adjutant")
    _refused("napoleon", [{"scored": {k: v for k, v in base.items() if k != "adjutant"}}], "adjutant")
    _refused("napoleon", [{"scored": {**base, "contract": "12S"}}], "contract")
    _refused("napoleon", [{"scored": {**base, "contract": "14S"}}], "contract", options={"redeclare": False})
    _refused("napoleon", [{"scored": {**base, "score": [6, -3, 3, -3, -2]}}], "score")
    _refused("napoleon", [{"scored": {**base, "declared": "12S"}}], "declared", options={"players": 4})
    _refused("napoleon", [{"scored": {**base, "adjutant_card": "JK"}}], "adjutant_card")


def test_kakeya_scored_games() -> None:
    out = _replay(
        "kakeya",
        [
            {"scored": {"trump": "D", "leader": 2, "face_cards": [10, 6], "chips": 1}},
            {"scored": {"trump": "H", "face_cards": [4, 12], "rensho_pair": 0, "trump_ace_pair": 0}},
            {"scored": {"trump": "H", "face_cards": [8, 8], "rensho_pair": 0}},
            {"scored": {"trump": "C", "face_cards": [16, 0], "four_aces_pair": 1}},
        ],
    )
    assert [d["score"] for d in out["deals"]] == [[1, -1], [-2, 2], [-1, 1], [4, -4]]
    assert [d["payment_column"] for d in out["deals"]] == ["plain", "rensho_trump_ace", "plain", "four_aces"]
    assert [d["dealing_pair"] for d in out["deals"]] == [1, 1, 0, 0]
    assert out["totals"] == [7, 3]


def test_kakeya_six_players_the_pair_sitting_out() -> None:
    out = _replay(
        "kakeya",
        [
            {"scored": {"trump": "D", "face_cards": [10, 6, None]}},
            {"scored": {"trump": "D", "face_cards": [9, None, 7]}},
        ],
        {"players": 6},
    )
    assert [d["sitting_out"] for d in out["deals"]] == [2, 1] and out["totals"] == [7, 4, 4]
    _refused(
        "kakeya", [{"scored": {"trump": "D", "face_cards": [10, None, 6]}}], "face_cards[1]", options={"players": 6}
    )
    _refused("kakeya", [{"scored": {"trump": "D", "face_cards": [10, 6, 0]}}], "face_cards[2]", options={"players": 6})


def test_kakeya_bad_scored_games() -> None:
    _refused("kakeya", [{"scored": {"trump": "X", "face_cards": [10, 6]}}], "trump")
    _refused("kakeya", [{"scored": {"face_cards": [10, 6]}}], "trump")
    _refused("kakeya", [{"scored": {"trump": "D", "face_cards": [10, 7]}}], "face_cards")
    _refused("kakeya", [{"scored": {"trump": "D", "face_cards": [17, -1]}}], "face_cards[0]")
    _refused("kakeya", [{"scored": {"trump": "D", "face_cards": [8, 8]}}], "rensho_pair")
    _refused("kakeya", [{"scored": {"trump": "D", "face_cards": [10, 6], "chips": 2}}], "chips")
    _refused("kakeya", [{"scored": {"trump": "D", "face_cards": [10, 6], "leader": 1}}], "leader")
    _refused(
        "kakeya",
        [{"scored": {"trump": "D", "face_cards": [10, 6], "four_aces_pair": 1, "rensho_pair": 0}}],
        "rensho_pair",
    )


def test_unsun_scored_deals() -> None:
    out = _replay(
        "unsun",
        [
            {"scored": {"tricks_won": [5, 3, 2, 2], "winners": [0], "indicator": "7H"}},
            {"scored": {"tricks_won": [4, 4, 2, 2]}},
        ],
    )
    assert out["deals"][0]["trump"] == "H" and out["deals"][1]["winners"] == [0, 1]
    assert [d["dealer"] for d in out["deals"]] == [0, 1]
    assert out["totals"] == [9, 7, 4, 4] and out["deals_won"] == [2, 1, 0, 0]
    _refused("unsun", [{"scored": {"tricks_won": [5, 3, 2, 1]}}], "tricks_won")
    _refused("unsun", [{"scored": {"tricks_won": [13, 0, 0, -1]}}], "tricks_won[0]")
    _refused("unsun", [{"scored": {"tricks_won": [5, 3, 2, 2], "winners": [1]}}], "winners")
    _refused("unsun", [{"scored": {"tricks_won": [5, 3, 2, 2], "indicator": "7H", "trump": "S"}}], "trump")
    _refused(
        "unsun",
        [{"scored": {"tricks_won": [5, 3, 2, 2], "indicator": "KH"}}],
        "indicator",
        options={"reflip_face_card": True},
    )
    _refused("unsun", [{"scored": {"tricks_won": [5, 3, 2, 2], "winner": [0]}}], "winner")


def test_replay_json_of_a_scored_match(tmp_path: Any) -> None:
    path = tmp_path / "club.json"
    path.write_text(
        json.dumps(
            {
                "format": "kirifuda-record/1",
                "game": "napoleon",
                "options": {"deals": 1},
                "players": ["A", "B", "C", "D", "E"],
                "deals": [
                    {
                        "scored": {"napoleon": 4, "declared": "16C", "adjutant": 1, "face_cards": [1, 6, 1, 1, 11]},
                        "date": "2026-11-27",
                    }
                ],
            }
        )
    )
    run = subprocess.run(
        [sys.executable, "-m", "kirifuda", "replay", str(path), "--json"], capture_output=True, text=True, check=True
    )
    out = json.loads(run.stdout)
    assert out["deals"][0]["score"] == [-6, 6, -6, -6, 12]
    assert out["finished"] and out["winner"] == 4 and out["totals"] == [-6, 6, -6, -6, 12]
    text = subprocess.run(
        [sys.executable, "-m", "kirifuda", "replay", str(path), "--lang", "ja"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "得点記録" in text
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {"format": "kirifuda-record/1", "game": "unsun", "deals": [{"scored": {"tricks_won": [12, 1, 0, 0]}}]}
        )
    )
    run = subprocess.run(
        [sys.executable, "-m", "kirifuda", "replay", str(bad), "--json"], capture_output=True, text=True
    )
    assert run.returncode == 1
    err = json.loads(run.stdout)["error"]
    assert err["deal"] == 0 and "scored.tricks_won" in err["message"]
    assert "Traceback" not in run.stderr


def test_a_refused_scored_deal_leaves_the_state_as_it_was() -> None:
    info = find_game("kakeya")
    state = info.new_state(info.options({}))
    before = state.summary()
    with pytest.raises(RecordError):
        score_deal(state, {"trump": "D", "face_cards": [10, 6], "chips": 3}, 0)
    assert state.summary() == before and state.needs_deal


_JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 25)
    | st.sampled_from(["7H", "13S", "pass", "broken", "D", "S", "AH", "KH", "x", ""]),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(["seat", "after", "x"]), inner, max_size=3)
    ),
    max_leaves=12,
)


@pytest.mark.parametrize("game,options", _TABLES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_facts_are_scored_or_refused_with_a_record_error(
    game: str, options: dict[str, Any], data: st.DataObject
) -> None:
    """Whatever a scorer (or a program) writes, the answer is a scored deal or a RecordError
    naming the deal — never another exception — and a refused deal changes nothing."""
    from kirifuda.scored import facts_of

    info = find_game(game)
    state = info.new_state(info.options(options))
    keys = sorted(facts_of(game)) + ["hands"]
    facts = data.draw(st.dictionaries(st.sampled_from(keys), _JSONISH, max_size=6))
    before = state.summary()
    try:
        score_deal(state, facts, 4)
    except RecordError as exc:
        assert exc.deal == 4 and "scored" in str(exc)
        assert state.summary() == before and state.needs_deal
    else:
        assert len(state.summary()["deals"]) == 1 and state.summary()["deals"][0]["scored"] is True


_VALID = {
    "meitora": {
        "bids": ["7H", "pass", "8S", "pass"],
        "declarer": 2,
        "contract": "8S",
        "tricks": 9,
        "claim": {"seat": 0, "after": 8},
        "score": [3.5, 0],
        "note": "x",
    },
    "napoleon": {
        "napoleon": 0,
        "declared": "13S",
        "contract": "13S",
        "adjutant": 2,
        "adjutant_card": "AH",
        "face_cards": [9, 3, 5, 2, 1],
        "score": [6, -3, 3, -3, -3],
    },
    "kakeya": {
        "trump": "D",
        "leader": 2,
        "face_cards": [10, 6],
        "rensho_pair": 1,
        "trump_ace_pair": 1,
        "chips": 2,
        "score": [2, -2],
    },
    "unsun": {"tricks_won": [5, 3, 2, 2], "winners": [0], "indicator": "7H", "trump": "H", "score": [5, 3, 2, 2]},
}


@pytest.mark.parametrize("game", sorted(_VALID))
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_one_changed_fact_is_scored_or_refused_naming_it(game: str, data: st.DataObject) -> None:
    """Valid facts with one of them changed (or dropped): a scored deal or a RecordError, never
    another exception."""
    info = find_game(game)
    state = info.new_state(info.options({}))
    assert score_deal(state, dict(_VALID[game]), 0) is None  # the base is valid
    state = info.new_state(info.options({}))
    facts = dict(_VALID[game])
    key = data.draw(st.sampled_from(sorted(facts)))
    if data.draw(st.booleans()):
        facts[key] = data.draw(_JSONISH)
    else:
        del facts[key]
    before = state.summary()
    try:
        score_deal(state, facts, 0)
    except RecordError as exc:
        assert exc.deal == 0 and state.summary() == before
