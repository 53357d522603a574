"""Napoleon, rule by rule against ``docs/napoleon.md``, with hand-built deals."""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Sequence

import pytest
from hypothesis import given, settings, strategies as st

from kirifuda import record as records
from kirifuda.actions import PASS, Bid, Discard, Play
from kirifuda.games.napoleon import Adjutant, Approve, Redeclare
from kirifuda.bots import make_bot
from kirifuda.cards import CARDS, JOKER, parse_card
from kirifuda.errors import DealError, IllegalActionError, OptionError
from kirifuda.games import GAMES, find_game
from kirifuda.games.napoleon import (
    FACE_MASK,
    NapoleonOptions,
    NapoleonState,
    Phase,
    deal_points,
    napoleon_army_wins,
    trick_winner,
)


def c(code: str) -> Any:
    return parse_card(code)


def ids(*codes: str) -> list[int]:
    return [c(x).id for x in codes]


def P(code: str, **kw: Any) -> Play:
    return Play(c(code), **kw)


S, H, D, C = 0, 1, 2, 3


# ---------------------------------------------------------------------------------------
# building deals


def make_deal(
    players: int = 5,
    joker: bool = False,
    fixed: dict[int, Sequence[str]] | None = None,
    middle: Sequence[str] | None = None,
) -> tuple[list[list[str]], list[str]]:
    """Hands with the given cards, the rest of the deck filled in order; the middle as given
    (or the last cards left)."""
    fixed = fixed or {}
    size = 10 if players == 5 else 12
    deck = [card.code for card in CARDS[:52]] + (["JK"] if joker else [])
    used = {x for h in fixed.values() for x in h} | set(middle or [])
    free = [x for x in deck if x not in used]
    hands = []
    for s in range(players):
        h = list(fixed.get(s, []))
        while len(h) < size:
            h.append(free.pop(0))
        hands.append(h)
    rest = list(middle) if middle is not None else free
    assert len(rest) == len(deck) - players * size, (rest, free)
    return hands, rest


def new_state(players: int = 5, joker: bool = False, first: int = 0, **opts: Any) -> NapoleonState:
    return NapoleonState(NapoleonOptions(players=players, joker=joker, **opts), first=first)  # type: ignore[arg-type]


def dealt(
    players: int = 5,
    joker: bool = False,
    fixed: dict[int, Sequence[str]] | None = None,
    middle: Sequence[str] | None = None,
    first: int = 0,
    **opts: Any,
) -> NapoleonState:
    s = new_state(players, joker, first, **opts)
    s.deal(*make_deal(players, joker, fixed, middle))
    return s


def to_play(
    s: NapoleonState, bid: str = "11S", adjutant: str = "AH", discard: Sequence[str] | None = None
) -> NapoleonState:
    """The first bidder declares ``bid``, everyone passes, the adjutant is named, Napoleon
    discards (by default the middle cards), no re-declaration."""
    nap = s.to_act
    assert nap is not None
    s.apply(Bid(int(bid[:-1]), bid[-1]))
    for _ in range(s.num_players):
        s.apply(PASS)
    assert s.phase is Phase.ADJUTANT
    s.apply(Adjutant(c(adjutant)))
    s.apply(Discard(tuple(c(x) for x in (discard if discard is not None else [m.code for m in s.middle]))))
    if s.phase is Phase.REDECLARE:
        s.apply(Redeclare())
    assert s.phase is Phase.PLAY and s.to_act == nap
    return s


def play_trick(s: NapoleonState, *codes: str) -> int:
    """Play one trick, card by card in seat order from the leader; return its winner."""
    for x in codes:
        s.apply(P(x) if x != "JK" else Play(JOKER))
    return s.tricks[-1][1]


# ---------------------------------------------------------------------------------------
# options


def test_options_defaults_follow_the_spec_table():
    o = NapoleonOptions()
    assert (o.players, o.joker, o.yoromeki, o.first_trick_plain, o.strategy_b, o.redeclare, o.deals) == (
        5,
        False,
        False,
        False,
        True,
        True,
        None,
    )
    assert o.match_length == 10
    assert NapoleonOptions(players=4).match_length == 8
    assert NapoleonOptions(players=4, deals=3).match_length == 3


@pytest.mark.parametrize(
    "data, word",
    [
        ({"players": 6}, "players"),
        ({"players": "5"}, "players"),
        ({"joker": 1}, "joker"),
        ({"deals": 0}, "deals"),
        ({"deals": 2.5}, "deals"),
        ({"yoromeki": "yes"}, "yoromeki"),
        ({"colour": True}, "colour"),
    ],
)
def test_bad_options_are_refused_naming_the_field(data, word):
    with pytest.raises(OptionError, match=word):
        GAMES["napoleon"].options(data)


def test_deals_may_be_left_out_or_null():
    info = GAMES["napoleon"]
    assert info.options({}).match_length == 10
    assert info.options({"deals": None, "players": 4}).match_length == 8
    assert info.options({"deals": 3}).match_length == 3


def test_registry_and_aliases():
    assert find_game("ナポレオン").id == "napoleon"


# ---------------------------------------------------------------------------------------
# dealing


@pytest.mark.parametrize(
    "players, joker, size, middle", [(5, False, 10, 2), (5, True, 10, 3), (4, False, 12, 4), (4, True, 12, 5)]
)
def test_deal_sizes(players, joker, size, middle):
    s = new_state(players, joker)
    s.deal_random(random.Random(1))
    assert s.view(None).hand_sizes == (size,) * players
    assert len(s.middle) == middle
    all_ids = set()
    for seat in range(players):
        all_ids |= {x.id for x in s.hand(seat)}
    all_ids |= {x.id for x in s.middle}
    assert len(all_ids) == 52 + joker


