"""Meitora, rule by rule against ``docs/meitora.md`` (section numbers in the names)."""

from __future__ import annotations

import json
import random

import pytest

from kirifuda.actions import CLAIM, PASS, Bid, Chombo, Discard, Play
from kirifuda.games.meitora import BROKEN
from kirifuda.cards import JOKER, parse_card, parse_cards
from kirifuda.errors import DealError, IllegalActionError, OptionError
from kirifuda.games import find_game
from kirifuda.games.meitora import DECK, MeitoraOptions, MeitoraState, Phase, is_weak_hand, trick_winner
from kirifuda.tricks import Trick


def C(code: str):
    return parse_card(code)


def cards(text: str):
    return list(parse_cards(text.split()))


def deal(state: MeitoraState, hands: dict[int, str], agari: str | None = None) -> list[list[str]]:
    """Deal the given hands; seats left out get the remaining cards in deck order."""
    given = {s: cards(h) for s, h in hands.items()}
    used = {c for h in given.values() for c in h}
    if agari is not None:
        used.add(C(agari))
    rest = [c for c in DECK if c not in used]
    out: list[list] = []
    for seat in range(4):
        if seat in given:
            out.append(given[seat])
        else:
            out.append(rest[:10])
            rest = rest[10:]
    if agari is None:
        agari_card = rest[0]
        rest = rest[1:]
    else:
        agari_card = C(agari)
    assert not rest, rest
    state.deal([[c.code for c in h] for h in out], [agari_card.code])
    return [[c.code for c in h] for h in out]


def play_to(state: MeitoraState, *codes: str) -> None:
    for code in codes:
        if code.startswith("JK:"):
            state.apply(Play(JOKER, code[3:]))
        else:
            state.apply(Play(C(code)))


def bid_round(state: MeitoraState, *bids: str) -> None:
    for b in bids:
        if b == "pass":
            state.apply(PASS)
        elif b == "broken":
            state.apply(BROKEN)
        else:
            state.apply(Bid(int(b[:-1]), b[-1]))


# A hand layout used by many tests: seat 0 strong in hearts.
HEARTS_DEAL = {
    0: "JK JH JD AH KH QH TH AS AC AD",
    1: "9H 8H 7H KS QS TS 9S KC QC TC",
    2: "6H 5H JS 8S 7S 6S 5S 9C 8C 7C",
    3: "KD QD TD 9D 8D 7D 6D 5D JC 6C",
}  # agari 5C


def hearts_game(**options) -> MeitoraState:
    s = MeitoraState(MeitoraOptions(**options))
    deal(s, HEARTS_DEAL, agari="5C")
    return s


# -- §1 deck and options ---------------------------------------------------------------------


def test_1_deck_is_41_cards_a_to_5_and_the_joker():
    assert len(DECK) == 41 and len(set(DECK)) == 41
    assert JOKER in DECK
    assert {c.rank for c in DECK if not c.is_joker} == set(range(5, 15))


def test_10_options_defaults_and_errors():
    o = MeitoraOptions()
    assert (o.target, o.claim_failure, o.joker_lead) == (17, "chombo", "request")
    info = find_game("meitora")
    with pytest.raises(OptionError, match="unknown option"):
        info.options({"targett": 3})
    with pytest.raises(OptionError, match="claim_failure"):
        info.options({"claim_failure": "ignore"})
    with pytest.raises(OptionError, match="target"):
        info.options({"target": 0})
    with pytest.raises(OptionError, match="target"):
        info.options({"target": "17"})


def test_2_deal_is_checked():
    s = MeitoraState()
    hands = [[c.code for c in DECK[i * 10 : (i + 1) * 10]] for i in range(4)]
    with pytest.raises(DealError, match="twice"):
        s.deal([hands[0], hands[1], hands[2], hands[3][:-1] + [hands[0][0]]], [DECK[40].code])
    with pytest.raises(DealError, match="10 cards"):
        s.deal([hands[0][:9], hands[1], hands[2], hands[3]], [DECK[40].code])
    with pytest.raises(DealError, match="not a card of this game"):
        s.deal([hands[0][:9] + ["2S"], hands[1], hands[2], hands[3]], [DECK[40].code])
    assert s.phase is Phase.DEAL  # nothing dealt
    s.deal(hands, [DECK[40].code])
    assert s.phase is Phase.BIDDING


# -- §3 bidding ------------------------------------------------------------------------------


