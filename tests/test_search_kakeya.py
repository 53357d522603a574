"""Kakeya's search bot: its decision rules on constructed positions, and decisions that read no
card the seat cannot see."""

from __future__ import annotations

import json
import random
from pathlib import Path

from kirifuda import record as records
from kirifuda.actions import Play
from kirifuda.bots import make_bot
from kirifuda.bots.search_kakeya import KAKEYA_BUDGETS, KakeyaSearch, _unless_clear_gain, leader_value, partner_keeps
from kirifuda.bots.search import LEVELS
from kirifuda.cards import parse_card

RUFF_CASE = Path(__file__).parent / "partner" / "conventions" / "kakeya-do-not-ruff-partners-ace.json"
PAIRS = ((0, 2), (1, 3))
D = parse_card("2D").id // 13  # ♦ as trump


def cid(code: str) -> int:
    return parse_card(code).id


def test_partner_keeps_the_cards_that_leave_partners_trick_to_it() -> None:
    trick = ((1, cid("5H")), (2, cid("AH")), (3, cid("6H")))
    legal = [cid(c) for c in ("5C", "2D", "2S")]
    assert partner_keeps(legal, trick, D, 0, PAIRS) == {cid("5C"), cid("2S")}


def test_partner_keeps_nothing_where_the_rule_does_not_apply() -> None:
    legal = [cid(c) for c in ("5C", "2D", "2S")]
    # not last to the trick
    assert partner_keeps(legal, ((1, cid("5H")), (2, cid("AH"))), D, 0, PAIRS) is None
    # the other pair is winning it (a ruff by seat 3)
    assert partner_keeps(legal, ((1, cid("5H")), (2, cid("AH")), (3, cid("3D"))), D, 0, PAIRS) is None
    # every card leaves it to partner: no choice to restrict
    no_trump = [cid(c) for c in ("5C", "2S")]
    assert partner_keeps(no_trump, ((1, cid("5H")), (2, cid("AH")), (3, cid("6H"))), D, 0, PAIRS) is None


def _plays(*codes: str) -> list[Play]:
    return [Play(parse_card(c)) for c in codes]


def test_a_take_over_needs_a_gain_clear_of_the_noise() -> None:
    plays = _plays("5C", "2D")
    keep = {cid("5C")}
    # the ruff is worth a chip more in every deal: kept as a candidate
    clear = [{cid("5C"): -1.0, cid("2D"): 0.0} for _ in range(8)]
    assert [p.card.code for p in _unless_clear_gain(plays, keep, clear)] == ["5C", "2D"]
    # a larger mean gain from one lucky deal in eight: not clear of the noise, left out
    noisy = [{cid("5C"): 0.0, cid("2D"): 0.0} for _ in range(7)] + [{cid("5C"): -4.0, cid("2D"): 4.0}]
    assert [p.card.code for p in _unless_clear_gain(plays, keep, noisy)] == ["5C"]


def test_search_keeps_v1s_budgets_and_normal_spends_more() -> None:
    assert KakeyaSearch(LEVELS["v1"]).level == LEVELS["v1"]
    normal = KakeyaSearch(LEVELS["normal"]).level
    assert (normal.play_samples, normal.play_nodes) == KAKEYA_BUDGETS["normal"]
    assert normal.play_samples * normal.play_nodes > LEVELS["v1"].play_samples * LEVELS["v1"].play_nodes


def _swap_unseen(data: dict[str, object], a: int, b: int) -> dict[str, object]:
    """The record with the unplayed cards of seats ``a`` and ``b`` exchanged."""
    out = json.loads(json.dumps(data))
    deal = out["deals"][0]
    played = {a: set(), b: set()}  # type: dict[int, set[str]]
    for act in deal["actions"]:
        if "play" in act and act["seat"] in played:
            played[act["seat"]].add(act["play"])
    hands = deal["hands"]
    rest_a = [c for c in hands[a] if c not in played[a]]
    rest_b = [c for c in hands[b] if c not in played[b]]
    hands[a] = [c for c in hands[a] if c in played[a]] + rest_b
    hands[b] = [c for c in hands[b] if c in played[b]] + rest_a
    return out


def test_the_play_reads_no_card_the_seat_cannot_see() -> None:
    data = json.loads(RUFF_CASE.read_text(encoding="utf-8"))
    other = _swap_unseen(data, 1, 3)
    assert other["deals"][0]["hands"] != data["deals"][0]["hands"]  # type: ignore[index]
    states = [records.replay(records.loads(json.dumps(d))) for d in (data, other)]
    seat = states[0].to_act
    assert seat == 0 and states[1].to_act == seat
    assert states[0].view(seat) == states[1].view(seat)
    chosen = []
    for state in states:
        chosen.append([make_bot("search", "kakeya").choose(state.view(seat), random.Random(s)) for s in range(2)])
    assert chosen[0] == chosen[1]


def _codes_mask(codes: list[str]) -> int:
    m = 0
    for c in codes:
        m |= 1 << cid(c)
    return m


def test_leader_value_counts_the_rollout_and_the_solved_rest() -> None:
    # ♦ trump: the pair (0, 2) holds every trump and every face card; the other pair only lower
    # cards of the side suits, so it can win no trick with a face card in it
    trumps = [r + "D" for r in "23456789TJQKA"]
    side_faces = [r + s for s in "SHC" for r in "AKQJ"]
    low = [r + "S" for r in "23456789"] + [r + s for s in "HC" for r in "23456789T"]
    hands = {
        0: _codes_mask(trumps[:7] + side_faces[:6]),
        2: _codes_mask(trumps[7:] + side_faces[6:] + ["TS"]),
        1: _codes_mask(low[:13]),
        3: _codes_mask(low[13:]),
    }
    assert sum(bin(h).count("1") for h in hands.values()) == 52
    for leader in (0, 1, 2, 3):
        assert leader_value(D, [0, 1, 2, 3], hands, leader, (0, 2), 4, 30_000) == 16
        assert leader_value(D, [0, 1, 2, 3], hands, leader, (1, 3), 4, 30_000) == 0


def test_the_leader_choice_reads_no_card_the_seat_cannot_see() -> None:
    from kirifuda.games.kakeya import ChooseLeader, ChooseTrump, KakeyaState, Phase

    from .conftest import redeal_unseen

    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = KakeyaState()
        state.deal_random(rng)
        while state.phase is Phase.TRUMP:
            state.apply(ChooseTrump(None), state.to_act)
        seat = state.to_act
        assert seat is not None and isinstance(state.legal_actions()[0], ChooseLeader)
        other = redeal_unseen(state, [s for s in range(4) if s != seat], rng)
        assert other is not None and other.view(seat) == state.view(seat)
        assert [state.hand(s) for s in range(4)] != [other.hand(s) for s in range(4)]
        choices = [make_bot("search", "kakeya").choose(s.view(seat), random.Random(seed)) for s in (state, other)]
        assert choices[0] == choices[1]
        checked += 1
    assert checked == 3