def test_a_wrong_deal_is_refused():
    s = new_state()
    hands, rest = make_deal()
    hands[0][0], rest[0] = rest[0], hands[0][0]
    hands[1].append(rest.pop())
    with pytest.raises(DealError):
        s.deal(hands, rest)
    assert s.needs_deal
    hands, rest = make_deal()
    rest[0] = "JK"
    with pytest.raises(DealError, match="JK"):
        s.deal(hands, rest)


# ---------------------------------------------------------------------------------------
# bidding


def test_bids_start_at_11_with_five_and_13_with_four():
    s = dealt()
    bids = [a for a in s.legal_actions() if isinstance(a, Bid)]
    assert bids[0] == Bid(11, "C") and bids[-1] == Bid(20, "S") and len(bids) == 40
    assert not s.is_legal(Bid(10, "S"))
    s4 = dealt(players=4)
    bids4 = [a for a in s4.legal_actions() if isinstance(a, Bid)]
    assert bids4[0] == Bid(13, "C") and len(bids4) == 32
    with pytest.raises(IllegalActionError, match="13"):
        s4.apply(Bid(12, "S"))
    with pytest.raises(IllegalActionError, match="no no-trump"):
        s.apply(Bid(12, "N"))


def test_suit_order_at_the_same_count():
    s = dealt()
    s.apply(Bid(12, "D"))
    assert s.is_legal(Bid(12, "H")) and s.is_legal(Bid(12, "S"))
    assert not s.is_legal(Bid(12, "C")) and not s.is_legal(Bid(12, "D"))
    s.apply(Bid(12, "S"))
    assert not s.is_legal(Bid(12, "H"))  # after ♠12, hearts must bid 13
    assert s.is_legal(Bid(13, "C"))
    with pytest.raises(IllegalActionError, match="not stronger"):
        s.apply(Bid(12, "H"))


def test_re_entry_raising_and_the_end_after_all_pass_in_succession():
    s = dealt(first=2)
    assert s.to_act == 2
    s.apply(PASS)  # 2 passes
    s.apply(Bid(11, "C"))  # 3
    s.apply(PASS)  # 4
    s.apply(Bid(11, "H"))  # 0
    s.apply(PASS)  # 1
    s.apply(Bid(12, "C"))  # 2 re-enters after a pass
    for _ in range(4):
        s.apply(PASS)  # 3 4 0 1
    assert s.phase is Phase.BIDDING and s.to_act == 2
    s.apply(Bid(12, "S"))  # the highest bidder raises their own declaration
    for _ in range(4):
        s.apply(PASS)
    assert s.phase is Phase.BIDDING  # four passes are not all five
    s.apply(PASS)  # the highest bidder stands
    assert s.phase is Phase.ADJUTANT and s.napoleon == 2 and s.to_act == 2
    assert s.contract == Bid(12, "S")


def test_all_pass_is_a_void_deal_redealt_with_the_next_first_bidder():
    s = dealt(first=3, deals=1)
    for _ in range(5):
        s.apply(PASS)
    assert s.needs_deal and s.deal_number == 1 and s.deals_played == 0 and s.first_bidder == 4
    d = s.summary()["deals"][0]
    assert d["outcome"] == "redeal" and d["score"] == [0] * 5 and d["napoleon"] is None
    assert d["contract"] is None and d["napoleon_wins"] is None and d["tricks"] == []
    s.deal(*make_deal())
    assert s.to_act == 4  # a void deal does not count toward the match
    assert not s.is_over


# ---------------------------------------------------------------------------------------
# adjutant, exchange, re-declaration


def _after_bidding(**kw: Any) -> NapoleonState:
    s = dealt(fixed={0: ["AS", "JS", "JC"], 2: ["AH"], 3: ["KH"]}, middle=["QH", "2D"], **kw)
    s.apply(Bid(13, "S"))
    for _ in range(5):
        s.apply(PASS)
    return s


def test_the_adjutant_is_whoever_holds_the_named_card():
    s = _after_bidding()
    assert [type(a) for a in s.legal_actions()] == [Adjutant] * 52
    s.apply(Adjutant(c("AH")))
    assert s.adjutant == 2 and not s.solo
    assert s.phase is Phase.DISCARD
    assert s.view(2).adjutant == 2 and s.view(2).solo is False
    for seat in (None, 0, 1, 3, 4):
        assert s.view(seat).adjutant is None and s.view(seat).solo is None
    assert all(s.view(seat).adjutant_card == c("AH") for seat in (None, 0, 1, 2, 3, 4))


@pytest.mark.parametrize("card", ["QH", "JS"])  # in the middle; in Napoleon's own hand
def test_naming_a_card_in_the_middle_or_own_hand_is_solo(card):
    s = _after_bidding()
    s.apply(Adjutant(c(card)))
    assert s.solo and s.adjutant is None
    assert s.view(0).solo is True
    for seat in (None, 1, 2, 3, 4):
        assert s.view(seat).solo is None and s.view(seat).adjutant is None


def test_the_joker_may_be_named_only_where_in_use():
    s = _after_bidding()
    with pytest.raises(IllegalActionError, match="deck"):
        s.apply(Adjutant(JOKER))
    sj = dealt(joker=True, fixed={1: ["JK"]})
    sj.apply(Bid(11, "S"))
    for _ in range(5):
        sj.apply(PASS)
    assert len(sj.legal_actions()) == 53
    sj.apply(Adjutant(JOKER))
    assert sj.adjutant == 1


def test_exchange_takes_the_middle_and_discards_as_many():
    s = _after_bidding()
    s.apply(Adjutant(c("AH")))
    assert s.view(0).middle == (c("QH"), c("2D"))
    assert all(s.view(x).middle == () for x in (None, 1, 2, 3, 4))
    assert len(s.hand(0)) == 12
    assert len(s.legal_actions()) == 66  # C(12, 2)
    with pytest.raises(IllegalActionError, match="exactly 2"):
        s.apply(Discard((c("2D"),)))
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.apply(Discard((c("2D"), c("AH"))))
    with pytest.raises(IllegalActionError, match="twice"):
        s.apply(Discard((c("2D"), c("2D"))))
    # any order, and a card just taken may go back
    s.apply(Discard((c("QH"), c("2D"))))
    assert len(s.hand(0)) == 10 and s.discarded == (c("QH"), c("2D"))
    assert s.view(0).discard == (c("QH"), c("2D"))
    assert all(s.view(x).discard == () for x in (None, 1, 2, 3, 4))
    assert s.phase is Phase.REDECLARE


