"""The search bot and the oracle on Napoleon: legal actions only in every phase and with every
option sample, and no hidden information read (two deals that differ only in cards the seat
cannot see give the same decision with the same seed)."""

from __future__ import annotations

import random
from typing import Callable

import pytest

from kirifuda.actions import Action
from kirifuda.bots import make_bot
from kirifuda.bots.base import default_bot
from kirifuda.bots.search_napoleon import BUDGETS, horizon_for, utility
from kirifuda.errors import OptionError
from kirifuda.games.napoleon import NapoleonOptions, NapoleonState, Phase, deal_points

from .conftest import play_bot_deal, redeal_unseen


def play_deal(
    kinds: list[str],
    seed: int,
    options: NapoleonOptions | None = None,
    on_action: Callable[[NapoleonState, int, Action], None] | None = None,
) -> NapoleonState:
    opts = options or NapoleonOptions()
    state = NapoleonState(opts, first=seed % opts.players)
    play_bot_deal(state, "napoleon", kinds, seed, on_action)
    return state


OPTIONS = [
    NapoleonOptions(),
    NapoleonOptions(joker=True),
    NapoleonOptions(players=4),
    NapoleonOptions(players=4, joker=True, yoromeki=True),
    NapoleonOptions(first_trick_plain=True, joker=True, redeclare=False),
]


@pytest.mark.parametrize(
    "options",
    OPTIONS,
    ids=lambda o: (
        f"{o.players}p{'-joker' if o.joker else ''}"
        f"{'-yoromeki' if o.yoromeki else ''}{'-plain' if o.first_trick_plain else ''}"
    ),
)
def test_search_and_oracle_take_legal_actions(options: NapoleonOptions) -> None:
    phases: set[str] = set()

    def seen(state: NapoleonState, seat: int, action: Action) -> None:
        phases.add(state.phase.value)

    for seed in range(2):
        state = play_deal(["search:easy", "oracle", "heuristic"], seed, options, seen)
        assert state.summary()["deals"][0]["outcome"] in ("played", "redeal")
    assert "play" in phases


@pytest.mark.parametrize("players", [5, 4])
def test_a_bot_without_memory_decides_legally_with_the_joker(players: int) -> None:
    """A bot shown a single view (no memory of the deal: a joker it never saw) still samples
    consistent deals and takes a legal action."""
    options = NapoleonOptions(players=players, joker=True)

    def fresh(state: NapoleonState, seat: int, action: Action) -> None:
        if state.phase is Phase.PLAY and len(state._log) % 3 == 0:
            got = make_bot("search:easy", "napoleon").choose(state.view(seat), random.Random(0))
            assert got in state.legal_actions()

    for seed in range(2):
        play_deal(["heuristic"], seed, options, fresh)


def test_default_level_plays_a_deal() -> None:
    state = play_deal(["search", "heuristic"], 3)
    assert state.deal_number == 1 and state.summary()["deals"][0]["outcome"] in ("played", "redeal")


def test_napoleon_plays_search_by_default() -> None:
    assert default_bot("napoleon") == "search"


def test_decisions_do_not_depend_on_unseen_cards() -> None:
    checked = 0
    phases: set[str] = set()
    for seed in range(30):
        stop = random.Random(seed).randrange(0, 60)
        box: list[NapoleonState] = []

        def grab(state: NapoleonState, seat: int, action: Action) -> None:
            if not box and len(state._log) >= stop and len(state.legal_actions()) > 1:
                box.append(state.copy())

        play_deal(["heuristic"], seed, on_action=grab)
        if not box:
            continue
        state = box[0]
        seat = state.to_act
        assert seat is not None
        other = redeal_unseen(
            state, [s for s in range(state.num_players) if s != seat and s != state.napoleon], random.Random(seed)
        )
        if other is None or [state.hand(s) for s in range(5)] == [other.hand(s) for s in range(5)]:
            continue
        if state.view(seat) != other.view(seat):
            continue
        a = make_bot("search:easy", "napoleon").choose(state.view(seat), random.Random(1))
        b = make_bot("search:easy", "napoleon").choose(other.view(seat), random.Random(1))
        assert a == b, (seed, state.phase)
        phases.add(state.phase.value)
        checked += 1
    assert checked >= 10
    assert {"bidding", "play"} <= phases


