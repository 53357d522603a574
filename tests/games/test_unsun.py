"""Unsun (うんすんかるた on playing cards), rule by rule against ``docs/unsun.md``.

Every trick-winner rule of spec §5 is checked for every trump suit's groups with hand-built
deals; each scenario is chosen so that the plausible wrong rules (the lead suit decides, the
highest rank wins, suits instead of groups, the later card wins a tie, the last player's group
always decides) give another winner.  Hypothesis properties run random matches of 3, 4 and 5.
"""

from __future__ import annotations

import json
import random
from typing import Sequence

import pytest
from hypothesis import given, settings, strategies as st

from kirifuda import record as records
from kirifuda.actions import Bid, Play
from kirifuda.bots import make_bot
from kirifuda.cards import JOKER, Suit, parse_card, parse_cards
from kirifuda.errors import DealError, IllegalActionError, OptionError
from kirifuda.games import GAMES, find_game
from kirifuda.games.unsun import (
    DEAL_SIZES,
    DECK,
    GROUP_BLACK,
    GROUP_RED,
    GROUP_TRUMP,
    UnsunOptions,
    UnsunState,
    group_of,
    is_face_down,
    trick_winner,
)

from ..conftest import play_random

SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
OTHER_COLOUR = {"S": ("H", "D"), "C": ("H", "D"), "H": ("S", "C"), "D": ("S", "C")}
TRUMPS = ["S", "H", "D", "C"]


def build_deal(
    n: int, fixed: dict[int, list[str]], indicator: str, tenka: int | None = None, rest: Sequence[str] = ()
) -> tuple[list[list[str]], list[str]]:
    """Hands holding the ``fixed`` cards (the rest filled from the pack), the indicator first in
    the left-over cards, and ♣J with seat ``tenka`` or (``None``) among the left-over cards."""
    size, left = DEAL_SIZES[n]
    fixed = {s: list(cs) for s, cs in fixed.items()}
    rest = list(rest)
    if "JC" != indicator and not any("JC" in cs for cs in fixed.values()) and "JC" not in rest:
        if tenka is None:
            rest.append("JC")
        else:
            fixed.setdefault(tenka, []).append("JC")
    listed = [indicator, *rest, *(c for cs in fixed.values() for c in cs)]
    used = set(listed)
    assert len(used) == len(listed), f"a card given twice: {listed}"
    pool = [c.code for c in DECK if c.code not in used]
    hands = []
    for s in range(n):
        h = list(fixed.get(s, []))
        while len(h) < size:
            h.append(pool.pop(0))
        hands.append(h)
    out_rest = [indicator] + rest
    while len(out_rest) < left:
        out_rest.append(pool.pop(0))
    assert not pool and len(out_rest) == left, (pool, out_rest)
    return hands, out_rest


def first_trick(trump: str, plays: list[str], n: int = 4, dealer: int = 0, **options) -> UnsunState:
    """Deal so that the first trick is ``plays`` in play order (♣J left over: the dealer is the
    last player, the seat after them starts) and play it."""
    start = (dealer + 1) % n
    fixed = {(start + i) % n: [c] for i, c in enumerate(plays)}
    hands, rest = build_deal(n, fixed, indicator="2" + trump)
    s = UnsunState(UnsunOptions(players=n, **options), first=dealer)
    s.deal(hands, rest)
    assert s.last_player == dealer and s.to_act == start
    for c in plays:
        s.apply(Play(parse_card(c)), s.to_act)
    return s


def winner_of_first(trump: str, plays: list[str], n: int = 4) -> int:
    s = first_trick(trump, plays, n)
    ((_, winner),) = s.tricks
    assert s.tricks_won[winner] == 1
    return winner


def cards(trump: str) -> tuple[str, str, str]:
    """(the same-colour suit: a one-suit group; the two other-colour suits: one group)."""
    a, b = OTHER_COLOUR[trump]
    return SAME_COLOUR[trump], a, b


# ------------------------------------------------------------------------------------------
# Groups


@pytest.mark.parametrize("trump", TRUMPS)
def test_the_three_groups_of_each_trump_suit(trump):
    t = Suit(trump)
    same, a, b = cards(trump)
    assert group_of(parse_card("5" + trump), t) == GROUP_TRUMP
    same_group = GROUP_RED if Suit(same).is_red else GROUP_BLACK
    pair_group = GROUP_BLACK if same_group == GROUP_RED else GROUP_RED
    assert group_of(parse_card("5" + same), t) == same_group
    assert group_of(parse_card("5" + a), t) == group_of(parse_card("5" + b), t) == pair_group


def test_spec_examples_of_groups():
    # with ♥ trump: {♥}, {♦}, {♠ ♣}; with ♠ trump: {♠}, {♣}, {♥ ♦}
    h, s = Suit.HEARTS, Suit.SPADES
    assert group_of(parse_card("AD"), h) == GROUP_RED
    assert group_of(parse_card("AS"), h) == group_of(parse_card("AC"), h) == GROUP_BLACK
    assert group_of(parse_card("AC"), s) == GROUP_BLACK
    assert group_of(parse_card("AH"), s) == group_of(parse_card("AD"), s) == GROUP_RED