@pytest.mark.parametrize("players, joker, count", [(5, True, 286), (4, False, 1820), (4, True, 6188)])
def test_discard_choices_are_every_combination(players, joker, count):
    s = new_state(players, joker)
    s.deal_random(random.Random(5))
    s.apply(Bid(13, "S"))
    for _ in range(players):
        s.apply(PASS)
    s.apply(Adjutant(c("AS")))
    legal = s.legal_actions()
    assert len(legal) == count == len({frozenset(a.cards) for a in legal})  # type: ignore[union-attr]
    s.apply(legal[-1])
    assert s.phase is Phase.REDECLARE


def _at_redeclare(**kw: Any) -> NapoleonState:
    s = _after_bidding(**kw)
    s.apply(Adjutant(c("AH")))
    s.apply(Discard((c("QH"), c("2D"))))
    return s


def test_redeclaration_approved_by_everyone_replaces_the_declaration():
    s = _at_redeclare()
    assert s.legal_actions()[0] == Redeclare()
    assert not s.is_legal(Redeclare(13, "H")) and not s.is_legal(Redeclare(12, "S"))
    s.apply(Redeclare(14, "H"))
    assert s.phase is Phase.APPROVE and s.to_act == 1
    assert s.view(3).proposal == Bid(14, "H")
    for seat in (1, 2, 3, 4):
        assert s.to_act == seat
        s.apply(Approve(True))
    assert s.phase is Phase.PLAY and s.contract == Bid(14, "H") and s.trump.value == "H"
    d = s.summary()["deals"][0]
    assert d["contract"] == "14H" and d["declared"] == "13S"


def test_the_first_rejection_ends_the_asking():
    s = _at_redeclare()
    s.apply(Redeclare(15, "S"))
    s.apply(Approve(True))
    s.apply(Approve(False))
    assert s.phase is Phase.PLAY and s.contract == Bid(13, "S") and s.to_act == 0
    assert s.view(4).approvals == ((1, True), (2, False))


def test_no_redeclaration_when_the_option_is_off():
    s = _after_bidding(redeclare=False)
    s.apply(Adjutant(c("AH")))
    s.apply(Discard((c("QH"), c("2D"))))
    assert s.phase is Phase.PLAY
    with pytest.raises(IllegalActionError):
        s.apply(Redeclare(14, "S"))


def test_at_twenty_only_no_proposal_is_possible():
    s = dealt()
    s.apply(Bid(20, "C"))
    for _ in range(5):
        s.apply(PASS)
    s.apply(Adjutant(c("AS")))
    s.apply(s.legal_actions()[0])
    assert s.legal_actions() == (Redeclare(),)


# ---------------------------------------------------------------------------------------
# the card order (spec §6), rule by rule


def tw(codes: str, led: int, trump: int = S, **kw: Any) -> str:
    cards = ids(*codes.split())
    return codes.split()[trick_winner(cards, led, trump, **kw)]


def test_rule1_the_almighty_wins_everything():
    assert tw("2H AH JS JC AS", H, trump=S) == "AS"
    assert tw("2S 3S 4S 5S AS", S, trump=H) == "AS"  # over same-2
    assert tw("KH AH QH JH AS", H, trump=H, first=True) == "AS"  # over the first-trick ace


def test_yoromeki_heart_queen_beats_the_almighty_only_with_the_option():
    assert tw("QH AS 2C 3C 4C", H, trump=C) == "AS"
    assert tw("QH AS 2C 3C 4C", H, trump=C, yoromeki=True) == "QH"
    assert tw("QH JC 2C 3C 4C", H, trump=C, yoromeki=True) == "JC"  # only against ♠A
    assert tw("AS 2S QH 3S 4S", S, trump=S, first=True, yoromeki=True) == "QH"


def test_rule2_first_trick_ace_of_the_led_suit():
    assert tw("3H AH JS JC KS", H, trump=S, first=True) == "AH"
    assert tw("3H AH JS JC KS", H, trump=S, first=False) == "JS"
    assert tw("3D 2D AD 4D 5D", D, trump=S, first=True) == "AD"  # over same-2
    assert tw("3H AD JC 4H 5H", H, trump=S, first=True) == "JC"  # only the led suit's ace


def test_rule2_spade_king_when_spades_are_led_first():
    assert tw("3S KS JS QS 2H", S, trump=S, first=True) == "KS"
    assert tw("3S KS JS QS 2H", S, trump=S, first=False) == "JS"
    assert tw("3S KS 2H 4H 5H", S, trump=H, first=True) == "KS"


def test_rule3_same_two():
    assert tw("5C KC 2C QC AC", C, trump=H) == "2C"
    assert tw("5C KC 2C QC AC", C, trump=C) == "2C"  # over the trump ace
    assert tw("5C KC 2C JC AC", C, trump=S) == "2C"  # over the back jack (printed ♣)
    assert tw("5C KC 2C JC AC", C, trump=C) == "2C"  # over the main jack
    assert tw("5C KC 2C QC 3H", C, trump=D) == "KC"  # not every card is ♣
    assert tw("5C KC 3C QC 4C", C, trump=D) == "KC"  # no 2 in the trick


def test_rule3_same_two_not_with_the_joker():
    assert tw("JK KC 2C QC AC", C, trump=H) == "AC"
    assert tw("5C KC 2C JK", C, trump=H) == "KC"


def test_rule4_main_jack():
    assert tw("AH KH JH QH 3D", H, trump=H) == "JH"
    assert tw("AD KH JH JD 3D", D, trump=H) == "JH"  # over the back jack


