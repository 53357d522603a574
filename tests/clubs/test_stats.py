"""A player's statistics (kirifuda.stats), checked against hand-counted records."""

from __future__ import annotations

from typing import Any

from kirifuda import record
from kirifuda.stats import is_bot_name, player_stats


def rec(game: str, names: list[str], facts: list[dict[str, Any]], **options: Any) -> record.Record:
    return record.from_json(
        {
            "format": "kirifuda-record/1",
            "game": game,
            "options": options,
            "players": names,
            "deals": [{"scored": d} for d in facts],
        }
    )


def test_napoleon_roles() -> None:
    players = ["Aki", "Bo", "Chie", "Dai", "search:normal"]
    match = rec(
        "napoleon",
        players,
        [
            {"napoleon": 0, "declared": "13S", "adjutant": 2, "face_cards": [9, 3, 5, 2, 1]},  # army wins
            {"all_pass": True},
            {"napoleon": 1, "declared": "14H", "adjutant": 0, "face_cards": [4, 6, 5, 4, 1]},  # army loses
            {"napoleon": 2, "declared": "12D", "adjutant": None, "face_cards": [2, 2, 12, 2, 2]},  # solo wins
        ],
        deals=3,
    )
    stats = player_stats([match], "Aki")["napoleon"]
    assert stats["roles"] == {"napoleon": {"won": 1}, "adjutant": {"lost": 1}, "citizen": {"lost": 1}}
    assert stats["deals"] == 4 and stats["matches"] == 1 and stats["finished"] == 1
    # 6 (Napoleon, 13) − 4 (adjutant, 14, lost) − 2 (citizen against a solo 12) = 0
    assert stats["points"] == 0 and stats["points_per_deal"] == 0
    assert stats["against_bots"] == {"search:normal": {"matches": 1, "wins": 0}}
    assert player_stats([match], "Nobody") == {}


def test_kakeya_chips_and_sitting_out() -> None:
    match = rec(
        "kakeya",
        ["Aki", "Bo", "Chie", "Dai", "Eri", "Fumi"],
        [
            {"trump": "D", "face_cards": [10, 6, None]},  # pair 0 (Aki, Dai) wins 1
            {"trump": "D", "face_cards": [12, None, 4]},  # pair 0 wins 2; pair 1 sits out
        ],
        players=6,
    )
    aki = player_stats([match], "Aki")["kakeya"]["roles"]["pair"]
    bo = player_stats([match], "Bo")["kakeya"]["roles"]["pair"]
    assert aki == {"games": 2, "won": 2, "chips": 3}
    assert bo == {"games": 1, "won": 0, "chips": -1}


def test_unsun_and_meitora_chombo() -> None:
    unsun = rec(
        "unsun", ["Aki", "Bo", "Chie"], [{"tricks_won": [7, 5, 4]}, {"tricks_won": [5, 6, 5]}], players=3, deals=2
    )
    assert player_stats([unsun], "Aki")["unsun"]["roles"]["player"] == {"tricks": 12, "deals_won": 1}
    assert player_stats([unsun], "Aki")["unsun"]["wins"] == 1
    meitora = rec(
        "meitora", ["Aki", "Bo", "Chie", "Dai"], [{"chombo": 0}, {"declarer": 0, "contract": "7S", "tricks": 7}]
    )
    stats = player_stats([meitora], "Aki")["meitora"]
    assert stats["roles"] == {"chombo": {"count": 1}, "declarer": {"made": 1}}
    assert stats["points"] == 2 and stats["finished"] == 0  # the chombo gave the other team 5
    assert player_stats([meitora], "Chie")["meitora"]["roles"] == {"partner": {"made": 1}}
    assert is_bot_name("search:strong") and is_bot_name("search:normal") and not is_bot_name("Aki")