# ------------------------------------------------------------------------------------------
# §5 rule 1: any trump decides


@pytest.mark.parametrize("trump", TRUMPS)
def test_rule1_a_low_trump_beats_every_other_group(trump):
    same, a, b = cards(trump)
    # seats 1 2 3, then the last player 0; without rule 1 the same-colour group is contested
    assert winner_of_first(trump, ["A" + same, "3" + trump, "A" + a, "K" + same]) == 2


@pytest.mark.parametrize("trump", TRUMPS)
def test_rule1_the_highest_trump_wins(trump):
    same, a, b = cards(trump)
    assert winner_of_first(trump, ["5" + trump, "9" + trump, "4" + trump, "A" + a]) == 2


@pytest.mark.parametrize("trump", TRUMPS)
def test_rule1_a_trump_of_the_last_player_wins_whatever_was_played(trump):
    same, a, b = cards(trump)
    assert winner_of_first(trump, ["A" + a, "A" + b, "A" + same, "3" + trump]) == 0
    # ... and a higher trump before the last player's beats it
    assert winner_of_first(trump, ["A" + a, "8" + trump, "A" + same, "7" + trump]) == 2


@pytest.mark.parametrize("trump", TRUMPS)
def test_rule1_face_down_trump_honours_compare_by_rank(trump):
    same, a, b = cards(trump)
    assert winner_of_first(trump, ["Q" + trump, "K" + trump, "A" + trump, "J" + trump]) == 3
    assert winner_of_first(trump, ["K" + trump, "Q" + trump, "3" + same, "T" + trump]) == 1


# ------------------------------------------------------------------------------------------
# §5 rule 2: the last player's card picks a group played before it


@pytest.mark.parametrize("trump", TRUMPS)
def test_rule2_the_last_player_contests_a_group_and_wins_it(trump):
    same, a, b = cards(trump)
    # the lead (an ace) is of another group: the last player's 7 beats the 5 and the 3
    assert winner_of_first(trump, ["A" + same, "5" + a, "3" + b, "7" + a]) == 0


@pytest.mark.parametrize("trump", TRUMPS)
def test_rule2_cards_of_a_group_compare_by_rank_whatever_their_suit(trump):
    same, a, b = cards(trump)
    # the last player's 7 of one suit is beaten by a 9 of the other suit of the same group
    assert winner_of_first(trump, ["A" + same, "9" + a, "3" + b, "7" + b]) == 2
    assert winner_of_first(trump, ["2" + same, "3" + b, "K" + a, "Q" + b]) == 3


@pytest.mark.parametrize("trump", TRUMPS)
def test_rule2_the_one_suit_group_can_be_contested(trump):
    same, a, b = cards(trump)
    # the last player contests the same-colour group: its 9 beats the 6; the king is ignored
    assert winner_of_first(trump, ["K" + a, "6" + same, "2" + b, "9" + same]) == 0
    # contesting without winning: the last player's 3 makes the lead's ace lose to the 4
    assert winner_of_first(trump, ["A" + a, "4" + same, "2" + same, "3" + same]) == 2


@pytest.mark.parametrize("trump", TRUMPS)
def test_rule2_of_equal_ranks_the_earlier_card_wins(trump):
    same, a, b = cards(trump)
    assert winner_of_first(trump, ["2" + same, "8" + a, "8" + b, "4" + a]) == 2
    assert winner_of_first(trump, ["2" + same, "8" + b, "8" + a, "4" + a]) == 2
    # the last player, playing last, loses a tie
    assert winner_of_first(trump, ["5" + same, "Q" + a, "4" + b, "Q" + b]) == 2


# ------------------------------------------------------------------------------------------
# §5 rule 3: the last player switches away from the single group played before


@pytest.mark.parametrize("trump", TRUMPS)
def test_rule3_switching_away_loses_and_the_others_group_decides(trump):
    same, a, b = cards(trump)
    # everyone before played the two-suit group; the last player's ace of the other group loses
    assert winner_of_first(trump, ["5" + a, "Q" + b, "9" + a, "A" + same]) == 2
    # everyone before played the one-suit group
    assert winner_of_first(trump, ["4" + same, "8" + same, "6" + same, "A" + a]) == 2