def test_rule5_back_jack():
    assert tw("AH KH JD AD 3C", H, trump=H) == "JD"  # over the trump ace
    assert tw("AS KS JC 2D 3D", S, trump=S) == "AS"
    assert tw("KS QS JC 2D 3D", S, trump=S) == "JC"  # ♣J is the back jack of ♠
    assert tw("KC QC JS 2D 3D", C, trump=C) == "JS"  # ♠J is the back jack of ♣
    assert tw("KC QC JH 2D 3D", C, trump=C) == "KC"  # another colour's jack is plain


def test_rule6_highest_trump():
    assert tw("AH KD 3D 9D 2C", H, trump=D) == "KD"
    assert tw("AH 2D 3C 4C 5C", H, trump=D) == "2D"
    assert tw("AH TD QD 3C 5C", H, trump=D) == "QD"


def test_rule7_highest_of_the_led_suit_others_never_win():
    assert tw("9H KH JH 3C AD", H, trump=S) == "KH"
    assert tw("9H TH JH 3C AD", H, trump=S) == "JH"  # plain J above T
    assert tw("9H 2H AC AD KS", H, trump=C) == "AC"
    assert tw("5H 2H AC AD KD", H, trump=S) == "5H"


def test_rule8_the_joker_takes_a_trick_nothing_else_qualifies_for():
    assert tw("JK 3C 4C 5D 6D", H, trump=S) == "JK"
    assert tw("JK 3C 4C 5H 6D", H, trump=S) == "5H"
    assert tw("JK 3C 2S 5D 6D", H, trump=S) == "2S"


def test_first_trick_plain_only_the_almighty_keeps_its_power():
    kw = {"first": True, "first_trick_plain": True}
    assert tw("3H AH JS JC KS", H, trump=S, **kw) == "AH"
    assert tw("3H KH JH 2H 5H", H, trump=H, **kw) == "KH"  # no same-2, no main jack
    assert tw("3H QH JD AD 2S", H, trump=D, **kw) == "QH"  # no back jack, no trumps
    assert tw("3S KS AS 2S 4S", S, trump=S, **kw) == "AS"
    assert tw("QH AS 2C 3C 4C", H, trump=C, yoromeki=True, **kw) == "QH"
    assert tw("JK 2C 3C 4C 5C", H, trump=C, **kw) == "JK"
    assert tw("3H KH JH 2H 5H", H, trump=H, first=False, first_trick_plain=True) == "2H"


def test_the_engine_applies_the_first_trick_rules_only_to_the_first_trick():
    fixed = {
        1: ["AH", "AD"],
        2: ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "2C"],
        3: ["4H", "2D"],
        4: ["5H", "3D"],
        0: ["3H"],
    }
    s = to_play(dealt(fixed=fixed, middle=["3C", "4C"]), bid="11S", adjutant="AH")
    assert play_trick(s, "3H", "AH", "2S", "4H", "5H") == 1  # the first-trick ace beats a trump
    assert play_trick(s, "AD", "3S", "2D", "3D", "2H") == 2  # later, the trump wins


# ---------------------------------------------------------------------------------------
# following and the joker (spec §5)


def test_must_follow_the_printed_suit_and_the_back_jack_follows_its_own():
    fixed = {0: ["3H"], 1: ["JD", "5H", "6D"], 2: ["JD"[0:0] or "7D", "8D"]}
    s = to_play(dealt(fixed=fixed, middle=["2C", "3C"]), bid="11H", adjutant="AS")
    s.apply(P("3H"))
    assert s.to_act == 1
    # hearts trump: ♦J is the back jack but still a diamond for following
    assert not s.is_legal(P("JD"))
    with pytest.raises(IllegalActionError, match="must follow"):
        s.apply(P("JD"))
    assert all(a.card.suit.value == "H" for a in s.legal_actions())  # type: ignore[union-attr]


def test_a_player_void_in_the_led_suit_may_play_any_card():
    fixed = {0: ["2C"], 1: ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "2H"]}
    s = to_play(dealt(fixed=fixed, middle=["3C", "4C"]), bid="11H", adjutant="AS")
    s.apply(P("2C"))
    assert len(s.legal_actions()) == 10


def _joker_state(fixed: dict[int, Sequence[str]], **kw: Any) -> NapoleonState:
    return to_play(dealt(joker=True, fixed=fixed, middle=["2C", "3C", "4C"], **kw), bid="11S", adjutant="AH")


def test_the_joker_cannot_be_thrown_away():
    s = _joker_state({0: ["2D"], 1: ["JK", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]})
    s.apply(P("2D"))
    assert Play(JOKER) not in s.legal_actions() and len(s.legal_actions()) == 9
    with pytest.raises(IllegalActionError, match="cannot be thrown away"):
        s.apply(Play(JOKER))


def test_the_joker_cannot_replace_a_card_of_the_led_suit():
    s = _joker_state({0: ["2D"], 1: ["JK", "3D"]})
    s.apply(P("2D"))
    assert s.legal_actions() == (P("3D"),)


def test_a_joker_lead_names_the_suit_to_follow():
    s = _joker_state({0: ["JK"], 1: ["2H", "2D"]})
    leads = [a for a in s.legal_actions() if isinstance(a, Play) and a.card.is_joker]
    assert {a.request for a in leads} == {"S", "H", "D", "C"}
    with pytest.raises(IllegalActionError, match="names the suit"):
        s.apply(Play(JOKER))
    with pytest.raises(IllegalActionError, match="♠3"):
        s.apply(Play(JOKER, call_joker=True))
    s.apply(Play(JOKER, request="D"))
    assert s.view(3).joker_request == "D"
    assert all(a.card.suit.value == "D" for a in s.legal_actions())  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="only a joker lead"):
        s.apply(Play(c("2D"), request="D"))