def test_3_one_round_from_the_first_bidder():
    s = MeitoraState(first=2)
    deal(s, HEARTS_DEAL, agari="5C")
    assert s.to_act == 2
    bid_round(s, "6S", "pass", "7C")
    assert s.to_act == 1  # the fourth to act, 吹き上げ
    bid_round(s, "pass")
    assert s.phase is Phase.DISCARD and s.declarer == 0 and s.contract == Bid(7, "C")


def test_3_a_bid_must_be_stronger_strain_order_S_C_D_H_N():
    s = hearts_game()
    bid_round(s, "7C")
    assert not s.is_legal(Bid(7, "S"))
    assert not s.is_legal(Bid(7, "C"))
    assert s.is_legal(Bid(7, "D")) and s.is_legal(Bid(7, "H")) and s.is_legal(Bid(7, "N"))
    assert s.is_legal(Bid(8, "S"))
    with pytest.raises(IllegalActionError, match="not stronger than the highest bid 7C"):
        s.apply(Bid(6, "N"))


def test_3_counts_are_6_to_10():
    s = hearts_game()
    assert s.is_legal(Bid(6, "S")) and s.is_legal(Bid(10, "N"))
    for bad in (Bid(5, "N"), Bid(11, "S")):
        with pytest.raises(IllegalActionError, match="6–10"):
            s.apply(bad)


def test_3_all_pass_is_void_and_the_first_bidder_moves_on():
    s = hearts_game()
    bid_round(s, "pass", "pass", "pass", "pass")
    assert s.phase is Phase.DEAL
    d = s.summary()["deals"][0]
    assert d["outcome"] == "redeal" and d["score"] == [0, 0] and d["broken"] is None
    assert d["declarer"] is None and d["team_tricks"] is None
    assert s.first_bidder == 1


@pytest.mark.parametrize(
    ("hand", "weak"),
    [
        ("9S 8S 7S 6S 5S 9H 8H 7H 6H 5H", True),  # no A K Q J
        ("QS 8S 7S 6S 5S 9H 8H 7H 6H 5H", True),  # a single Q only
        ("QS JK 7S 6S 5S 9H 8H 7H 6H 5H", True),  # the joker may be held
        ("KS 8S 7S 6S 5S 9H 8H 7H 6H 5H", False),  # a K
        ("QS QH 7S 6S 5S 9H 8H 7H 6H 5H", False),  # two Qs
        ("QS JH 7S 6S 5S 9H 8H 7H 6H 5H", False),  # Q and J
        ("AS 8S 7S 6S 5S 9H 8H 7H 6H 5H", False),
    ],
)
def test_3_weak_hand(hand, weak):
    assert is_weak_hand(cards(hand)) is weak
    s = MeitoraState(first=1)
    deal(s, {1: hand})
    assert (BROKEN in s.legal_actions()) is weak


def test_3_broken_refused_for_a_hand_with_honours():
    s = MeitoraState(first=0)
    deal(s, HEARTS_DEAL, agari="5C")
    with pytest.raises(IllegalActionError, match="broken needs"):
        s.apply(BROKEN)
    assert s.to_act == 0 and s.phase is Phase.BIDDING


def test_3_weak_hand_broken_by_the_eligible_seat():
    s = MeitoraState(first=1)
    deal(s, {2: "QS 8S 7S 6S 5S 9H 8H 7H 6H 5H"})
    bid_round(s, "7H", "broken")
    d = s.summary()["deals"][0]
    assert d["outcome"] == "redeal" and d["broken"] == 2 and d["score"] == [0, 0]
    assert d["declarer"] is None
    assert s.first_bidder == 1 and s.phase is Phase.DEAL
    assert s.view(0).last_deal["hands"][2] == ["QS", "8S", "7S", "6S", "5S", "9H", "8H", "7H", "6H", "5H"]


def test_3_broken_only_at_the_seats_own_bidding_turn():
    s = MeitoraState(first=0)
    deal(s, {2: "QS 8S 7S 6S 5S 9H 8H 7H 6H 5H"})
    assert BROKEN not in s.legal_actions()  # seat 0 is to act; seat 0 is not weak
    with pytest.raises(IllegalActionError):
        s.apply(BROKEN, seat=2)


def test_3_four_jacks_at_the_deal_is_an_automatic_redeal():
    s = MeitoraState(first=3)
    deal(s, {1: "JS JH JD JC AS KS QS AH KH QH"})
    assert s.phase is Phase.DEAL and s.to_act is None
    d = s.summary()["deals"][0]
    assert d["outcome"] == "redeal" and d["broken"] == 1 and d["tricks"] == []
    assert s.first_bidder == 3  # stays after a broken deal