@pytest.mark.parametrize("trump", TRUMPS)
@pytest.mark.parametrize("n", [3, 5])
def test_rules_at_three_and_five_players(trump, n):
    same, a, b = cards(trump)
    if n == 3:  # seats 1 2, last player 0
        assert winner_of_first(trump, ["5" + a, "9" + b, "A" + same], n) == 2  # rule 3
        assert winner_of_first(trump, ["5" + a, "9" + same, "K" + same], n) == 0  # rule 2
        assert winner_of_first(trump, ["5" + a, "3" + trump, "K" + same], n) == 2  # rule 1
    else:  # seats 1 2 3 4, last player 0
        assert winner_of_first(trump, ["5" + a, "9" + b, "T" + a, "6" + b, "A" + same], n) == 3
        assert winner_of_first(trump, ["K" + a, "9" + same, "T" + b, "6" + b, "Q" + same], n) == 0
        assert winner_of_first(trump, ["K" + a, "9" + same, "6" + trump, "6" + b, "Q" + same], n) == 3


def test_trick_winner_function_examples():
    assert trick_winner(parse_cards(["2H", "AS", "KC"]), Suit.DIAMONDS) == 1
    assert trick_winner(parse_cards(["9S", "9C", "5H"]), Suit.HEARTS) == 2
    with pytest.raises(ValueError):
        trick_winner(parse_cards(["2H"]), Suit.DIAMONDS)


# ------------------------------------------------------------------------------------------
# The last player (取り番) and the order of play


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("tenka", range(5))
def test_the_clubs_jack_holder_is_the_first_last_player(n, tenka):
    if tenka >= n:
        return
    hands, rest = build_deal(n, {}, indicator="2H", tenka=tenka)
    s = UnsunState(UnsunOptions(players=n), first=(tenka + 1) % n)  # the dealer is another seat
    s.deal(hands, rest)
    assert s.last_player == tenka and s.view(None).last_player == tenka
    assert s.to_act == s.starting_player == (tenka + 1) % n


@pytest.mark.parametrize("n", [3, 4, 5])
def test_without_the_clubs_jack_in_play_the_dealer_is_the_last_player(n):
    for dealer in range(n):
        hands, rest = build_deal(n, {}, indicator="2H", tenka=None)
        assert "JC" in rest
        s = UnsunState(UnsunOptions(players=n), first=dealer)
        s.deal(hands, rest)
        assert s.dealer == dealer and s.last_player == dealer and s.to_act == (dealer + 1) % n
    # ♣J as the indicator (clubs trump): also out of play
    hands, rest = build_deal(n, {}, indicator="JC")
    s = UnsunState(UnsunOptions(players=n), first=1)
    s.deal(hands, rest)
    assert s.trump == Suit.CLUBS and s.last_player == 1


def _after_a_trumped_first_trick() -> UnsunState:
    """Four players, ♥ trump, two cards each: seats 1 2 3 0 play ♠5 ♥3 ♠A ♠K, seat 2 trumps."""
    hands, rest = build_deal(4, {1: ["5S", "9C"], 2: ["3H", "8S"], 3: ["AS", "6C"], 0: ["KS", "2D"]}, indicator="2H")
    s = UnsunState(UnsunOptions(), first=0)
    s.deal(hands, rest)
    for c in ["5S", "3H", "AS", "KS"]:
        s.apply(Play(parse_card(c)), s.to_act)
    return s


def test_the_winner_starts_the_next_trick_and_the_seat_before_is_the_last_player():
    # trick 1 (♥ trump, seats 1 2 3 0): seat 2 wins with a trump; trick 2: seats 2 3 0 1, the
    # last player is seat 1, who contests the black group and takes it with the ♣9
    s = _after_a_trumped_first_trick()
    assert s.tricks[-1][1] == 2
    assert s.starting_player == 2 and s.last_player == 1 and s.to_act == 2
    v = s.view(0)
    assert v.last_player == 1 and v.starting_player == 2
    assert v.last_trick_winner == 2 and v.last_trick_last_player == 0
    with pytest.raises(IllegalActionError):
        s.apply(Play(parse_card("9C")), 1)  # not seat 1's turn: it plays last
    for c in ["8S", "6C", "2D", "9C"]:
        s.apply(Play(parse_card(c)), s.to_act)
    assert s.tricks[-1][1] == 1
    assert s.starting_player == 1 and s.last_player == 0 and s.to_act == 1
    summary = s.summary()["deals"][0]
    assert [t["leader"] for t in summary["tricks"]] == [1, 2]
    assert [t["last_player"] for t in summary["tricks"]] == [0, 1]
    assert [t["winner"] for t in summary["tricks"]] == [2, 1]
    assert summary["tricks_won"] == [0, 1, 1, 0]


def test_the_table_shows_the_last_player_in_both_languages():
    s = _partial_trick(["KH", "TH", "5S", "9C"])
    en = "\n".join(s.view(0).table_lines("en"))
    ja = "\n".join(s.view(0).table_lines("ja"))
    assert "Last player: Seat 0 (you)" in en and "Starts: Seat 1" in en and "Trick: Seat 1: face down" in en
    assert "取り番: 席0 (あなた)" in ja and "打ち出し: 席1" in ja and "席1: 伏せ札" in ja
    assert "Indicator: 2♥" in en and "起き絵: ♥2" in ja
    s.apply(Play(parse_card("9C")), 0)
    en = "\n".join(s.view(2).table_lines("en"))
    assert "Last player: Seat 0" in en  # the winner (seat 1) starts; the seat before is last
    assert "Last trick (Last player Seat 0)" in en and "⇒ Seat 1" in en