def test_the_spade_three_calls_the_joker_out():
    s = _joker_state({0: ["3S"], 2: ["JK", "4S", "5S"]})
    assert P("3S", call_joker=True) in s.legal_actions() and P("3S") in s.legal_actions()
    s.apply(P("3S", call_joker=True))
    s.apply(s.legal_actions()[0])  # seat 1 follows
    assert s.legal_actions() == (Play(JOKER),)  # seat 2 must play the joker, spades or not
    with pytest.raises(IllegalActionError, match="must play it"):
        s.apply(P("4S"))
    s.apply(Play(JOKER))
    assert s.view(3).joker_called is True


def test_a_spade_three_lead_without_the_call_leaves_the_joker_alone():
    s = _joker_state({0: ["3S"], 2: ["JK", "4S", "5S"]})
    s.apply(P("3S"))
    s.apply(s.legal_actions()[0])
    assert Play(JOKER) not in s.legal_actions()


def test_the_call_only_with_the_joker_and_only_by_the_spade_three_lead():
    s = to_play(dealt(fixed={0: ["3S", "4S"]}, middle=["2C", "3C"]), bid="11S", adjutant="AH")
    assert P("3S", call_joker=True) not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="joker=true"):
        s.apply(P("3S", call_joker=True))
    sj = _joker_state({0: ["3S", "4S"], 1: ["JK"]})
    with pytest.raises(IllegalActionError, match="♠3"):
        sj.apply(P("4S", call_joker=True))


def test_a_call_when_the_leader_holds_the_joker_has_no_effect():
    s = _joker_state({0: ["3S", "JK"]})
    s.apply(P("3S", call_joker=True))
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    assert JOKER in s.hand(0)


def _play_until(s: NapoleonState, predicate: Callable[[NapoleonState], bool]) -> None:
    while not predicate(s):
        s.apply(s.legal_actions()[0])


def test_the_joker_as_the_last_card_must_be_played():
    # seat 1 holds the joker and spades only; nobody leads the joker out or calls it
    s = _joker_state(
        {
            0: ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "QD"],
            1: ["JK", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"],
        }
    )
    _play_until(s, lambda st: st.to_act == 1 and len(st.hand(1)) == 1)
    assert s.hand(1) == (JOKER,)
    assert s.legal_actions() and all(a.card.is_joker for a in s.legal_actions())  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------
# the result and the scoring (spec §7, §8)

SCORES = {
    # players, solo: [(napoleon, adjutant, each ally) for d = 11 … 20]
    (5, False): [
        (2, 1, 1),
        (4, 2, 2),
        (6, 3, 3),
        (8, 4, 4),
        (10, 5, 5),
        (12, 6, 6),
        (14, 7, 7),
        (16, 8, 8),
        (18, 9, 9),
        (20, 10, 10),
    ],
    (5, True): [
        (4, 0, 1),
        (8, 0, 2),
        (12, 0, 3),
        (16, 0, 4),
        (20, 0, 5),
        (24, 0, 6),
        (28, 0, 7),
        (32, 0, 8),
        (36, 0, 9),
        (40, 0, 10),
    ],
    (4, False): [(3, 3, 3), (4, 4, 4), (5, 5, 5), (6, 6, 6), (7, 7, 7), (8, 8, 8), (9, 9, 9), (10, 10, 10)],
    (4, True): [(9, 0, 3), (12, 0, 4), (15, 0, 5), (18, 0, 6), (21, 0, 7), (24, 0, 8), (27, 0, 9), (30, 0, 10)],
}


@pytest.mark.parametrize("players, solo", sorted(SCORES))
def test_every_scoring_cell(players, solo):
    low = 11 if players == 5 else 13
    for d, (nap, adj, ally) in zip(range(low, 21), SCORES[(players, solo)]):
        assert deal_points(players, d, solo, True) == (nap, adj, -ally), d
        assert deal_points(players, d, solo, False) == (-nap, -adj, ally), d
        allies = players - 1 - (0 if solo else 1)
        assert nap + adj - allies * ally == 0


def test_the_army_wins_with_at_least_its_count():
    assert napoleon_army_wins(13, 13, True) and napoleon_army_wins(13, 19, True)
    assert not napoleon_army_wins(13, 12, True)


def test_strategy_b():
    assert not napoleon_army_wins(19, 20, strategy_b=True)
    assert napoleon_army_wins(19, 20, strategy_b=False)
    assert napoleon_army_wins(20, 20, strategy_b=True)
    assert not napoleon_army_wins(20, 19, strategy_b=True)


NAP5 = ["AS", "JS", "JC", "KS", "QS", "TS", "9S", "8S", "7S", "6S"]
NAP4 = NAP5 + ["5S", "4S"]


def _sweep(players: int = 5, bid: str = "11S", adjutant: str = "AH", **opts: Any) -> NapoleonState:
    """Napoleon (seat 0) holds every trump that matters and takes all ten (twelve) tricks: the
    army takes all 20 face cards (the middle has none)."""
    nap = NAP5 if players == 5 else NAP4
    lows = ["2S", "3S", "4S", "5S"] if players == 5 else ["2S", "3S"]
    fixed: dict[int, Sequence[str]] = {0: nap}
    for k, x in enumerate(lows):
        fixed[k + 1] = [x]
    middle = ["2H", "3H"] if players == 5 else ["2H", "3H", "4H", "5H"]
    s = to_play(dealt(players, fixed=fixed, middle=middle, **opts), bid=bid, adjutant=adjutant)
    for x in nap:
        assert s.to_act == 0
        s.apply(P(x))
        for _ in range(players - 1):
            s.apply(s.legal_actions()[0])
    return s


def test_strategy_b_in_a_deal_all_twenty_below_twenty_is_the_allies_win():
    s = _sweep()
    d = s.summary()["deals"][0]
    assert d["army_face_cards"] == 20 and d["napoleon_wins"] is False
    adj = d["adjutant"]
    assert adj is not None and adj != 0
    expected = [1] * 5
    expected[0], expected[adj] = -2, -1
    assert d["score"] == expected


