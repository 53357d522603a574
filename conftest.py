"""Collection rules for the doctests of optional modules: the research environments need numpy,
PettingZoo or OpenSpiel (extras ``kirifuda[pettingzoo]`` / ``kirifuda[openspiel]``); without
them their modules are not collected (their tests in ``tests/`` skip with a message)."""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []


def _missing(*modules: str) -> bool:
    return any(importlib.util.find_spec(m) is None for m in modules)


if _missing("numpy"):
    collect_ignore.append("kirifuda/env")
else:
    if _missing("pettingzoo", "gymnasium"):
        collect_ignore.append("kirifuda/env/pettingzoo.py")
    if _missing("pyspiel"):
        collect_ignore.append("kirifuda/env/openspiel.py")


# The tiny test-only game (tests/tiny_game.py): registered before collection, so that every test
# that runs over the registry (conformance, records, env, server frames) runs it too.
import tests.tiny_game  # noqa: E402,F401

# -- markers ---------------------------------------------------------------------------------
# Set here by path and name, so that `pytest -m "not slow"` is the core suite (under a minute)
# and each marker a way into the rest (`pytest -m browser`).  Browser, PostgreSQL, Ray and
# OpenSpiel tests are slow too (the SQLite cases of the server tests and the env core stay in).  The slow tests are those measured
# at more than about 2.5 s on a 2-core machine; where a test function is slow, all its cases are.

import pytest  # noqa: E402

SLOW = {
    "tests/games/test_unsun_reference.py::test_the_engine_agrees_with_a_plain_reference",
    "tests/games/test_meitora_reference.py::test_the_engine_agrees_with_a_plain_reference",
    "tests/games/test_meitora_cores.py::test_the_rules_hold_on_the_pure_python_core",
    "tests/games/test_meitora_cores.py::test_c_and_python_cores_agree_action_by_action",
    "tests/games/test_napoleon.py::test_random_matches_keep_the_invariants",
    "tests/games/test_unsun.py::test_random_matches_keep_the_invariants",
    "tests/games/test_kakeya.py::test_a_whole_four_player_match_in_the_terminal",
    "tests/test_search_napoleon.py::test_the_search_bot_calls_the_joker_with_spade_three",
    "tests/test_search_unsun.py::test_search_and_oracle_take_legal_actions",
    "tests/test_search_unsun.py::test_decisions_do_not_depend_on_unseen_cards",
    "tests/test_search_bot.py::test_kakeya_search_and_oracle_take_legal_actions",
    "tests/server/test_hidden.py::test_no_frame_holds_a_card_its_seat_may_not_see",
    "tests/server/test_protocol.py::test_fuzzed_messages_never_change_a_game_unless_legal",
    "tests/server/test_bench.py::test_a_short_run_with_bot_seats_at_five_seat_tables",
    "tests/server/test_restart.py::test_kill_and_restart_resumes",
    "tests/test_solver_core.py::test_the_table_searches_the_same_however_its_chains_grow",
    "tests/test_solver_core.py::test_another_build_searches_and_plays_as_the_installed_one",
    "tests/test_solver_core.py::test_c_core_equals_python_on_dense_endings",
    "tests/test_solver_core.py::test_c_core_equals_python_on_random_endings",
    "tests/test_solver_napoleon.py::test_spade_three_calls_against_brute_force",
    "tests/test_solver_napoleon.py::test_endings_against_brute_force",
    "tests/test_solver_unsun.py::test_solver_equals_brute_force",
    "tests/test_solver_bench.py::test_bench_json_has_solver_and_decision_figures",
    "tests/test_solver_bench.py::test_napoleon_solver_figures",
    "tests/test_solver_bench.py::test_bench_json_has_unsun_solver_and_decision_figures",
    "tests/test_solver.py::test_joker_requests_left_out_as_dominated_change_no_value",
    "tests/test_typing.py::test_mypy_strict_is_clean",
    "tests/test_doctor.py::test_the_doctor_names_what_is_missing_and_why",
    "tests/test_doctor.py::test_a_missing_core_is_announced_once_at_the_start_of_a_tournament",
    "tests/env/test_env_resample.py::test_resamples_keep_the_information_state_and_hide_every_unplaced_card",
    "tests/env/test_env_serialize.py::test_a_restored_state_gives_what_the_original_gives",
    "tests/env/test_env_bench.py::test_bench_json_has_env_and_ismcts_figures",
    "tests/env/test_env_bench.py::test_the_env_bench_prints_a_row_per_game_beside_euchre",
    "tests/env/test_env_policy.py::test_a_short_ppo_run_saves_a_policy_that_plays",
    "tests/env/test_env_policy.py::test_a_policy_plays_a_tournament_through_the_cli",
    "tests/server/test_outage.py::test_a_database_outage_stalls_no_table",
    "tests/server/test_serve.py::test_a_restart_takes_the_same_port",
    "tests/server/test_frames.py::test_frames_encode_views_exactly",
    "tests/coach/test_review.py::test_budgeted_positions_give_proven_bounds",
    "tests/coach/test_review.py::test_card_marks_match_brute_force_in_the_ending",
    "tests/coach/test_review.py::test_the_oracle_loses_nothing_where_it_solves_exactly",
}
"""Test functions (``path::name``, every case) marked ``slow``."""

BROWSER = {"tests/server/test_browser.py", "tests/web/test_table.py", "tests/tutorials/test_browser.py",
           "tests/clubs/test_keeper_browser.py"}
"""Test files that drive Chromium (marked ``browser`` and ``slow``)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        function = item.nodeid.split("[", 1)[0]
        if function in SLOW:
            item.add_marker(pytest.mark.slow)
        if path in BROWSER:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
        if "postgresql" in item.nodeid or "postgres" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)
            item.add_marker(pytest.mark.slow)  # a cluster is started: the SQLite cases stay in
        if "test_ray_" in item.nodeid:
            item.add_marker(pytest.mark.ray)
            item.add_marker(pytest.mark.slow)
        if path in ("tests/env/test_env_openspiel.py", "kirifuda/env/openspiel.py"):
            item.add_marker(pytest.mark.openspiel)
            item.add_marker(pytest.mark.slow)  # long simulations; the shared env core stays in