def _play_out_the_deal(s: UnsunState) -> None:
    deal = s.deal_number
    while s.deal_number == deal and not s.is_over:
        s.apply(s.legal_actions()[0], s.to_act)


def test_later_deals_the_clubs_jack_holder_else_that_deals_dealer_is_the_first_last_player():
    # a match of four deals dealt by seats 2, 3, 0, 1 (the next seat deals each time)
    s = UnsunState(UnsunOptions(deals=4), first=2)
    hands, rest = build_deal(4, {}, indicator="2H", tenka=0)
    s.deal(hands, rest)
    assert s.dealer == 2 and s.last_player == 0 and s.to_act == 1
    _play_out_the_deal(s)
    # deal 2: ♣J left over: the last player is this deal's dealer (seat 3), not deal 1's
    hands, rest = build_deal(4, {}, indicator="5S", tenka=None)
    s.deal(hands, rest)
    assert s.dealer == 3 and s.view(None).dealer == 3 and s.view(1).dealer == 3
    assert s.last_player == 3 and s.view(None).last_player == 3 and s.to_act == 0
    _play_out_the_deal(s)
    # deal 3: ♣J is the indicator: the dealer (seat 0) is the last player
    hands, rest = build_deal(4, {}, indicator="JC")
    s.deal(hands, rest)
    assert s.dealer == 0 and s.last_player == 0 and s.to_act == 1
    _play_out_the_deal(s)
    # deal 4: ♣J held (by seat 3): its holder is the last player whoever deals (seat 1)
    hands, rest = build_deal(4, {}, indicator="9D", tenka=3)
    s.deal(hands, rest)
    assert s.dealer == 1 and s.last_player == 3 and s.to_act == 0
    _play_out_the_deal(s)
    deals = s.summary()["deals"]
    assert [d["dealer"] for d in deals] == [2, 3, 0, 1]
    assert [d["tricks"][0]["leader"] for d in deals] == [1, 0, 1, 0]
    assert [d["tricks"][0]["last_player"] for d in deals] == [0, 3, 0, 3]
    assert s.is_over


def test_the_last_trick_is_shown_until_the_next_card_is_played():
    s = _after_a_trumped_first_trick()
    v = s.view(3)
    assert v.trick == () and v.last_trick is not None and v.last_trick_winner == 2
    s.apply(Play(parse_card("8S")), 2)  # the winner starts the next trick
    v = s.view(3)
    assert v.trick == ((2, parse_card("8S")),)
    assert v.last_trick is None and v.last_trick_winner is None and v.last_trick_last_player is None
    assert len(v.tricks) == 1 and v.tricks[0][1] == 2  # the won trick stays public


def test_no_must_follow_every_card_in_hand_is_legal():
    s = UnsunState(UnsunOptions())
    s.deal_random(random.Random(5))
    for _ in range(7):
        seat = s.to_act
        legal = s.legal_actions()
        assert sorted(a.card.code for a in legal) == sorted(c.code for c in s.hand(seat))
        assert all(a.request is None and not a.call_joker for a in legal)
        s.apply(legal[-1])


# ------------------------------------------------------------------------------------------
# Face-down trumps (差し)


@pytest.mark.parametrize("trump", TRUMPS)
def test_only_the_trump_honours_are_face_down_by_default(trump):
    t = Suit(trump)
    for card in DECK:
        expected = card.suit == t and card.rank >= 11
        assert is_face_down(card, t) == expected, card
        assert is_face_down(card, t, all_trumps=True) == (card.suit == t), card


def _partial_trick(plays: list[str], trump: str = "H", **options) -> UnsunState:
    start = 1
    fixed = {(start + i) % 4: [c] for i, c in enumerate(plays)}
    hands, rest = build_deal(4, fixed, indicator="2" + trump)
    s = UnsunState(UnsunOptions(**options), first=0)
    s.deal(hands, rest)
    for c in plays[:-1]:
        s.apply(Play(parse_card(c)), s.to_act)
    return s


def test_a_face_down_card_is_hidden_from_the_others_until_the_trick_is_complete():
    s = _partial_trick(["KH", "TH", "5S", "9C"])  # ♥ trump: ♥K face down, ♥10 face up
    for seat in (0, 2, 3, None):
        v = s.view(seat)
        assert v.trick[0] == (1, None) and v.trick[1] == (2, parse_card("TH"))
        assert v.face_down == (1,)
        text = json.dumps(v.to_json())
        assert '"KH"' not in text
        assert v.describe_play(1, Play(parse_card("KH")), "en") == "plays a card face down"
        assert "KH" not in " ".join(v.table_lines("en")) and "K♥" not in " ".join(v.table_lines("en"))
    own = s.view(1)
    assert own.trick[0] == (1, parse_card("KH")) and own.face_down == (1,)
    assert "(face down)" in " ".join(own.table_lines("en"))
    # the last card of the trick shows every card, the winner's included
    s.apply(Play(parse_card("9C")), 0)
    for seat in (0, 2, 3, None):
        v = s.view(seat)
        assert v.trick == () and v.last_trick is not None
        assert v.last_trick.cards == parse_cards(["KH", "TH", "5S", "9C"])
        assert v.last_trick_winner == 1
        assert v.tricks[-1][0].cards[0] == parse_card("KH")