def test_without_strategy_b_all_twenty_is_napoleons_win():
    d = _sweep(strategy_b=False).summary()["deals"][0]
    assert d["napoleon_wins"] is True
    assert d["score"][0] == 2 and d["score"][d["adjutant"]] == 1 and sum(d["score"]) == 0


def test_all_twenty_declared_and_taken_is_napoleons_win():
    d = _sweep(bid="20S").summary()["deals"][0]
    assert d["napoleon_wins"] is True and d["contract"] == "20S"
    assert d["score"][0] == 20 and d["score"][d["adjutant"]] == 10
    assert sorted(d["score"]) == [-10, -10, -10, 10, 20]


def test_solo_scores_five_players():
    d = _sweep(bid="12S", adjutant="2H", strategy_b=False).summary()["deals"][0]  # named in the middle
    assert d["adjutant"] is None and d["solo"] is True and d["napoleon_wins"] is True
    assert d["score"] == [8, -2, -2, -2, -2]


def test_solo_by_own_hand_scores_like_solo():
    d = _sweep(bid="12S", adjutant="KS").summary()["deals"][0]
    assert d["adjutant"] is None and d["solo"] is True and d["napoleon_wins"] is False  # strategy B
    assert d["score"] == [-8, 2, 2, 2, 2]


def test_four_players_with_adjutant_and_solo():
    d = _sweep(4, bid="14S", strategy_b=False).summary()["deals"][0]
    assert d["napoleon_wins"] is True
    adj = d["adjutant"]
    expected = [-4] * 4
    expected[0], expected[adj] = 4, 4
    assert d["score"] == expected
    d = _sweep(4, bid="14S", adjutant="2H", strategy_b=False).summary()["deals"][0]
    assert d["score"] == [12, -4, -4, -4]


def test_face_cards_in_the_discard_belong_to_the_allies():
    # the middle holds two face cards that Napoleon throws back: the army can take 18 at most
    fixed: dict[int, Sequence[str]] = {0: NAP5, 1: ["2S"], 2: ["3S"], 3: ["4S"], 4: ["5S"]}
    s = to_play(dealt(fixed=fixed, middle=["AH", "KH"]), bid="18S", adjutant="QH", discard=["AH", "KH"])
    for x in NAP5:
        s.apply(P(x))
        for _ in range(4):
            s.apply(s.legal_actions()[0])
    d = s.summary()["deals"][0]
    assert d["army_face_cards"] == 18 and d["napoleon_wins"] is True
    assert sum(d["face_cards"]) == 18
    assert s.view(1).last_deal["discard"] == ["AH", "KH"]  # face up once the deal ends


def test_the_army_count_is_napoleon_and_adjutant_only():
    s = dealt(fixed={0: ["2D"], 1: ["AD"], 2: ["KD"], 3: ["3D"], 4: ["4D"]}, middle=["2C", "3C"])
    to_play(s, bid="11C", adjutant="KD")
    play_trick(s, "2D", "AD", "KD", "3D", "4D")  # seat 1 takes ♦A ♦K
    assert s.army_face_cards() == 0
    assert s.view(None).face_cards_taken[1] == (c("KD"), c("AD"))
    assert s.summary()["deals"][0]["army_face_cards"] == 0


# ---------------------------------------------------------------------------------------
# the match (spec §9)


def test_the_match_is_a_fixed_number_of_scored_deals_and_the_highest_total_wins():
    s = _sweep(deals=1)
    assert s.is_over
    out = s.outcome()
    assert out is not None and out.totals == tuple(s.summary()["totals"])
    best = max(out.totals)
    winners = [k for k, v in enumerate(out.totals) if v == best]
    assert (out.winner if isinstance(out.winner, tuple) else (out.winner,)) == tuple(winners)
    assert len(winners) == 3  # the three allies share the win
    assert s.summary()["winner"] == winners
    with pytest.raises(IllegalActionError, match="over"):
        s.deal(*make_deal())


def test_first_bidder_rotates_every_deal():
    s = _sweep(deals=3)
    assert s.first_bidder == 1 and s.needs_deal
    s.deal(*make_deal())
    assert s.to_act == 1


# ---------------------------------------------------------------------------------------
# views


def test_the_adjutant_is_revealed_when_the_named_card_is_played():
    s = dealt(fixed={0: ["2D"], 1: ["AD"], 2: ["KD"], 3: ["3D"], 4: ["4D"]}, middle=["2C", "3C"])
    to_play(s, bid="11C", adjutant="AD")
    assert s.view(3).adjutant is None
    s.apply(P("2D"))
    s.apply(P("AD"))
    assert all(s.view(x).adjutant == 1 for x in (None, 0, 1, 2, 3, 4))
    assert all(s.view(x).solo is False for x in (None, 0, 1, 2, 3, 4))


def test_solo_by_the_middle_shows_only_at_the_end_when_the_card_is_discarded():
    s = _sweep(adjutant="2H", deals=2)
    last = s.view(3).last_deal
    assert last is not None and last["solo"] is True and last["discard"] == ["2H", "3H"]


def test_spectator_and_others_never_see_the_middle_or_the_discard_mid_deal():
    s = dealt(fixed={0: ["2D"]}, middle=["AC", "KC"])
    s.apply(Bid(11, "S"))
    for _ in range(5):
        s.apply(PASS)
    s.apply(Adjutant(c("AC")))
    assert s.view(0).middle == (c("AC"), c("KC")) and s.view(0).solo is True
    for x in (None, 1, 2, 3, 4):
        v = s.view(x)
        assert v.middle == () and v.discard == () and v.solo is None
        assert "KC" not in json.dumps(v.to_json())


# ---------------------------------------------------------------------------------------
# properties over random matches


CONFIGS = [{"players": p, "joker": j} for p in (5, 4) for j in (False, True)]