def test_exact_outcomes_are_the_deals_points() -> None:
    # seat 0 Napoleon with seat 2 as adjutant, 13 declared, 5 players
    army = 0b101
    assert utility(5, 13, 0, 0, army, False, 13, True) == deal_points(5, 13, False, True)[0] + 0.05 * 13
    assert utility(5, 13, 2, 0, army, False, 12, True) == deal_points(5, 13, False, False)[1] + 0.05 * 12
    assert utility(5, 13, 1, 0, army, False, 12, True) == deal_points(5, 13, False, False)[2] - 0.05 * 12
    # strategy B: all 20 below a 20 declaration is the allies' win
    assert utility(5, 15, 1, 0, army, False, 20, True) == deal_points(5, 15, False, False)[2] - 0.05 * 20
    # solo payouts
    assert utility(4, 14, 3, 3, 1 << 3, True, 14, True) == deal_points(4, 14, True, True)[0] + 0.05 * 14
    # an estimate is scored as the side's face cards
    assert utility(5, 13, 1, 0, army, False, 11.5, False) == -11.5


def test_horizon_is_exact_near_the_end() -> None:
    for b in BUDGETS.values():
        assert horizon_for(b.exact, b) == 0 and horizon_for(1, b) == 0
        assert 1 < horizon_for(10, b) < 10


def test_oracle_refuses_a_view() -> None:
    bot = make_bot("oracle", "napoleon")
    state = NapoleonState()
    state.deal_random(random.Random(0))
    with pytest.raises(OptionError):
        bot.choose(state.view(0), random.Random(0))


@pytest.mark.parametrize("joker", [True, False])
def test_the_bot_reads_the_joker_option_from_the_view(joker: bool) -> None:
    """With the joker in the deck the bot samples it among the hidden cards from the first
    view on, though it has not seen it (and never when the table plays without it)."""
    from kirifuda.bots.search_napoleon import NapoleonMemory
    from kirifuda.cards import JOKER_ID

    for seed in range(20):
        s = NapoleonState(NapoleonOptions(joker=joker))
        s.deal_random(random.Random(seed))
        seat = s.to_act
        view = s.view(seat)
        if any(c.id == JOKER_ID for c in view.hand):
            continue
        memory = NapoleonMemory()
        memory.update(view)
        assert memory.joker is joker
        return
    raise AssertionError("no seat without the joker in 20 deals")


def _napoleon_at_redeclare(hand: str, declared: int) -> NapoleonState:
    """Seat 0 holds ``hand``, declares ``declared`` spades, names ♥K as the adjutant and
    discards the middle: the re-declaration is its to propose."""
    from kirifuda.actions import Bid, Discard, Pass
    from kirifuda.games.napoleon import Adjutant
    from kirifuda.cards import parse_card

    from .games.test_napoleon import make_deal

    state = NapoleonState(NapoleonOptions(), first=0)
    state.deal(*make_deal(5, False, {0: hand.split()}, ["2C", "3C"]))
    state.apply(Bid(declared, "S"))
    for _ in range(5):
        state.apply(Pass())
    state.apply(Adjutant(parse_card("KH")))
    state.apply(Discard((parse_card("2C"), parse_card("3C"))))
    assert state.phase is Phase.REDECLARE and state.to_act == 0
    return state


def test_napoleon_proposes_a_higher_declaration_only_with_the_cards_for_it() -> None:
    """The almighty, both jacks, trumps K Q 10 9 and three aces, declared at 13: the bot raises
    its declaration; a hand with a few trumps and nothing else, declared at 13, keeps it."""
    from kirifuda.games.napoleon import Redeclare

    strong = _napoleon_at_redeclare("AS JS JC KS QS TS 9S AH AD AC", 13)
    got = make_bot("search", "napoleon").choose(strong.view(0), random.Random(1))
    assert isinstance(got, Redeclare) and got.count is not None and got.count > 13
    assert got in strong.legal_actions()
    weak = _napoleon_at_redeclare("AS JS 9S 8S 7S 4H 5H 6D 7D 4C", 13)
    assert make_bot("search", "napoleon").choose(weak.view(0), random.Random(1)) == Redeclare()