def test_a_face_up_trump_is_seen_at_once():
    s = _partial_trick(["9H", "TH", "5S", "9C"])
    assert s.view(0).trick[:2] == ((1, parse_card("9H")), (2, parse_card("TH")))
    assert s.view(0).face_down == ()


def test_all_trumps_face_down_hides_every_trump():
    s = _partial_trick(["3H", "AS", "4D", "9C"], all_trumps_face_down=True)
    v = s.view(3)
    assert v.trick[:2] == ((1, None), (2, parse_card("AS"))) and v.face_down == (1,)
    assert '"3H"' not in json.dumps(v.to_json())
    assert s.view(1).trick[0] == (1, parse_card("3H"))
    # a non-trump ace stays face up, and the option is off by default
    assert _partial_trick(["3H", "AS", "4D", "9C"]).view(3).trick[0] == (1, parse_card("3H"))


def test_terminal_shows_a_face_down_play_hidden():
    import io

    from rich.console import Console

    from kirifuda.ui.terminal import TerminalGame

    info = find_game("unsun")
    console = Console(file=io.StringIO(), width=120, record=True)
    game = TerminalGame(
        info,
        info.options({"players": 3, "all_trumps_face_down": True}),
        seat=0,
        bots="random",
        seed=11,
        lang="en",
        console=console,
        input_fn=lambda _: "q",
    )
    state = game.state
    state.deal_random(random.Random(11))
    hidden = shown = 0
    while len(state.tricks) < 6:
        seat = state.to_act
        action = game.bots[seat].choose(state.view(seat), game.rng) if seat else state.legal_actions()[0]
        before = len(state.tricks)
        state.apply(action, seat)
        console.export_text()  # clear
        game._show_action(seat, action)
        out = console.export_text()
        if seat == 0:
            continue
        label = action.label("en")
        if len(state.tricks) == before and is_face_down(action.card, state.trump, True):
            assert label not in out and "face down" in out
            hidden += 1
        else:
            assert label in out
            shown += 1
    assert hidden and shown


@pytest.mark.parametrize(("n", "lang"), [(3, "ja"), (4, "en"), (5, "ja")])
def test_a_whole_match_in_the_terminal(tmp_path, n, lang):
    import io

    from rich.console import Console

    from kirifuda.ui.terminal import TerminalGame

    info = find_game("unsun")
    out = io.StringIO()
    path = tmp_path / "u.json"
    game = TerminalGame(
        info,
        info.options({"players": n}),
        seat=1,
        seed=n,
        lang=lang,
        record_path=path,
        console=Console(file=out, width=110),
        input_fn=lambda _: "1",
    )
    game.run()
    text = out.getvalue()
    assert game.state.is_over and len(game.state.summary()["deals"]) == n
    assert ("試合終了" if lang == "ja" else "Match over") in text
    assert ("取り番" if lang == "ja" else "Last player") in text
    assert ("勝った回" if lang == "ja" else "Deals won") in text
    rec = records.loads(path.read_text())
    assert records.replay(rec).summary() == game.state.summary()


# ------------------------------------------------------------------------------------------
# Dealing, the indicator, options


@pytest.mark.parametrize("n", [3, 4, 5])
def test_deal_sizes_and_the_indicator(n):
    size, left = {3: (16, 4), 4: (12, 4), 5: (10, 2)}[n]
    s = UnsunState(UnsunOptions(players=n))
    s.deal_random(random.Random(n))
    assert [len(s.hand(p)) for p in range(n)] == [size] * n
    assert len(s.rest) == left
    assert s.indicator == s.rest[0] and s.trump == s.rest[0].suit
    v = s.view(0)
    assert v.indicator == s.rest[0] and v.trump == s.trump and len(v.hand) == size
    rec = s.record_deals()[0]
    assert rec["rest"][0] == s.rest[0].code and len(rec["rest"]) == left


def test_deal_refuses_wrong_cards_and_counts():
    s = UnsunState(UnsunOptions(players=5))
    hands, rest = build_deal(5, {}, indicator="2H")
    with pytest.raises(DealError, match="seat 0 must be dealt 10"):
        s.deal([hands[0][:-1]] + hands[1:], rest + [hands[0][-1]])
    with pytest.raises(DealError, match="rest must hold 2"):
        s.deal(hands, rest[:1])
    with pytest.raises(DealError, match="dealt twice"):
        s.deal(hands, [rest[0], hands[0][0]])
    with pytest.raises(DealError, match="a deal has 5 hands"):
        s.deal(hands[:4], rest)
    assert s.needs_deal
    s.deal(hands, rest)
    with pytest.raises(IllegalActionError, match="a deal is in progress"):
        s.deal(hands, rest)