def test_3_four_jacks_after_taking_the_agari():
    s = MeitoraState(first=0)
    deal(s, {0: "JS JH JD AS KS QS AH KH QH AD"}, agari="JC")
    bid_round(s, "8N", "pass", "pass", "pass")
    assert s.phase is Phase.DEAL
    d = s.summary()["deals"][0]
    assert d["outcome"] == "redeal" and d["broken"] == 0 and d["score"] == [0, 0]
    # the bidding did decide a declarer and a contract: the record keeps them (issue #22)
    assert d["declarer"] == 0 and d["contract"] == "8N" and d["team_tricks"] == [0, 0]
    assert s.first_bidder == 0


# -- §4 agari and negri ----------------------------------------------------------------------


def test_4_declarer_takes_the_agari_and_discards_any_one_card():
    s = hearts_game()
    bid_round(s, "7H", "pass", "pass", "pass")
    assert s.phase is Phase.DISCARD and s.to_act == 0
    assert len(s.hand(0)) == 11 and C("5C") in s.hand(0)
    discards = s.legal_actions()
    assert len(discards) == 11 and Discard((JOKER,)) in discards  # the joker too
    with pytest.raises(IllegalActionError, match="negri"):
        s.apply(Discard((C("9H"),)))  # not in the declarer's hand
    s.apply(Discard((C("5C"),)))
    assert s.phase is Phase.PLAY and s.to_act == 0 and len(s.hand(0)) == 10


def test_4_agari_and_negri_are_seen_by_the_declarer_only():
    s = hearts_game()
    bid_round(s, "7H", "pass", "pass", "pass")
    assert s.view(0).agari == C("5C")
    assert all(s.view(x).agari is None for x in (1, 2, 3, None))
    s.apply(Discard((C("AD"),)))
    assert s.view(0).negri == C("AD")
    for x in (1, 2, 3, None):
        v = json.dumps(s.view(x).to_json())
        assert '"AD"' not in v and '"5C"' not in v


# -- §5 card order ---------------------------------------------------------------------------


def T(leader: int, codes: str) -> Trick:
    return Trick(leader, tuple(((leader + i) % 4, C(c)) for i, c in enumerate(codes.split())))


@pytest.mark.parametrize(
    ("strain", "trick", "winner"),
    [
        ("H", "AH KH QH JH", 3),  # right jack over the ace
        ("H", "AH KH JD QH", 2),  # left jack (♦J) over the ace
        ("H", "JD JH 5H AH", 1),  # right over left
        ("H", "JH JK 5H AH", 1),  # the joker over everything
        ("H", "AS KS 5H QS", 2),  # a low trump beats the led suit
        ("H", "AS KS AD QS", 0),  # another suit never wins
        ("H", "KD AD JD 5D", 2),  # the left jack is a trump: it beats the diamond lead
        ("S", "9C JC 5C AC", 1),  # spades trump: ♣J is the left jack, a trump
        ("C", "AS JS KS QS", 1),  # clubs trump: ♠J is the left jack
        ("N", "QS JS KS 5S", 2),  # no-trump: J ranks between Q and T
        ("N", "5S AH AD AC", 0),  # no-trump: off-suit never wins
        ("N", "5S JK AS KS", 1),  # the joker wins in no-trump too
        ("D", "TD 9D 8D JH", 3),  # diamonds trump: ♥J left jack
    ],
)
def test_5_trick_winner(strain, trick, winner):
    assert trick_winner(T(0, trick), strain) == winner


def test_5_joker_request_sets_the_led_suit():
    # joker led asking for clubs: the highest club (or trump) is irrelevant: the joker wins
    assert trick_winner(T(2, "JK 5C AC KH"), "H", request="C") == 2


# -- §6 play ---------------------------------------------------------------------------------


def play_phase(discard: str = "5C", **options) -> MeitoraState:
    s = hearts_game(**options)
    bid_round(s, "7H", "pass", "pass", "pass")
    s.apply(Discard((C(discard),)))
    return s


def legal_cards(s: MeitoraState) -> set[str]:
    return {a.card.code for a in s.legal_actions() if isinstance(a, Play)}


def test_6_declarer_leads_and_the_winner_leads_next():
    s = play_phase()
    assert s.to_act == 0
    play_to(s, "AS", "KS", "JS", "KD")
    assert s.tricks[-1][1] == 0 and s.to_act == 0
    play_to(s, "AC")
    assert s.to_act == 1


