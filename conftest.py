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
    "tests/server/test_practice.py::test_a_practice_table_is_checked_when_created",
    "tests/server/test_practice.py::test_undo_restores_the_exact_earlier_view_and_is_refused_in_words",
    "tests/server/test_practice.py::test_a_deal_is_played_again_from_its_start_or_a_trick",
    "tests/server/test_practice.py::test_practice_frames_show_no_hidden_card",
    "tests/server/test_practice.py::test_each_kind_holds_for_the_deal_dealt",
    "tests/server/test_practice.py::test_the_kind_is_changed_and_kept_over_a_restart",
    "tests/server/test_practice.py::test_a_practice_table_is_never_saved_to_a_club",
    # measured at 1.5 s or more on the shared 2-core machine (about 0.35 s of CPU alone): the
    # fast suite keeps the quicker cases of a parametrized test; a listed case is the id itself
    "tests/clubs/test_accounts.py::test_a_session_expires",
    "tests/clubs/test_accounts.py::test_clubs_members_presets_and_what_each_sees",
    "tests/clubs/test_accounts.py::test_login_is_rate_limited",
    "tests/clubs/test_accounts.py::test_login_logout_and_revoking_every_session",
    "tests/clubs/test_accounts.py::test_matches_ratings_profile_and_exports",
    "tests/clubs/test_accounts.py::test_sign_up_sets_a_secure_httponly_samesite_cookie_and_no_password_is_kept",
    "tests/coach/test_hint.py::test_a_hint_never_depends_on_hidden_cards[kakeya]",
    "tests/coach/test_hint.py::test_the_hint_is_the_search_bots_choice[kakeya]",
    "tests/coach/test_review.py::test_the_oracle_loses_nothing_in_meitora",
    'tests/env/test_env_bots.py::test_bots_play_whole_deals_through_evaluate_bots[kakeya-{"games": 3, "initial_trump": "S"}]',
    "tests/env/test_env_bots.py::test_bots_play_whole_deals_through_evaluate_bots[kakeya-{}]",
    "tests/env/test_env_bots.py::test_every_level_acts_legally_from_the_seat_view[search:strong-napoleon]",
    "tests/env/test_env_bots.py::test_every_level_acts_legally_from_the_seat_view[search:strong-unsun]",
    'tests/env/test_env_core.py::test_an_observation_never_encodes_a_hidden_card[napoleon-{"joker": true, "players": 4, "yoromeki": true}]',
    'tests/env/test_env_core.py::test_random_episodes_mask_and_rewards[napoleon-{"joker": true, "players": 4, "yoromeki": true}]',
    'tests/env/test_env_learning.py::test_claims_auto_claims_exactly_when_the_claim_holds[{"claim_failure": "refuse"}]',
    'tests/env/test_env_learning.py::test_scaled_observations_stay_in_small_ranges[napoleon-{"joker": true, "players": 4, "yoromeki": true}]',
    "tests/env/test_env_single_vector.py::test_vector_env_steps_as_lone_envs_do[meitora]",
    "tests/games/test_meitora_properties.py::test_a_view_never_holds_a_hidden_card",
    "tests/games/test_napoleon_reference.py::test_the_engine_agrees_with_a_plain_reading_of_the_spec[0]",
    "tests/games/test_napoleon_reference.py::test_the_engine_agrees_with_a_plain_reading_of_the_spec[1]",
    "tests/server/test_coach.py::test_a_deal_is_reviewed_only_once_it_is_over",
    "tests/server/test_coach.py::test_a_hint_for_the_seat_to_act_and_refusals_in_words",
    "tests/server/test_coach.py::test_a_hint_never_depends_on_hidden_cards[kakeya-12]",
    "tests/server/test_coach.py::test_an_uploaded_record_is_reviewed_checked_and_limited",
    "tests/server/test_coach.py::test_the_host_may_forbid_hints_and_the_setting_is_checked_and_kept",
    "tests/server/test_edge.py::test_binary_frames_deep_json_and_big_numbers_get_words",
    "tests/server/test_edge.py::test_no_client_chooses_the_deals",
    "tests/server/test_fuzz.py::test_every_http_body_and_path",
    "tests/server/test_fuzz.py::test_every_websocket_message",
    "tests/server/test_hidden.py::test_a_refused_claim_shows_the_hand_and_nothing_else",
    "tests/server/test_limits.py::test_connections_per_table_and_per_client",
    "tests/server/test_limits.py::test_deals_per_match",
    "tests/server/test_limits.py::test_frame_and_body_sizes_are_refused_before_reading",
    "tests/server/test_limits.py::test_hello_within_seconds",
    "tests/server/test_limits.py::test_idle_bot_tables_pause_and_resume",
    "tests/server/test_limits.py::test_openapi_only_when_asked",
    "tests/server/test_limits.py::test_tables_per_minute_and_open_tables_per_client",
    "tests/server/test_presence.py::test_join_and_leave_send_presence_frames",
    "tests/server/test_protocol.py::test_refusals_change_nothing",
    "tests/server/test_protocol.py::test_tables_offer_the_seatable_bots_and_refuse_the_oracle",
    "tests/server/test_serve.py::test_a_port_in_use_is_an_error_naming_it",
    "tests/server/test_serve.py::test_port_zero_takes_any_free_port",
    "tests/test_cli_play.py::test_a_stopped_match_resumes_from_its_record",
    "tests/test_cli_play.py::test_booleans_are_read_in_every_usual_form",
    "tests/test_cli_play.py::test_the_record_path_is_checked_before_the_match",
    "tests/test_doctor.py::test_doctor_on_the_command_line",
    "tests/test_doctor.py::test_with_both_cores_built_nothing_is_announced",
    "tests/test_fallback_decisions.py::test_the_python_core_decides_as_the_c_core_late_in_a_deal[meitora-5-24]",
    "tests/test_inference.py::test_partner_records[kakeya-feed-a-face-card-to-partners-rensho-search:strong]",
    "tests/test_inference.py::test_the_evaluation_gives_the_same_numbers_for_the_same_seed",
    "tests/test_inference.py::test_the_strength_table_gives_the_same_figures_for_the_same_seed",
    "tests/test_inference.py::test_weights_read_no_card_the_seat_cannot_see",
    "tests/test_scored.py::test_a_scored_deal_scores_as_the_deal_played_card_by_card[napoleon-options2]",
    "tests/test_scored.py::test_any_facts_are_scored_or_refused_with_a_record_error[kakeya-options3]",
    "tests/test_scored.py::test_replay_json_of_a_scored_match",
    "tests/test_search_bot.py::test_kakeya_decisions_do_not_depend_on_unseen_cards",
    "tests/test_search_bot.py::test_search_and_oracle_take_legal_actions_and_claim_validly",
    "tests/test_search_napoleon.py::test_the_oracle_weighs_the_spade_three_call",
    "tests/test_solver_bench.py::test_bench_prints_the_ratios_to_dds",
    "tests/test_solver_napoleon.py::test_first_trick_small_deals[default-python]",
    "tests/test_solver_napoleon.py::test_first_trick_small_deals[first_trick_plain-c]",
    "tests/test_solver_napoleon.py::test_first_trick_small_deals[first_trick_plain-python]",
    "tests/test_terminal_hidden.py::test_the_terminal_shows_nothing_the_seat_may_not_see[en-kakeya-options3]",
    "tests/test_terminal_hidden.py::test_the_terminal_shows_nothing_the_seat_may_not_see[en-kakeya-options4]",
    "tests/test_terminal_hidden.py::test_the_terminal_shows_nothing_the_seat_may_not_see[en-napoleon-options1]",
    "tests/test_terminal_hidden.py::test_the_terminal_shows_nothing_the_seat_may_not_see[en-napoleon-options2]",
    "tests/test_terminal_hidden.py::test_the_terminal_shows_nothing_the_seat_may_not_see[en-unsun-options5]",
    "tests/test_terminal_hidden.py::test_the_terminal_shows_nothing_the_seat_may_not_see[en-unsun-options6]",
    "tests/test_terminal_hidden.py::test_the_terminal_shows_nothing_the_seat_may_not_see[ja-napoleon-options1]",
    "tests/test_terminal_hidden.py::test_the_terminal_shows_nothing_the_seat_may_not_see[ja-napoleon-options2]",
    "tests/test_tournament.py::test_cli_merges_shard_summaries",
    "tests/test_tournament.py::test_scores_are_labelled_in_the_game_unit",
    "tests/tutorials/test_api.py::test_walk_the_api[kakeya]",
    "tests/tutorials/test_api.py::test_walk_the_api[meitora]",
    "tests/tutorials/test_api.py::test_walk_the_api[napoleon]",
    "tests/tutorials/test_terminal.py::test_learn_a_club_file",
    "tests/tutorials/test_terminal.py::test_learn_plays_through[kakeya-ja]",
    "tests/tutorials/test_terminal.py::test_learn_plays_through[meitora-ja]",
    "tests/tutorials/test_terminal.py::test_learn_plays_through[napoleon-en]",
    "tests/tutorials/test_terminal.py::test_learn_stops_cleanly",
    # and the next tier, at 1.6 s or more once the first was out (about 0.4 s of CPU)
    'tests/env/test_env_core.py::test_an_observation_never_encodes_a_hidden_card[meitora-{"claim_failure": "refuse"}]',
    'tests/env/test_env_core.py::test_an_observation_never_encodes_a_hidden_card[napoleon-{"players": 4}]',
    "tests/env/test_env_learning.py::test_claims_auto_claims_exactly_when_the_claim_holds[{}]",
    'tests/env/test_env_learning.py::test_recall_holds_every_card_seen_played_this_deal[napoleon-{"joker": true, "players": 4, "yoromeki": true}]',
    "tests/env/test_env_serialize.py::test_a_restored_match_state_gives_what_the_original_gives[napoleon]",
    "tests/env/test_env_single_vector.py::test_vector_env_steps_as_lone_envs_do[kakeya]",
    "tests/env/test_env_single_vector.py::test_vector_env_steps_as_lone_envs_do[unsun]",
    "tests/games/test_napoleon_reference.py::test_the_engine_agrees_with_a_plain_reading_of_the_spec[3]",
    "tests/server/test_coach.py::test_a_hint_never_depends_on_hidden_cards[meitora-0]",
    "tests/server/test_edge.py::test_a_surrogate_in_a_name_is_refused_and_nothing_freezes",
    "tests/test_scored.py::test_any_facts_are_scored_or_refused_with_a_record_error[kakeya-options4]",
    "tests/test_scored.py::test_any_facts_are_scored_or_refused_with_a_record_error[meitora-options0]",
    "tests/test_scored.py::test_any_facts_are_scored_or_refused_with_a_record_error[napoleon-options2]",
    "tests/test_scored.py::test_one_changed_fact_is_scored_or_refused_naming_it[kakeya]",
    "tests/test_scored.py::test_one_changed_fact_is_scored_or_refused_naming_it[unsun]",
    "tests/test_search_napoleon.py::test_default_level_plays_a_deal",
    "tests/test_solver_ab_tool.py::test_every_first_choice_is_searched_with_call_moves",
    "tests/test_solver_bench.py::test_dds_figures_time_the_best_card_and_every_card",
    "tests/test_terminal_hidden.py::test_the_terminal_shows_nothing_the_seat_may_not_see[ja-meitora-options0]",
    "tests/test_tournament.py::test_cli_writes_records_summary_and_json",
    "tests/tutorials/test_terminal.py::test_learn_bad_input_is_asked_again",
    "tests/tutorials/test_terminal.py::test_learn_plays_through[kakeya-en]",
    "tests/tutorials/test_terminal.py::test_learn_plays_through[meitora-en]",
    "tests/tutorials/test_terminal.py::test_learn_plays_through[napoleon-ja]",
    "tests/tutorials/test_terminal.py::test_learn_plays_through[unsun-en]",
}
"""Test functions (``path::name``, every case) or single cases (``path::name[id]``) marked
``slow``."""

BROWSER = {
    "tests/server/test_browser.py",
    "tests/web/test_table.py",
    "tests/tutorials/test_browser.py",
    "tests/clubs/test_keeper_browser.py",
    "tests/clubs/test_clubs_browser.py",
    "tests/web/test_practice.py",
}
"""Test files that drive Chromium (marked ``browser`` and ``slow``), besides every test that
uses the shared ``browser`` fixture (``tests/conftest.py``)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        function = item.nodeid.split("[", 1)[0]
        if function in SLOW or item.nodeid in SLOW:
            item.add_marker(pytest.mark.slow)
        if path in BROWSER or "browser" in getattr(item, "fixturenames", ()):
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