@pytest.mark.parametrize("face", ["AH", "KS", "QD", "JC"])
def test_reflip_refuses_a_face_card_indicator_in_a_given_deal(face):
    hands, rest = build_deal(4, {}, indicator=face)
    with pytest.raises(DealError, match="reflip_face_card"):
        UnsunState(UnsunOptions(reflip_face_card=True)).deal(hands, rest)
    s = UnsunState(UnsunOptions())  # without the option it is a fine indicator
    s.deal(hands, rest)
    assert s.indicator == parse_card(face)
    hands, rest = build_deal(4, {}, indicator="TH")
    UnsunState(UnsunOptions(reflip_face_card=True)).deal(hands, rest)


def test_reflip_deal_random_never_turns_a_face_card():
    faces = 0
    for seed in range(150):
        s = UnsunState(UnsunOptions(reflip_face_card=True))
        s.deal_random(random.Random(seed))
        assert s.indicator.rank <= 10
        t = UnsunState(UnsunOptions())
        t.deal_random(random.Random(seed))
        faces += t.indicator.rank >= 11
    assert faces > 20  # without the option face cards are turned (about 4 in 13)


def test_options_defaults_and_errors():
    o = UnsunOptions()
    assert (o.players, o.reflip_face_card, o.all_trumps_face_down, o.deals) == (4, False, False, 4)
    info = GAMES["unsun"]
    assert info.options({"players": 3}).deals == 3
    assert info.options({"players": 5}).deals == 5
    assert info.options({"players": 5, "deals": 2}).deals == 2
    assert info.options({}).deals == 4
    assert UnsunOptions(players=3) == UnsunOptions(players=3, deals=3)
    for bad in (
        {"players": 6},
        {"players": 2},
        {"players": True},
        {"players": "4"},
        {"deals": 0},
        {"deals": -1},
        {"deals": True},
        {"deals": "3"},
        {"reflip_face_card": 1},
        {"all_trumps_face_down": "yes"},
        {"target": 17},
    ):
        with pytest.raises(OptionError):
            info.options(bad)
    with pytest.raises(OptionError, match="deals"):
        UnsunOptions(deals=0)
    # the options object itself refuses bad values (not only the JSON reader), naming the option
    for kwargs, name in (
        ({"players": 6}, "players"),
        ({"players": True}, "players"),
        ({"reflip_face_card": 1}, "reflip_face_card"),
        ({"all_trumps_face_down": "yes"}, "all_trumps_face_down"),
        ({"deals": 2.0}, "deals"),
    ):
        with pytest.raises(OptionError, match=name):
            UnsunOptions(**kwargs)
    with pytest.raises(OptionError, match="first"):
        UnsunState(UnsunOptions(players=3), first=3)


def test_options_written_to_records_name_the_number_of_deals():
    s = play_random("unsun", {"players": 3}, seed=1, max_deals=1)
    rec = records.from_state(s)
    assert rec.options["deals"] == 3 and rec.options["players"] == 3


# ------------------------------------------------------------------------------------------
# Refused actions


def _whole_state(s: UnsunState) -> str:
    """Everything a state holds, hidden cards included, as text."""
    n = s.num_players
    return json.dumps(
        {
            "summary": s.summary(),
            "record": s.record_deals(),
            "to_act": s.to_act,
            "phase": s.phase.value,
            "deal": s.deal_number,
            "dealer": s.dealer,
            "hands": [[c.code for c in s.hand(p)] for p in range(n)],
            "trick": [c.code for c in s.current_trick.cards],
            "legal": [a.to_json() for a in s.legal_actions()],
            "views": [s.view(p).to_json() for p in [*range(n), None]],
        }
    )


@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_copy_and_its_original_are_independent(n):
    s = UnsunState(UnsunOptions(players=n, deals=2), first=1)
    rng = random.Random(n)
    s.deal_random(rng)
    for _ in range(n * 3 + 1):  # inside a trick, after some tricks
        s.apply(rng.choice(s.legal_actions()))
    before = _whole_state(s)
    twin = s.copy()
    assert _whole_state(twin) == before
    while not twin.is_over:  # the copy plays on, through the next deal to the match's end
        if twin.needs_deal:
            twin.deal_random(rng)
        else:
            twin.apply(rng.choice(twin.legal_actions()))
    assert _whole_state(s) == before
    # and the other way round: the original plays on, the copy taken before is unchanged
    twin = s.copy()
    twin_before = _whole_state(twin)
    _play_out_the_deal(s)
    assert s.needs_deal and _whole_state(twin) == twin_before
    s.deal_random(rng)
    s.apply(s.legal_actions()[0])
    assert _whole_state(twin) == twin_before