def test_6_must_follow_or_joker():
    s = play_phase()
    play_to(s, "AH")  # hearts (trump) led
    assert legal_cards(s) == {"9H", "8H", "7H"}
    with pytest.raises(IllegalActionError, match="must follow"):
        s.apply(Play(C("KS")))
    play_to(s, "7H")
    assert legal_cards(s) == {"6H", "5H"}
    play_to(s, "5H")
    # seat 3 has no hearts and no left jack (♦J is with seat 0): any card
    assert legal_cards(s) == {"KD", "QD", "TD", "9D", "8D", "7D", "6D", "5D", "JC", "6C"}


def test_6_joker_may_be_played_to_any_trick():
    s = MeitoraState()
    deal(s, {0: "AS KS QS JS TS 9S 8S 7S 6S KH", 1: "JK AH 5H 6H 7H 8H 9H TH JH QH"}, agari="5S")
    bid_round(s, "6S", "pass", "pass", "pass")
    s.apply(Discard((C("5S"),)))
    play_to(s, "KH")  # seat 1 holds hearts: a heart, or the joker
    assert legal_cards(s) == {"JK", "AH", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH"}


def test_6_joker_is_a_trump_a_player_whose_only_trump_is_the_joker_must_play_it():
    s = MeitoraState()
    deal(s, {0: "AH KH QH TH 9H 8H 7H 6H 5H AS", 1: "JK KS QS TS 9S 8S 7S 6S 5S AC"}, agari="KC")
    bid_round(s, "6H", "pass", "pass", "pass")
    s.apply(Discard((C("KC"),)))
    play_to(s, "AH")
    assert legal_cards(s) == {"JK"}


def test_6_left_jack_follows_trump_not_its_printed_suit():
    # hearts trump; seat 1 holds ♦J (the left jack) and other diamonds
    s = MeitoraState()
    deal(s, {0: "AD KD QD AH KH QH TH 9H AS KS", 1: "JD 5D 6D 7D 5S 6S 7S 8S 9S TS"}, agari="5C")
    bid_round(s, "6H", "pass", "pass", "pass")
    s.apply(Discard((C("5C"),)))
    play_to(s, "AD")  # diamonds led: ♦J is not a diamond
    assert legal_cards(s) == {"5D", "6D", "7D"}
    s2 = MeitoraState()
    deal(s2, {0: "AD KD QD AH KH QH TH 9H AS KS", 1: "JD 5D 6D 7D 5S 6S 7S 8S 9S TS"}, agari="5C")
    bid_round(s2, "6H", "pass", "pass", "pass")
    s2.apply(Discard((C("5C"),)))
    play_to(s2, "AH")  # trump led: the left jack is seat 1's only trump
    assert legal_cards(s2) == {"JD"}


def test_6_a_left_jack_lead_asks_for_trumps():
    # hearts trump: ♦J led is a trump lead; seat 1 (diamonds, no hearts) plays anything,
    # seat 2 must play its heart
    s = MeitoraState()
    deal(
        s,
        {0: "JD AS KS QS AH KH QH TH 9H 8H", 1: "5D 6D 7D 8D 5S 6S 7S 8S 9S TS", 2: "7H 5C 6C 7C 8C 9C TC JC QC KC"},
        agari="AC",
    )
    bid_round(s, "6H", "pass", "pass", "pass")
    s.apply(Discard((C("AC"),)))
    play_to(s, "JD")
    assert "5S" in legal_cards(s) and len(legal_cards(s)) == 10
    play_to(s, "5D")
    assert legal_cards(s) == {"7H"}
    with pytest.raises(IllegalActionError, match="must follow"):
        s.apply(Play(C("5C")))


def test_6_a_request_for_the_left_jacks_printed_suit_leaves_the_left_jack_out():
    # hearts trump, the joker asks for diamonds: ♦J is a trump, not a diamond, so its holder
    # (no other diamond) may play anything
    s = MeitoraState()
    deal(s, {0: "JK AS KS QS AH KH QH TH 9H 8H", 1: "JD 5C 6C 7C 5S 6S 7S 8S 9S TS"}, agari="AC")
    bid_round(s, "6H", "pass", "pass", "pass")
    s.apply(Discard((C("AC"),)))
    play_to(s, "JK:D")
    assert len(legal_cards(s)) == 10


def test_6_a_joker_played_to_follow_carries_no_request():
    s = MeitoraState()
    deal(s, {0: "AS KS QS JS TS 9S 8S 7S 6S KH", 1: "JK AH 5H 6H 7H 8H 9H TH JH QH"}, agari="5S")
    bid_round(s, "6S", "pass", "pass", "pass")
    s.apply(Discard((C("5S"),)))
    play_to(s, "KH")
    with pytest.raises(IllegalActionError, match="only a joker lead carries a request"):
        s.apply(Play(JOKER, "H"))
    s.apply(Play(JOKER))
    assert s.view(2).trick.plays[-1][1] == JOKER


@pytest.mark.parametrize(
    ("req", "expected"),
    [
        ("S", {"KS", "QS", "TS", "9S"}),
        ("H", {"9H", "8H", "7H"}),
        ("C", {"KC", "QC", "TC"}),
        ("any", {"9H", "8H", "7H", "KS", "QS", "TS", "9S", "KC", "QC", "TC"}),
    ],
)
def test_6_joker_lead_request(req, expected):
    s = play_phase()
    assert s.is_legal(Play(JOKER, req))
    with pytest.raises(IllegalActionError, match="names a request"):
        s.apply(Play(JOKER))
    s.apply(Play(JOKER, req))
    assert legal_cards(s) == expected
    assert s.view(1).joker_request == req


def test_6_joker_lead_requesting_trump_includes_the_left_jack():
    s = MeitoraState()
    deal(s, {0: "JK AS KS QS AH KH QH TH 9H 8H", 1: "JD 5D 6D 7D 5S 6S 7S 8S 9S TS"}, agari="5C")
    bid_round(s, "6H", "pass", "pass", "pass")
    s.apply(Discard((C("5C"),)))
    s.apply(Play(JOKER, "H"))
    assert legal_cards(s) == {"JD"}


def test_6_joker_lead_trump_option():
    s = play_phase(joker_lead="trump")
    assert s.is_legal(Play(JOKER)) and not s.is_legal(Play(JOKER, "S"))
    s.apply(Play(JOKER))
    assert legal_cards(s) == {"9H", "8H", "7H"}  # asks for trump


def test_6_joker_lead_trump_option_in_no_trump_asks_for_nothing():
    s = MeitoraState(MeitoraOptions(joker_lead="trump"))
    deal(s, {0: "JK AS KS QS AH KH QH TH 9H 8H", 1: "JD 5C 6C 7C 5S 6S 7S 8S 9S TS"}, agari="AC")
    bid_round(s, "6N", "pass", "pass", "pass")
    s.apply(Discard((C("AC"),)))
    assert s.is_legal(Play(JOKER)) and not s.is_legal(Play(JOKER, "any"))
    play_to(s, "JK")
    assert len(legal_cards(s)) == 10  # seat 1 holds spades, yet may play anything


def test_6_joker_must_be_played_in_trick_9():
    s = MeitoraState()
    deal(s, {0: "JC AS KS QS JS TS 9S 8S 7S 6S", 1: "JK 5H 6H 7H 8H 9H TH JH QH KH"}, agari="AH")
    bid_round(s, "6N", "pass", "pass", "pass")
    s.apply(Discard((C("AH"),)))
    # no-trump: seat 0 wins eight spade tricks; seat 1 throws hearts and keeps the joker
    for k in range(8):
        lead = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"][k]
        play_to(s, lead)
        heart = ["5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH"][k]
        assert "JK" in legal_cards(s)
        play_to(s, heart)
        for _ in range(2):
            s.apply(next(a for a in s.legal_actions() if isinstance(a, Play)))
        assert s.to_act == 0
    play_to(s, "6S")
    assert legal_cards(s) == {"JK"}  # trick 9: seat 1 holds JK and KH
    with pytest.raises(IllegalActionError, match="trick 9"):
        s.apply(Play(C("KH")))


def test_6_joker_must_be_led_in_trick_9_by_the_leader_who_holds_it():
    s = MeitoraState()
    deal(s, {0: "AS KS QS JS TS 9S 8S 7S JK KH"}, agari="AH")
    bid_round(s, "6N", "pass", "pass", "pass")
    s.apply(Discard((C("AH"),)))
    for lead in ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"):
        play_to(s, lead)
        for _ in range(3):
            s.apply(next(a for a in s.legal_actions() if isinstance(a, Play)))
        assert s.to_act == 0  # seat 0 holds every spade above the others'
    assert legal_cards(s) == {"JK"}
    assert s.is_legal(Play(JOKER, "any")) and not s.is_legal(Play(C("KH")))
    with pytest.raises(IllegalActionError, match="trick 9"):
        s.apply(Play(C("KH")))


# -- §6 claims (オープン) ---------------------------------------------------------------------


def claim_deal(**options) -> MeitoraState:
    """Seat 0 holds every top trump and the joker: a claim from the first lead is valid."""
    s = MeitoraState(MeitoraOptions(**options))
    deal(s, {0: "JK JH JD AH KH QH TH 9H 8H 7H"}, agari="6H")
    bid_round(s, "10H", "pass", "pass", "pass")
    s.apply(Discard((C("6H"),)))
    return s


def test_6_valid_claim_takes_every_remaining_trick():
    s = claim_deal()
    s.apply(CLAIM)
    d = s.summary()["deals"][0]
    assert d["outcome"] == "played" and d["tricks"] == [] and d["team_tricks"] == [10, 0]
    assert d["score"] == [5, 0]  # 10 bid, 10 taken: 10 − 5


def test_6_claim_mid_deal_counts_the_tricks_already_taken():
    s = claim_deal()
    play_to(s, "JK:H")
    for _ in range(3):
        s.apply(next(a for a in s.legal_actions() if isinstance(a, Play)))
    assert s.to_act == 0
    s.apply(CLAIM)
    d = s.summary()["deals"][0]
    assert len(d["tricks"]) == 1 and d["team_tricks"] == [10, 0]


def test_6_invalid_claim_is_a_chombo_by_default():
    s = play_phase(discard="AD")  # seat 0 keeps ♣5: anyone with a higher club beats it
    s.apply(CLAIM)
    d = s.summary()["deals"][0]
    assert d["outcome"] == "chombo" and d["score"] == [0, 5] and d["chombo"] == 0
    assert d["failed_claim"] is True
    assert s.totals == (0, 5)
    assert s.first_bidder == 1  # a chombo deal is not a broken deal


def test_6_invalid_claim_refused_under_claim_failure_refuse():
    s = play_phase(discard="AD", claim_failure="refuse")
    assert CLAIM not in s.legal_actions()
    before = json.dumps(s.summary())
    with pytest.raises(IllegalActionError, match="claim is not valid"):
        s.apply(CLAIM)
    assert json.dumps(s.summary()) == before and s.to_act == 0
    s2 = claim_deal(claim_failure="refuse")
    assert CLAIM in s2.legal_actions()


def test_6_refuse_offers_the_claim_in_every_view_whether_it_holds_or_not():
    """Under claim_failure=refuse the view offers the claim at every turn (as an attempt):
    offering it only when it holds would tell the seat about the other hands."""
    from kirifuda.bots.random import RandomBot

    invalid = play_phase(discard="AD", claim_failure="refuse")
    valid = claim_deal(claim_failure="refuse")
    for s in (invalid, valid):
        v = s.view(0)
        assert v.legal_actions[-1] == CLAIM and v.attempts == (CLAIM,)
        assert CLAIM not in s.view(1).legal_actions and s.view(1).attempts == ()
        # the random bot takes only actions that cannot be refused
        assert all(RandomBot().choose(v, random.Random(i)) != CLAIM for i in range(60))
    assert CLAIM in valid.legal_actions() and CLAIM not in invalid.legal_actions()
    # under the default (chombo) a claim is simply legal: no attempts
    assert play_phase(discard="AD").view(0).attempts == ()


def test_6_claim_must_hold_against_the_partner_too():
    # the partner holds the joker, which takes any trick: the claim fails
    s = MeitoraState()
    deal(s, {0: "JH JD AH KH QH TH 9H 8H 7H 6H", 2: "JK 5S 6S 7S 8S 9S TS 5D 6D 7D"}, agari="5H")
    bid_round(s, "10H", "pass", "pass", "pass")
    s.apply(Discard((C("5H"),)))
    s.apply(CLAIM)
    assert s.summary()["deals"][0]["outcome"] == "chombo"


def test_6_claim_depends_on_the_order_of_play():
    # seat 1 is void in spades and holds ♥9: leading ♠A first loses a trick, drawing trumps
    # first wins them all. A claim is valid if SOME order wins every trick.
    s = MeitoraState()
    deal(
        s,
        {
            0: "JK JH JD AH KH QH TH AS KS QS",
            1: "9H 5C 6C 7C 8C 9C TC JC QC KC",
            2: "JS TS 9S 8S 7S 6S 5S 5D 6D 7D",
            3: "AD KD QD TD 9D 8D AC 8H 7H 6H",
        },
        agari="5H",
    )
    bid_round(s, "10H", "pass", "pass", "pass")
    s.apply(Discard((C("5H"),)))
    s.apply(CLAIM)
    d = s.summary()["deals"][0]
    assert d["outcome"] == "played" and d["team_tricks"] == [10, 0]


def test_6_a_failed_claim_while_following_is_a_chombo_by_the_claimant():
    # spades trump; seat 0 leads ♣A and seat 1, void in clubs, claims: its joker wins this
    # trick and its hearts are the best, but seat 0 (no hearts) ruffs a heart with a spade
    s = MeitoraState()
    deal(
        s,
        {0: "AC 5S 6S 7S 8S 9S TS 5D 6D 7D", 1: "JK JH JD AH KH QH TH 9H 8H 7H", 2: "KC QC JC TC 9C 8C 7C 6C 5H 6H"},
        agari="5C",
    )
    bid_round(s, "6S", "pass", "pass", "pass")
    s.apply(Discard((C("5C"),)))
    play_to(s, "AC")
    assert s.to_act == 1
    s.apply(CLAIM)
    d = s.summary()["deals"][0]
    assert d["outcome"] == "chombo" and d["chombo"] == 1 and d["failed_claim"] is True
    assert d["score"] == [5, 0]


def test_6_a_valid_claim_while_following():
    # no-trump; seat 0 leads ♣5; seat 1 holds the joker and every other top card of its suits
    s = MeitoraState()
    deal(
        s,
        {0: "5C 5S 6S 7S 8S 9S 5D 6D 7D 8D", 1: "JK AC KC AH KH QH JH TH 9H 8H", 2: "QC JC TC 9C 8C 7C 6C 5H 6H 7H"},
        agari="9D",
    )
    bid_round(s, "6N", "pass", "pass", "pass")
    s.apply(Discard((C("9D"),)))
    play_to(s, "5C")
    s.apply(CLAIM)  # the joker (or ♣A) wins this trick, then hearts and ♣K, ♣A: all of them
    d = s.summary()["deals"][0]
    assert d["outcome"] == "played" and d["team_tricks"] == [0, 10] and d["tricks"] == []
    assert d["score"] == [0, 6]  # 6N set by 6: 6 − 0 to team 1


def test_6_a_claim_fails_when_the_current_trick_is_already_lost():
    # seat 0 leads the joker; seat 1 holds the best of everything else but cannot win this trick
    s = MeitoraState()
    deal(s, {0: "JK 5S 6S 7S 8S 9S 5D 6D 7D 8D", 1: "AC KC QC AH KH QH JH TH 9H 8H"}, agari="9D")
    bid_round(s, "6N", "pass", "pass", "pass")
    s.apply(Discard((C("9D"),)))
    play_to(s, "JK:any")
    s.apply(CLAIM)
    assert s.summary()["deals"][0]["outcome"] == "chombo"


# -- §7 scoring ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "y", "made", "points"),
    [
        (7, 7, True, 2),
        (7, 8, True, 2.5),
        (8, 10, True, 4),
        (6, 6, True, 1),
        (10, 10, True, 5),
        (7, 6, False, 1),
        (9, 5, False, 4),
        (10, 0, False, 10),
    ],
)
def test_7_scoring_formula(x, y, made, points):
    from kirifuda.games.meitora import BIDS, MeitoraState as MS

    s = MS()
    s._high = BIDS.index(Bid(x, "H"))
    s._declarer = 1
    s._bid_turns = 4
    s._phase = Phase.PLAY
    s._team_tricks = [10 - y, y]
    s._score_played()
    d = s.summary()["deals"][-1]
    assert d["score"] == ([0, points] if made else [points, 0])
    assert isinstance(d["score"][1 if made else 0], float) == (points != int(points))