def _codes(value: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(value, str):
        if len(value) == 2:
            out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            out |= _codes(v)
    elif isinstance(value, list):
        for v in value:
            out |= _codes(v)
    return out


def _check_invariants(s: NapoleonState) -> None:
    n = s.num_players
    deck = 52 + s.options.joker
    # cards conserved: hands, the middle (until taken) or the discard, the tricks
    seen: list[int] = []
    for seat in range(n):
        seen += [x.id for x in s.hand(seat)]
    if s.phase in (Phase.BIDDING, Phase.ADJUTANT):
        seen += [x.id for x in s.middle]
    else:
        seen += [x.id for x in s.discarded]
    for trick, _ in s.tricks:
        seen += [x.id for x in trick.cards]
    seen += [cid for _, cid in s._trick]
    assert len(seen) == len(set(seen)) == deck
    # views: never the adjutant, the middle or the discard to those who may not know them
    nap = s.napoleon
    for seat in [None, *range(n)]:
        v = s.view(seat)
        hidden = set()
        for other in range(n):
            if other != seat:
                hidden |= {x.code for x in s.hand(other)}
        if seat != nap:
            hidden |= {x.code for x in s.discarded}
            if s.phase in (Phase.BIDDING, Phase.ADJUTANT):
                hidden |= {x.code for x in s.middle}
            assert v.middle == () and v.discard == ()
        if s.adjutant_card is not None:
            hidden.discard(s.adjutant_card.code)
        data = v.to_json()
        data.pop("last_deal")
        data.pop("adjutant_card")
        data.pop("legal_actions")
        assert not (_codes(data) & hidden), (seat, _codes(data) & hidden)
        played = any(s.adjutant_card in t.cards for t, _ in s.tricks) or any(
            cid == (s.adjutant_card.id if s.adjutant_card else -1) for _, cid in s._trick
        )
        if not played:
            if seat is None or (seat != s.adjutant and seat != nap) or (seat == nap and not s.solo):
                assert v.adjutant is None, seat
            if seat == s.adjutant and seat is not None:
                assert v.adjutant == seat and v.solo is False
            elif seat != nap:
                assert v.solo is None, seat
    if s.phase is Phase.PLAY and s.to_act is not None:
        hand = s.hand(s.to_act)
        legal = s.legal_actions()
        if JOKER in hand and s._trick and not s._called:
            assert (Play(JOKER) in legal) == (len(hand) == 1)


def _check_deal_results(s: NapoleonState) -> None:
    for d in s.summary()["deals"]:
        assert sum(d["score"]) == 0
        if d["outcome"] == "played":
            assert d["napoleon"] is not None
    for r in s._results:
        if r.outcome == "played":
            discarded = sum(1 for x in r.discard if FACE_MASK >> x & 1)
            assert sum(m.bit_count() for m in r.taken) + discarded == 20


@settings(max_examples=24, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    config=st.sampled_from(CONFIGS),
    bots=st.sampled_from(["random", "heuristic"]),
    rules=st.fixed_dictionaries(
        {k: st.booleans() for k in ("yoromeki", "first_trick_plain", "strategy_b", "redeclare")}
    ),
)
def test_random_matches_keep_the_invariants(seed, config, bots, rules):
    s = NapoleonState(NapoleonOptions(deals=2, **config, **rules))
    rng = random.Random(seed)
    bot = make_bot(bots, "napoleon")
    while not s.is_over:
        if s.needs_deal:
            s.deal_random(rng)
            continue
        _check_invariants(s)
        seat = s.to_act
        s.apply(bot.choose(s.view(seat), rng), seat)
    _check_deal_results(s)
    text = records.dumps(records.from_state(s))
    assert records.replay(records.loads(text)).summary() == s.summary()


# ---------------------------------------------------------------------------------------
# terminal play


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_whole_match_in_the_terminal_with_a_typed_discard(tmp_path, lang):
    import io

    from rich.console import Console

    from kirifuda.ui.terminal import TerminalGame

    info = find_game("napoleon")
    out = io.StringIO()
    answers = iter(["zzz", "20s", "pass", "ah"])
    game: Any = None

    def ask(prompt: str) -> str:
        s = game.state
        if s.phase is Phase.DISCARD:
            return " ".join(x.code.lower() for x in reversed(s.hand(0)[:5]))  # any order
        if s.phase is Phase.REDECLARE:
            return "none"
        return next(answers, "1")

    game = TerminalGame(
        info,
        info.options({"players": 4, "joker": True, "deals": 1}),
        seed=2,
        lang=lang,
        record_path=tmp_path / "n.json",
        console=Console(file=out, width=100),
        input_fn=ask,
    )
    game.run()
    text = out.getvalue()
    assert game.state.is_over
    assert "6188" in text  # the discard choices are counted, not listed
    rec = records.loads((tmp_path / "n.json").read_text())
    deal = rec.deals[0]
    assert {"seat": 0, "bid": "20S"} in deal.actions and {"seat": 0, "adjutant": "AH"} in deal.actions
    assert records.replay(rec).summary() == game.state.summary()


@pytest.mark.parametrize("plain, winner", [(False, 2), (True, 1)])
def test_the_engine_applies_first_trick_plain(plain, winner):
    fixed = {
        0: ["3H"],
        1: ["KH"],
        2: ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "2C"],
        3: ["4H"],
        4: ["5H"],
    }
    s = to_play(dealt(fixed=fixed, middle=["3C", "4C"], first_trick_plain=plain), bid="11S", adjutant="AD")
    assert play_trick(s, "3H", "KH", "2S", "4H", "5H") == winner


@pytest.mark.parametrize("yoromeki, winner", [(False, 0), (True, 1)])
def test_the_engine_applies_yoromeki(yoromeki, winner):
    fixed = {
        0: ["AS"],
        1: ["QH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH"],
        2: ["2S"],
        3: ["3S"],
        4: ["4S"],
    }
    s = to_play(dealt(fixed=fixed, middle=["3C", "4C"], yoromeki=yoromeki), bid="11C", adjutant="AD")
    assert play_trick(s, "AS", "QH", "2S", "3S", "4S") == winner