def test_refused_actions_name_the_rule_and_change_nothing():
    s = UnsunState(UnsunOptions())
    with pytest.raises(IllegalActionError, match="not been dealt"):
        s.apply(Play(parse_card("AS")))
    s.deal_random(random.Random(8))
    seat = s.to_act
    before = (json.dumps(s.summary()), s.record_deals(), json.dumps(s.view(seat).to_json()))
    foreign = next(c for c in DECK if c not in s.hand(seat))
    cases = [
        (Play(foreign), f"does not hold {foreign.code}"),
        (Play(JOKER), "without the joker"),
        (Play(s.hand(seat)[0], request="S"), "no joker requests"),
        (Play(s.hand(seat)[0], call_joker=True), "no joker call"),
        (Bid(7, "H"), "not an Unsun action"),
    ]
    for action, words in cases:
        with pytest.raises(IllegalActionError, match=words):
            s.apply(action)
    with pytest.raises(IllegalActionError, match=f"seat {seat}'s turn"):
        s.apply(Play(s.hand((seat + 1) % 4)[0]), (seat + 1) % 4)
    assert before == (json.dumps(s.summary()), s.record_deals(), json.dumps(s.view(seat).to_json()))


# ------------------------------------------------------------------------------------------
# Deals and the match


def test_deal_winners_share_ties_and_the_match_lasts_one_deal_per_player():
    s = play_random("unsun", {"players": 3}, seed=4)
    summary = s.summary()
    assert s.is_over and len(summary["deals"]) == 3
    assert [d["dealer"] for d in summary["deals"]] == [0, 1, 2]
    deals_won = [0, 0, 0]
    for d in summary["deals"]:
        top = max(d["tricks_won"])
        assert d["winners"] == [p for p in range(3) if d["tricks_won"][p] == top]
        assert d["score"] == d["tricks_won"] and sum(d["score"]) == 16
        for p in d["winners"]:
            deals_won[p] += 1
    assert summary["deals_won"] == deals_won
    totals = [sum(d["score"][p] for d in summary["deals"]) for p in range(3)]
    assert summary["totals"] == totals
    top = max(totals)
    best = [p for p in range(3) if totals[p] == top]
    assert summary["winner"] == (best[0] if len(best) == 1 else best)


def test_a_shared_match_win_is_a_list():
    # find a seed whose 3-player, one-deal match ends in a tie for the most tricks
    for seed in range(200):
        s = play_random("unsun", {"players": 3, "deals": 1}, seed=seed)
        totals = s.summary()["totals"]
        if totals.count(max(totals)) > 1:
            assert s.summary()["winner"] == [p for p in range(3) if totals[p] == max(totals)]
            assert isinstance(s.outcome().winner, tuple)
            return
    pytest.fail("no tied match in 200 seeds")


def test_the_option_deals_sets_the_match_length_and_the_dealer_rotates():
    s = play_random("unsun", {"players": 5, "deals": 7}, seed=2, first=3)
    deals = s.summary()["deals"]
    assert len(deals) == 7 and [d["dealer"] for d in deals] == [3, 4, 0, 1, 2, 3, 4]
    assert s.summary()["finished"]


def test_an_in_progress_deal_in_the_summary():
    s = UnsunState(UnsunOptions())
    s.deal_random(random.Random(3))
    for _ in range(6):
        s.apply(s.legal_actions()[0])
    d = s.summary()["deals"][0]
    assert d["outcome"] == "in-progress" and d["score"] == [0, 0, 0, 0]
    assert len(d["tricks"]) == 1 and sum(d["tricks_won"]) == 1
    assert d["winners"] is None and d["trump"] == s.trump.value and d["indicator"] == s.indicator.code
    assert s.summary()["totals"] == [0, 0, 0, 0] and s.summary()["winner"] is None


def test_heuristic_bot_plays_legal_cards_and_beats_random_play():
    total = [0, 0, 0, 0]
    for seed in range(6):
        s = UnsunState(UnsunOptions(), first=seed % 4)
        rng = random.Random(seed)
        bots = {p: make_bot("heuristic" if p == 0 else "random", "unsun") for p in range(4)}
        while not s.is_over:
            if s.needs_deal:
                s.deal_random(rng)
                continue
            p = s.to_act
            s.apply(bots[p].choose(s.view(p), rng), p)
        total = [a + b for a, b in zip(total, s.totals)]
    assert total[0] > max(total[1:])


# ------------------------------------------------------------------------------------------
# Properties over random matches


