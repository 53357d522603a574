"""``kirifuda bench-server``: a short run against a real server process (the figures are not
checked, only that the run works and counts what it says)."""

from __future__ import annotations

import pytest

from kirifuda.errors import OptionError
from kirifuda.server.bench import run, table_seats


def test_tables_have_the_games_seats_with_bots_last() -> None:
    assert table_seats("meitora", 0) == [{"kind": "human"}] * 4
    assert table_seats("napoleon", 2) == [{"kind": "human"}] * 3 + [{"kind": "bot", "bot": "search"}] * 2
    assert table_seats("ナポレオン", 9)[0] == {"kind": "human"}  # at least one human seat
    with pytest.raises(OptionError, match="unknown game 'whist'"):
        table_seats("whist", 0)


def test_an_unknown_game_is_refused_before_a_server_starts() -> None:
    with pytest.raises(OptionError, match="the games are"):
        run(None, tables=1, seconds=1, game="whist")


def test_a_short_run_with_bot_seats_at_five_seat_tables() -> None:
    """Napoleon's tables have five seats (the benchmark used to ask for four, which the server
    refused); two of them the search bot's: the server commits their actions too."""
    r = run(None, tables=2, seconds=3, game="napoleon", bot_seats=2)
    assert r["client_errors"] == 0
    assert r["bot_seats"] == 2 and r["matches"] >= 2
    assert r["actions"] > 0
    assert r["committed"] > r["actions"]  # the bots' actions and the deals besides the clients'