def test_the_oracle_weighs_the_spade_three_call() -> None:
    """♠3 on lead with the joker in another hand: the oracle (the solver on the true deal) calls
    the joker where the call takes more for its side than every other lead, and leads ♠3
    without the call where the plain lead takes more than the call."""
    from kirifuda.actions import Play
    from kirifuda.bots.search_napoleon import NapoleonOracle
    from kirifuda.games.napoleon import S3
    from kirifuda.solver.napoleon import position_of
    from kirifuda.solver.rules import CALLED

    from .test_solver_napoleon import call_state

    called = plain = 0
    for seed in range(3000):
        s = call_state(seed, {})
        if s is None:
            continue
        values = position_of(s).move_values()
        sign = 1 if s.to_act in (s.napoleon, s.adjutant) else -1
        call, lead = sign * values[(S3, CALLED)], sign * values[(S3, 0)]
        best_other = max(sign * v for (c, ld), v in values.items() if c != S3)
        a = NapoleonOracle().choose_state(s, random.Random(seed))
        assert isinstance(a, Play)
        if call > max(lead, best_other):
            assert a.card.id == S3 and a.call_joker, seed
            called += 1
        elif lead > max(call, best_other):
            assert a.card.id == S3 and not a.call_joker, seed
            plain += 1
        if called >= 3 and plain >= 3:
            break
    assert called >= 3 and plain >= 3


def test_the_search_bot_calls_the_joker_with_spade_three() -> None:
    """Search bots at a table with the joker lead ♠3 calling it (they never did: the solver did
    not model the call), and a seat that plays another card to a call is known not to hold the
    joker."""
    from kirifuda.actions import Play
    from kirifuda.bots.search import SearchBot

    calls = 0
    for seed in range(120):
        state = NapoleonState(NapoleonOptions(joker=True), first=seed % 5)
        bots = [SearchBot("napoleon") for _ in range(5)]
        rng = random.Random(seed)
        state.deal_random(rng)
        deal = state.deal_number
        while state.deal_number == deal and state.to_act is not None:
            for i, b in enumerate(bots):
                b.observe(state.view(i))
            seat = state.to_act
            a = bots[seat].choose(state.view(seat), rng)
            if isinstance(a, Play) and a.call_joker:
                calls += 1
                state.apply(a)
                while state._trick:
                    for i, b in enumerate(bots):
                        b.observe(state.view(i))
                    played = state.to_act
                    assert played is not None
                    card = bots[played].choose(state.view(played), rng)
                    state.apply(card)
                    if state._trick and isinstance(card, Play) and not card.card.is_joker:
                        for i, b in enumerate(bots):
                            b.observe(state.view(i))
                            if i != played:
                                assert played in b._part.memory.no_joker, (seed, i, played)  # type: ignore[attr-defined]
                continue
            state.apply(a)
        if calls >= 2:
            break
    assert calls >= 2


def test_a_view_without_options_in_a_called_trick() -> None:
    """A bot shown a view without the table's options, in a trick whose ♠3 lead called the
    joker, knows the joker is in use (a call is made only then) and decides legally."""
    import dataclasses

    from kirifuda.actions import Play
    from kirifuda.cards import CARDS
    from kirifuda.games.napoleon import S3

    from .test_solver_napoleon import call_state

    checked = 0
    for seed in range(3000):
        s = call_state(seed, {})
        if s is None:
            continue
        s.apply(Play(CARDS[S3], call_joker=True))
        seat = s.to_act
        assert seat is not None
        if len(s.legal_actions()) < 2:
            continue  # the joker's holder: forced
        view = dataclasses.replace(s.view(seat), options={})
        got = make_bot("search:easy", "napoleon").choose(view, random.Random(seed))
        assert got in s.legal_actions()
        checked += 1
        if checked >= 3:
            return
    raise AssertionError("too few called tricks")


def test_a_card_decision_stops_sampling_once_its_node_budget_is_spent() -> None:
    """``decision_nodes`` caps a whole card play: once the samples so far have searched that
    many nodes no further deal is solved (0: no cap, every sample solved)."""
    import dataclasses

    from kirifuda.bots.search import LEVELS
    from kirifuda.bots.search_napoleon import NapoleonSearch

    state = NapoleonState(NapoleonOptions(), first=0)
    state.deal_random(random.Random(3))
    heuristic = make_bot("heuristic", "napoleon")
    rng = random.Random(3)
    while state.phase is not Phase.PLAY or len(state.legal_actions()) < 3:
        state.apply(heuristic.choose(state.view(state.to_act), rng))
    seat = state.to_act
    assert seat is not None
    drawn = {}
    for cap in (0, 1):
        bot = NapoleonSearch(LEVELS["normal"])
        bot.budget = dataclasses.replace(BUDGETS["normal"], decision_nodes=cap)
        bot.observe(state.view(seat))
        calls = []
        sample = bot._worlds

        def counted(view: object, rng: random.Random, sample: object = sample, calls: list[int] = calls) -> object:
            for world in sample(view, rng):  # type: ignore[operator]
                calls.append(1)
                yield world

        bot._worlds = counted  # type: ignore[method-assign,assignment]
        assert bot.choose(state.view(seat), random.Random(0)) in state.legal_actions()
        drawn[cap] = len(calls)
    assert drawn == {0: BUDGETS["normal"].play_samples, 1: 1}