@pytest.mark.parametrize(("bid", "points"), [("8H", 4), ("7H", 3.5), ("10H", 5)])
def test_7_made_through_play(bid, points):
    # the claim deal: seat 0 takes all 10 tricks ("8 bid, 10 taken: 4 points")
    s = MeitoraState()
    deal(s, {0: "JK JH JD AH KH QH TH 9H 8H 7H"}, agari="6H")
    bid_round(s, bid, "pass", "pass", "pass")
    s.apply(Discard((C("6H"),)))
    s.apply(CLAIM)
    assert s.summary()["deals"][0]["score"] == [points, 0]
    assert s.totals == (points, 0)


def test_6_the_hearts_deal_claim_is_valid_by_drawing_trumps():
    s = play_phase()  # seat 0: 7 trumps against 5 lower ones, and three side aces
    s.apply(CLAIM)
    d = s.summary()["deals"][0]
    assert d["outcome"] == "played" and d["team_tricks"] == [10, 0] and d["score"] == [3.5, 0]


# -- §8 chombo -------------------------------------------------------------------------------


@pytest.mark.parametrize("when", ["bidding", "discard", "play"])
def test_8_referee_chombo_at_any_point_of_the_deal(when):
    s = hearts_game()
    if when != "bidding":
        bid_round(s, "7H", "pass", "pass", "pass")
    if when == "play":
        s.apply(Discard((C("5C"),)))
        play_to(s, "AS")
    s.apply(Chombo(3, "played against the joker request"))
    d = s.summary()["deals"][0]
    assert d["outcome"] == "chombo" and d["score"] == [5, 0] and d["chombo"] == 3
    assert d["failed_claim"] is False
    assert s.phase is Phase.DEAL and s.first_bidder == 1