def reference_winner(plays: list[tuple[int, str]], trump: str) -> int:
    """Spec §5 read literally, on card codes (independent of the engine's tables)."""

    def group(code: str) -> str:
        suit = code[1]
        if suit == trump:
            return "trump"
        return "red" if suit in "HD" else "black"

    rank = "23456789TJQKA".index
    trumps = [(rank(c[0]), s) for s, c in plays if group(c) == "trump"]
    if trumps:
        return max(trumps)[1]
    *before, (last_seat, last_card) = plays
    groups_before = {group(c) for _, c in before}
    if group(last_card) in groups_before:
        contested = group(last_card)
        candidates = plays
    else:
        (contested,) = groups_before
        candidates = before
    best_seat, best = None, -1
    for s, c in candidates:
        if group(c) == contested and rank(c[0]) > best:
            best_seat, best = s, rank(c[0])
    assert best_seat is not None
    return best_seat


def _check_match(n: int, seed: int, options: dict) -> None:
    rng = random.Random(seed)
    info = GAMES["unsun"]
    state = info.new_state(info.options({"players": n, **options}), first=rng.randrange(n))
    size, left = DEAL_SIZES[n]
    all_codes = {c.code for c in DECK}
    unseen: set[str] = set()
    while not state.is_over:
        if state.needs_deal:
            unseen_before = unseen
            state.deal_random(rng)
            unseen = {c.code for c in state.rest[1:]}
            continue
        seat = state.to_act
        trick_before = state.current_trick
        deal_before = state.deal_number
        # cards conserved: hands, the trick, the tricks taken and the rest are the pack
        held = [c.code for p in range(n) for c in state.hand(p)]
        played = [c.code for t, _ in state.tricks for c in t.cards] + [c.code for c in trick_before.cards]
        everything = held + played + [c.code for c in state.rest]
        assert len(everything) == 52 and set(everything) == all_codes
        # the views: face-down cards of others hidden, the left-over cards never seen
        fd = {
            c.code
            for c in trick_before.cards
            if is_face_down(c, state.trump, options.get("all_trumps_face_down", False))
        }
        for viewer in [*range(n), None]:
            v = state.view(viewer)
            data = v.to_json()
            last_deal = data.pop("last_deal")
            text = json.dumps(data)
            for code in unseen:
                assert f'"{code}"' not in text
            for code in unseen_before:  # the previous deal's left-over cards, in its result
                assert f'"{code}"' not in json.dumps(last_deal)
            assert len(v.trick) == len(trick_before.plays)
            for (p, c), (vp, vc) in zip(trick_before.plays, v.trick):
                assert p == vp
                if c.code in fd and viewer != p:
                    assert vc is None and f'"{c.code}"' not in text
                else:
                    assert vc == c
        action = rng.choice(state.legal_actions())
        state.apply(action)
        if state.deal_number != deal_before or len(state.current_trick.plays) == 0:
            # a trick was completed: its winner follows the spec, and every card is public
            if state.deal_number != deal_before:
                d = state.summary()["deals"][deal_before]
                t = d["tricks"][-1]
                trump = d["trump"]
            else:
                t = state.summary()["deals"][-1]["tricks"][-1]
                trump = state.trump.value
            plays = [((t["leader"] + i) % n, c) for i, c in enumerate(t["cards"])]
            assert plays[-1][0] == t["last_player"] == (t["leader"] - 1) % n
            assert t["winner"] == reference_winner(plays, trump)
            v = state.view((seat + 1) % n)
            assert [c.code for c in v.last_trick.cards] == t["cards"]
            if state.deal_number == deal_before:
                assert state.starting_player == t["winner"]
                assert state.last_player == (t["winner"] - 1) % n
    summary = state.summary()
    # each deal: the next seat deals; the ♣J holder (else that deal's dealer) is the first
    # last player, and the seat after them starts
    dealt = records.from_state(state).deals
    for k, (d, rec) in enumerate(zip(summary["deals"], dealt)):
        assert d["dealer"] == (state.first + k) % n
        holders = [p for p in range(n) if "JC" in rec.hands[p]]
        last = holders[0] if holders else d["dealer"]
        assert d["tricks"][0]["last_player"] == last and d["tricks"][0]["leader"] == (last + 1) % n
    # tricks per deal add up
    for d in summary["deals"]:
        assert d["outcome"] == "played"
        assert len(d["tricks"]) == size == sum(d["tricks_won"]) == sum(d["score"])
        for k in range(1, len(d["tricks"])):
            assert d["tricks"][k]["leader"] == d["tricks"][k - 1]["winner"]
    assert summary["totals"] == [sum(d["score"][p] for d in summary["deals"]) for p in range(n)]
    assert len(summary["deals"]) == options.get("deals", n)
    # the record round trip
    text = records.dumps(records.from_state(state))
    assert records.replay(records.loads(text)).summary() == summary


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([3, 4, 5]), all_down=st.booleans(), reflip=st.booleans())
def test_random_matches_keep_the_invariants(seed, n, all_down, reflip):
    _check_match(n, seed, {"all_trumps_face_down": all_down, "reflip_face_card": reflip, "deals": 2})


@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_whole_default_match_keeps_the_invariants(n):
    _check_match(n, 100 + n, {})