def _approval(fixed: dict[int, str], proposal: tuple[int, str]) -> NapoleonState:
    """Seat 0 declares 13 spades with ``fixed[0]``, names ♥K, discards the middle (♣2 ♣3) and
    proposes ``proposal``: seat 1, holding ``fixed[1]``, answers first."""
    from kirifuda.actions import Bid, Discard, Pass
    from kirifuda.cards import parse_card
    from kirifuda.games.napoleon import Adjutant, Redeclare

    from .games.test_napoleon import make_deal

    state = NapoleonState(NapoleonOptions(), first=0)
    state.deal(*make_deal(5, False, {s: h.split() for s, h in fixed.items()}, ["2C", "3C"]))
    state.apply(Bid(13, "S"))
    for _ in range(5):
        state.apply(Pass())
    state.apply(Adjutant(parse_card("KH")))
    state.apply(Discard((parse_card("2C"), parse_card("3C"))))
    state.apply(Redeclare(*proposal))
    assert state.phase is Phase.APPROVE and state.to_act == 1
    return state


NAPOLEON_STRONG = "AS JS JC KS QS TS 9S AH AD AC"


def test_the_adjutant_approves_a_raise_it_helps_make() -> None:
    """The adjutant (♥K) holds the almighty, both jacks, the top trumps and three aces: the
    army takes 14 face cards as surely as 13, and 14 pays more."""
    from kirifuda.games.napoleon import Approve

    state = _approval({0: "9S 8S 7S QH JH TH QD JD TD 2H", 1: NAPOLEON_STRONG.replace("9S", "KH")}, (14, "S"))
    assert make_bot("search", "napoleon").choose(state.view(1), random.Random(1)) == Approve(True)


def test_an_ally_approves_a_raise_it_can_break() -> None:
    """An ally holding every high spade but the almighty and the jacks, faced with a raise to 17
    spades: the army cannot take 17, and the allies gain more from a higher failed
    declaration (the heuristic, not holding the adjutant's card, would refuse)."""
    from kirifuda.games.napoleon import Approve

    napoleon = "AS JS JC 9S 8S AH AD AC 2H 2D"
    state = _approval({0: napoleon, 1: "KS QS TS 7S 6S 5S KD QD KC QC"}, (17, "S"))
    assert make_bot("heuristic", "napoleon").choose(state.view(1), random.Random(1)) == Approve(False)
    assert make_bot("search", "napoleon").choose(state.view(1), random.Random(1)) == Approve(True)


def test_search_v1_answers_a_proposal_by_rule() -> None:
    from kirifuda.games.napoleon import Approve

    napoleon = "AS JS JC 9S 8S AH AD AC 2H 2D"
    state = _approval({0: napoleon, 1: "KS QS TS 7S 6S 5S KD QD KC QC"}, (17, "S"))
    assert make_bot("search:v1", "napoleon").choose(state.view(1), random.Random(1)) == Approve(False)


def test_an_answer_does_not_depend_on_unseen_cards() -> None:
    """Two deals that differ only in the hands seat 1 cannot see give the same answer."""
    a = _approval(
        {0: NAPOLEON_STRONG, 1: "KH QH JH TH KD QD JD TD 8S 7S", 2: "2S 3S 4S 5S 6S 7H 8H 9H 3H 4H"}, (14, "S")
    )
    b = _approval(
        {0: NAPOLEON_STRONG, 1: "KH QH JH TH KD QD JD TD 8S 7S", 2: "3D 4D 5D 6D 7D 8D 9D 5C 6C 7C"}, (14, "S")
    )
    assert a.view(1) == b.view(1) and a.hand(2) != b.hand(2)
    for seed in range(3):
        x = make_bot("search", "napoleon").choose(a.view(1), random.Random(seed))
        y = make_bot("search", "napoleon").choose(b.view(1), random.Random(seed))
        assert x == y