def test_8_chombo_needs_a_deal_in_progress():
    s = MeitoraState()
    with pytest.raises(IllegalActionError, match="during a deal"):
        s.apply(Chombo(0, "x"))


# -- §9 match --------------------------------------------------------------------------------


def test_9_match_ends_at_the_target():
    s = MeitoraState(MeitoraOptions(target=5))
    for _ in range(1):
        deal(s, HEARTS_DEAL, agari="5C")
        s.apply(Chombo(1, "x"))  # 5 points to team 0
    assert s.is_over and s.outcome().winner == 0 and s.outcome().totals == (5, 0)
    summary = s.summary()
    assert summary["finished"] and summary["winner"] == 0
    with pytest.raises(IllegalActionError, match="match is over"):
        deal(s, HEARTS_DEAL, agari="5C")


def test_9_first_bidder_rotation_over_deals():
    s = MeitoraState(MeitoraOptions(target=50), first=1)
    deal(s, HEARTS_DEAL, agari="5C")
    assert s.to_act == 1
    bid_round(s, "pass", "pass", "pass", "pass")  # all pass: moves on
    deal(s, HEARTS_DEAL, agari="5C")
    assert s.to_act == 2
    s.apply(Chombo(0, "x"))  # chombo: moves on
    deal(s, {3: "QS 8S 7S 6S 5S 9H 8H 7H 6H 5H"})
    assert s.to_act == 3
    s.apply(BROKEN)  # broken: stays
    deal(s, HEARTS_DEAL, agari="5C")
    assert s.to_act == 3