def test_typed_answers_tell_the_spade_three_call_and_a_discard_in_any_order():
    from kirifuda.ui.render import match_input

    legal = (P("3S"), P("3S", call_joker=True), P("4S"))
    assert match_input("3s", legal) == [P("3S")]
    assert match_input("3s call", legal) == [P("3S", call_joker=True)]
    discards = (Discard((c("2S"), c("3S"))), Discard((c("2S"), c("4S"))))
    assert match_input("4s 2s", discards) == [discards[1]]
    assert match_input("4s 9s", discards) == []


def test_a_copy_has_every_slot_equal_and_independent():
    s = _joker_state({0: ["3S"], 2: ["JK"]})
    s.apply(P("3S", call_joker=True))
    twin = s.copy()
    for name in NapoleonState.__slots__:
        assert getattr(twin, name) == getattr(s, name), name
    twin.apply(twin.legal_actions()[0])
    assert len(s._trick) == 1 and len(twin._trick) == 2


# ---------------------------------------------------------------------------------------
# audit: points of the spec with no test before


def _sweep_redeclared(redeclare: str, answers: Sequence[bool], **opts: Any) -> NapoleonState:
    """The five-player sweep of ``_sweep`` (seat 0 takes all ten tricks and all 20 face cards,
    the adjutant ♥A with seat 2), declared 11♠ and then re-declared as given, answered in turn."""
    fixed: dict[int, Sequence[str]] = {0: NAP5, 1: ["2S"], 2: ["3S"], 3: ["4S"], 4: ["5S"]}
    s = dealt(fixed=fixed, middle=["2H", "3H"], deals=1, **opts)
    s.apply(Bid(11, "S"))
    for _ in range(5):
        s.apply(PASS)
    s.apply(Adjutant(c("AH")))
    s.apply(Discard((c("2H"), c("3H"))))
    s.apply(Redeclare(int(redeclare[:-1]), redeclare[-1]))
    for ok in answers:
        s.apply(Approve(ok))
    assert s.phase is Phase.PLAY
    for x in NAP5:
        s.apply(P(x))
        for _ in range(4):
            s.apply(s.legal_actions()[0])
    return s


def test_an_approved_redeclaration_is_the_count_scored():
    # spec §4/§8: an approved re-declaration replaces the old one for the scoring (k = 15 - 10)
    d = _sweep_redeclared("15S", [True] * 4, strategy_b=False).summary()["deals"][0]
    assert d["contract"] == "15S" and d["declared"] == "11S" and d["napoleon_wins"] is True
    assert d["adjutant"] == 2 and d["score"] == [10, -5, 5, -5, -5]


def test_an_approved_redeclaration_of_twenty_makes_the_sweep_napoleons_win():
    # spec §7: strategy B looks at the declaration in force (20 after the approval)
    d = _sweep_redeclared("20S", [True] * 4).summary()["deals"][0]
    assert d["contract"] == "20S" and d["napoleon_wins"] is True
    assert d["score"] == [20, -10, 10, -10, -10]


def test_a_rejected_redeclaration_leaves_the_old_count_for_the_result_and_the_score():
    d = _sweep_redeclared("20S", [True, False]).summary()["deals"][0]
    assert d["contract"] == "11S" and d["napoleon_wins"] is False  # strategy B at 11
    assert d["score"] == [-2, 1, -1, 1, 1]


@pytest.mark.parametrize("answers, winner", [([True] * 4, 1), ([False], 2)])
def test_the_trump_of_an_approved_redeclaration_rules_the_tricks(answers, winner):
    # 11♠ re-declared as 12♥: with the approval ♥2 trumps the trick, without it ♠K does
    fixed = {
        0: ["2D"],
        1: ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "2C"],
        2: ["KS", "QS", "TS", "9S", "8S", "7S", "3C", "4C", "5C", "6C"],
        3: ["3D"],
        4: ["4D"],
    }
    s = dealt(fixed=fixed, middle=["7C", "8C"])
    s.apply(Bid(11, "S"))
    for _ in range(5):
        s.apply(PASS)
    s.apply(Adjutant(c("AC")))
    s.apply(Discard((c("7C"), c("8C"))))
    s.apply(Redeclare(12, "H"))
    for ok in answers:
        s.apply(Approve(ok))
    assert play_trick(s, "2D", "2H", "KS", "3D", "4D") == winner


def test_a_redeclaration_needs_a_higher_count_not_only_a_stronger_suit():
    s = _at_redeclare()  # 13♠ declared
    for strain in "SHDC":
        assert not s.is_legal(Redeclare(13, strain))
        assert s.is_legal(Redeclare(14, strain))
    assert not s.is_legal(Redeclare(21, "S"))


@pytest.mark.parametrize(
    "request_, plays, winner", [("H", ("3H", "AH", "JS", "JH"), 2), ("D", ("3H", "2D", "JS", "AD"), 4)]
)
def test_a_joker_lead_makes_its_named_suit_the_led_suit_of_the_first_trick_ace(request_, plays, winner):
    # spec §5/§6: the named suit is the led suit, so in the first trick its ace beats the main jack
    hands = [
        ["JK", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"],
        ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JC", "QC"],
        ["AH", "2H", "KH", "QH", "KC", "AC", "2D", "3D", "4D", "5D"],
        ["JS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"],
        ["JH", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
    ]
    s = new_state(joker=True)
    s.deal(hands, ["QS", "KS", "AS"])
    to_play(s, bid="11S", adjutant="AC")
    s.apply(Play(JOKER, request=request_))
    for x in plays:
        s.apply(P(x))
    assert s.tricks[-1][1] == winner
    assert trick_winner(ids("JK", *plays), "SHDC".index(request_), S, first=False) == 3  # later: the main jack


def test_the_joker_is_not_a_face_card_and_ten_is():
    assert FACE_MASK.bit_count() == 20 and not FACE_MASK >> JOKER.id & 1
    assert all(FACE_MASK >> c(f"{r}{s}").id & 1 for r in "TJQKA" for s in "SHDC")