# -- views -----------------------------------------------------------------------------------


def test_views_hide_the_other_hands_and_the_other_teams_tricks():
    s = play_phase()
    play_to(s, "AS", "KS", "JS", "KD")  # team 0 wins
    play_to(s, "AC", "QC", "9C", "JC")  # ♣A wins (♣J is no trump under hearts)
    v1 = s.view(1)
    assert v1.hand == s.hand(1)
    assert v1.own_team_tricks == ()  # team 1 has taken nothing
    assert v1.team_tricks == s.team_tricks
    v0 = s.view(0)
    assert len(v0.own_team_tricks) == 2
    # the last trick is visible until the next card is played
    assert v1.last_trick is not None
    play_to(s, "AD")
    v1 = s.view(1)
    assert v1.last_trick is None
    text = json.dumps(v1.to_json())
    for code in ("AS", "KS", "JS", "KD"):  # team 0's first trick, now face down
        assert f'"{code}"' not in text


def test_views_show_a_joker_leads_request_with_the_trick_it_led():
    """The request is public: it stays with the trick just taken (until the next card) and
    with the taking team's own tricks; the other team sees neither once the trick is turned."""
    s = play_phase()
    play_to(s, "JK:C", "KC", "9C", "6C")  # seat 0's joker asks for clubs: team 0 takes it
    for seat in range(4):
        v = s.view(seat)
        assert v.last_trick is not None and v.last_trick.plays[0][1] == JOKER
        assert v.last_trick_request == "C"
    assert s.view(0).own_team_requests == ("C",) and s.view(2).own_team_requests == ("C",)
    assert s.view(1).own_team_requests == ()
    play_to(s, "AS", "KS", "JS", "KD")  # the next trick: the joker's is only team 0's now
    v0, v1 = s.view(0), s.view(1)
    assert v0.last_trick_request is None and v1.last_trick_request is None
    assert v0.own_team_requests == ("C", None)
    assert v1.own_team_requests == ()
    assert json.loads(json.dumps(v0.to_json()))["own_team_requests"] == ["C", None]


def test_views_show_no_request_under_joker_lead_trump():
    s = play_phase(joker_lead="trump")
    play_to(s, "JK", "9H", "6H")
    play_to(s, "KD")
    v = s.view(1)
    assert v.last_trick is not None and v.last_trick_request is None
    assert s.view(0).own_team_requests == (None,)


def test_views_refuse_a_seat_that_is_not_at_the_table():
    s = hearts_game()
    with pytest.raises(ValueError):
        s.view(4)
