"""The search bot and the oracle on Meitora: legal actions only, no hidden information read,
claims always valid, and the claim test sound on hand-built endings."""

from __future__ import annotations

import random

import pytest

from kirifuda.actions import Claim, Discard, Play
from kirifuda.bots import make_bot
from kirifuda.bots.search_meitora import MeitoraMemory, claim_is_provable, deal_points
from kirifuda.cards import parse_cards
from kirifuda.games.meitora import MeitoraOptions, MeitoraState, Phase
from kirifuda.errors import OptionError

from .conftest import play_bot_deal, redeal_unseen


def play_deal(kinds: list[str], seed: int, options: MeitoraOptions | None = None, on_action=None) -> MeitoraState:  # type: ignore[no-untyped-def]
    state = MeitoraState(options or MeitoraOptions(), first=seed % 4)
    play_bot_deal(state, "meitora", kinds, seed, on_action)
    return state


@pytest.mark.parametrize("options", [MeitoraOptions(), MeitoraOptions(joker_lead="trump", claim_failure="refuse")])
def test_search_and_oracle_take_legal_actions_and_claim_validly(options: MeitoraOptions) -> None:
    claims = []

    def check(state: MeitoraState, seat: int, action: object) -> None:
        if isinstance(action, Claim):
            assert state._claim_is_valid(seat)
            claims.append(seat)

    for seed in range(6):
        state = play_deal(["search:easy", "oracle"], seed, options, check)
        last = state.summary()["deals"][-1]
        assert "chombo" not in last
    assert claims, "no claim was made: the test would prove nothing"


def test_decisions_do_not_depend_on_unseen_cards() -> None:
    """Two deals that differ only in cards the seat cannot see give the same view and the same
    decision, with the same seed (the declarer's own hidden cards are not moved either)."""
    checked = 0
    for seed in range(40):
        stop = random.Random(seed).randrange(2, 30)
        box: list[MeitoraState] = []

        def grab(state: MeitoraState, seat: int, action: object) -> None:
            if len(box) == 0 and state.phase is Phase.PLAY and len(state.tricks) * 4 + len(state._trick) >= stop:
                box.append(state.copy())

        play_deal(["heuristic"], seed, on_action=grab)
        if not box:
            continue
        state = box[0]
        seat = state.to_act
        assert seat is not None
        other = redeal_unseen(state, [s for s in range(4) if s != seat and s != state.declarer], random.Random(seed))
        if other is None or [state.hand(s) for s in range(4)] == [other.hand(s) for s in range(4)]:
            continue
        assert state.view(seat) == other.view(seat)
        a = make_bot("search:easy", "meitora").choose(state.view(seat), random.Random(1))
        b = make_bot("search:easy", "meitora").choose(other.view(seat), random.Random(1))
        assert a == b
        checked += 1
    assert checked >= 10


def _at_first_lead(hands: list[str], contract: str) -> MeitoraState:
    """Seat 0 declares ``contract`` with ``hands`` (the agari 5C is its negri) and leads."""
    from kirifuda.actions import Bid, Pass

    s = MeitoraState()
    s.deal([parse_cards(h.split()) for h in hands], parse_cards(["5C"]))
    s.apply(Bid(int(contract[:-1]), contract[-1]))
    for _ in range(3):
        s.apply(Pass())
    s.apply(Discard(parse_cards(["5C"])))
    return s


def _provable(s: MeitoraState, seat: int = 0) -> bool:
    memory = MeitoraMemory()
    view = s.view(seat)
    memory.update(view)
    return claim_is_provable(view, memory)


REST = ["JS TS 9S 8S 7S JH TH 9H 8H 7H", "QD JD TD 9D 8D QC JC TC 9C 8C"]


def test_claim_provable_with_every_card_a_master() -> None:
    s = _at_first_lead(["JK AS KS QS AH KH QH AD KD AC", *REST, "KC 6S 5S 6H 5H 7D 6D 5D 7C 6C"], "10N")
    assert _provable(s) and s._claim_is_valid(0)


def test_claim_not_provable_with_an_unseen_joker() -> None:
    s = _at_first_lead(["KC AS KS QS AH KH QH AD KD AC", *REST, "JK 6S 5S 6H 5H 7D 6D 5D 7C 6C"], "10N")
    assert not _provable(s)
    assert not s._claim_is_valid(0)


def test_claim_needs_trumps_at_least_as_many_and_higher() -> None:
    # spades trump: JK JS JC AS KS QS against TS..5S (six each), AH KH AD AC masters: provable
    hands = [
        "JK JS JC AS KS QS AH KH AD AC",
        "TS 9S 8S 7S 6S 5S JH TH 9H 8H",
        "QD JD TD 9D 8D QC KC TC 9C 8C",
        "QH 7H 6H 5H 7D 6D 5D 7C 6C KD",
    ]
    s = _at_first_lead(hands, "6S")
    assert _provable(s) and s._claim_is_valid(0)
    # KD instead of AD: AD is unseen, so the claim is not provable (and here it is false)
    hands2 = [
        "JK JS JC AS KS QS AH KH KD AC",
        "TS 9S 8S 7S 6S 5S JH TH 9H 8H",
        "QD JD TD 9D 8D QC KC TC 9C 8C",
        "QH 7H 6H 5H 7D 6D 5D 7C 6C AD",
    ]
    s2 = _at_first_lead(hands2, "6S")
    assert not _provable(s2) and not s2._claim_is_valid(0)
    # not on lead: never claims
    s.apply(Play(parse_cards(["AH"])[0]))
    assert not _provable(s, 1)


def test_deal_points() -> None:
    assert deal_points(7, 7) == 2 and deal_points(8, 10) == 4 and deal_points(8, 5) == -3


def test_oracle_refuses_a_view() -> None:
    bot = make_bot("oracle", "meitora")
    state = MeitoraState()
    state.deal_random(random.Random(0))
    with pytest.raises(OptionError):
        bot.choose(state.view(0), random.Random(0))


def test_unknown_level_is_refused() -> None:
    with pytest.raises(OptionError, match="level"):
        make_bot("search:grandmaster", "meitora")


@pytest.mark.parametrize("players", [6])
def test_kakeya_search_and_oracle_take_legal_actions(players: int) -> None:
    from kirifuda.games.kakeya import KakeyaOptions, KakeyaState

    state = KakeyaState(KakeyaOptions(players=players))
    play_bot_deal(state, "kakeya", ["oracle", "search:easy"], players)
    assert state.deal_number == 1


def test_search_works_without_the_c_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the extension was not built, the pure-Python solver (with the same node budgets)
    takes over: slower, still legal decisions."""
    from kirifuda.solver import _core

    monkeypatch.setattr(_core, "csolver", None)
    box: list[MeitoraState] = []

    def grab(state: MeitoraState, seat: int, action: object) -> None:
        if (
            not box
            and state.phase is Phase.PLAY
            and len(state.tricks) == 6
            and len(state._trick) == 1
            and sum(isinstance(a, Play) for a in state.legal_actions()) > 1
        ):
            box.append(state.copy())

    for seed in range(20):
        play_deal(["heuristic"], seed, on_action=grab)
        if box:
            break
    assert box
    state = box[0]
    seat = state.to_act
    assert seat is not None
    action = make_bot("search:easy", "meitora").choose(state.view(seat), random.Random(0))
    assert action in state.legal_actions()


def test_kakeya_decisions_do_not_depend_on_unseen_cards() -> None:
    from kirifuda.games.kakeya import KakeyaState

    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = KakeyaState()
        state.deal_random(rng)
        heuristic = make_bot("heuristic", "kakeya")
        for _ in range(rng.randrange(3, 30)):
            seat = state.to_act
            assert seat is not None
            state.apply(heuristic.choose(state.view(seat), rng), seat)
        seat = state.to_act
        if seat is None or state.phase.value != "play":
            continue
        other = redeal_unseen(state, [s for s in range(4) if s != seat], rng)
        if other is None or [state.hand(s) for s in range(4)] == [other.hand(s) for s in range(4)]:
            continue
        assert state.view(seat) == other.view(seat)
        a = make_bot("search:easy", "kakeya").choose(state.view(seat), random.Random(1))
        b = make_bot("search:easy", "kakeya").choose(other.view(seat), random.Random(1))
        assert a == b
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("joker_lead", ["request", "trump"])
def test_the_bot_reads_the_joker_lead_option_from_the_view(joker_lead: str) -> None:
    """The bot knows from the first view of a deal whether a joker lead names a request."""
    s = MeitoraState(MeitoraOptions(joker_lead=joker_lead))
    s.deal_random(random.Random(3))
    memory = MeitoraMemory()
    memory.update(s.view(s.to_act))
    assert memory.joker_lead == joker_lead


def test_the_bot_reads_voids_from_a_joker_leads_request_in_a_finished_trick() -> None:
    """A joker lead asking for diamonds, followed by two players with none: a seat shown the
    trick only once it is finished (just taken, or in its own team's pile) knows them void."""
    from kirifuda.actions import Bid, Pass, Play
    from kirifuda.cards import JOKER

    s = MeitoraState()
    s.deal(
        [
            parse_cards(h.split())
            for h in (
                "JK JH JD AH KH QH TH AS AC AD",
                "9H 8H 7H KS QS TS 9S KC QC TC",
                "6H 5H JS 8S 7S 6S 5S 9C 8C 7C",
                "KD QD TD 9D 8D 7D 6D 5D JC 6C",
            )
        ],
        parse_cards(["5C"]),
    )
    s.apply(Bid(7, "H"))
    for _ in range(3):
        s.apply(Pass())
    s.apply(Discard(parse_cards(["5C"])))
    s.apply(Play(JOKER, "D"))
    for code in ("9S", "8S", "5D"):
        s.apply(Play(parse_cards([code])[0]))
    diamonds = 2
    memory = MeitoraMemory()
    memory.update(s.view(3))  # the trick just taken, with its request
    assert {(1, diamonds), (2, diamonds)} <= memory.voids and (3, diamonds) not in memory.voids
    s.apply(Play(parse_cards(["AS"])[0]))  # the next trick: only team 0 still sees it
    memory = MeitoraMemory()
    memory.update(s.view(2))
    assert (1, diamonds) in memory.voids


def _at_bidding(hands: list[str], agari: str, before: list[str]) -> MeitoraState:
    """Seats 0–3 hold ``hands``; ``before``: the first bids (``"8H"`` or ``"pass"``) from seat 0."""
    from kirifuda.actions import Bid, Pass

    s = MeitoraState()
    s.deal([parse_cards(h.split()) for h in hands], parse_cards([agari]))
    for b in before:
        s.apply(Pass() if b == "pass" else Bid(int(b[:-1]), b[-1]))
    assert s.phase is Phase.BIDDING
    return s


PARTNER_HEARTS = "AH KH QH JH JD AS AD AC KS KC"
WEAK_WITH_JOKER = "JK TH 9H 8H 7H 6H 5H 5S 6S 5C"


def test_a_weak_hand_with_nothing_declares_broken() -> None:
    from kirifuda.games.meitora import Broken

    s = _at_bidding(_fill(["5S 6S 7S 8S 5H 6H 7H 5D 6D 5C", "", "", ""], "9C"), "9C", [])
    assert make_bot("search", "meitora").choose(s.view(0), random.Random(1)) == Broken()


def _fill(hands: list[str], agari: str) -> list[str]:
    """The hands completed to ten cards from the deck, in order."""
    from kirifuda.cards import CARDS
    from kirifuda.games.meitora import DECK_IDS

    used = {c for h in hands for c in h.split()} | {agari}

    free = [CARDS[i].code for i in DECK_IDS if CARDS[i].code not in used]
    out = []
    for h in hands:
        cards = h.split()
        while len(cards) < 10:
            cards.append(free.pop(0))
        out.append(" ".join(cards))
    return out


def test_a_weak_hand_that_carries_partners_contract_does_not_declare_broken() -> None:
    """Partner bid 8♥ and the weak hand holds the joker and six hearts: partner's contract is
    worth more than a new deal, so the search bot plays on (v1 and the heuristic declare broken
    whenever they may)."""
    from kirifuda.games.meitora import Broken

    hands = _fill([PARTNER_HEARTS, "", WEAK_WITH_JOKER, ""], "9C")
    s = _at_bidding(hands, "9C", ["8H", "pass"])
    assert make_bot("search", "meitora").choose(s.view(2), random.Random(1)) != Broken()
    assert make_bot("search:v1", "meitora").choose(s.view(2), random.Random(1)) == Broken()
    assert make_bot("oracle", "meitora").choose_state(s, random.Random(1)) != Broken()


def test_a_broken_decision_does_not_depend_on_unseen_cards() -> None:
    a = _at_bidding(_fill([PARTNER_HEARTS, "", WEAK_WITH_JOKER, ""], "9C"), "9C", ["8H", "pass"])
    b = _at_bidding(_fill([PARTNER_HEARTS, "", WEAK_WITH_JOKER, "7S 8S 9S TS"], "9C"), "9C", ["8H", "pass"])
    assert a.view(2) == b.view(2) and a.hand(3) != b.hand(3)
    for seed in range(3):
        x = make_bot("search", "meitora").choose(a.view(2), random.Random(seed))
        y = make_bot("search", "meitora").choose(b.view(2), random.Random(seed))
        assert x == y


def _kakeya_at_trump(players: int, seed: int):  # type: ignore[no-untyped-def]
    from kirifuda.games.kakeya import KakeyaOptions, KakeyaState

    state = KakeyaState(KakeyaOptions(players=players))
    state.deal_random(random.Random(seed))
    assert state.phase.value == "trump"
    return state


@pytest.mark.parametrize("players", [4, 6])
def test_kakeya_trump_by_simulation_keeps_a_trump_no_suit_beats(players: int) -> None:
    """Before any card is seen every suit is as good as another (relabelling the suits maps each
    deal to an equally likely one): the simulation finds no suit clear of its noise and keeps;
    a pair sitting out keeps; two different deals give the same choice with the same seed."""
    from kirifuda.games.kakeya import ChooseTrump

    for seed in range(3):
        a = _kakeya_at_trump(players, seed)
        b = _kakeya_at_trump(players, seed + 100)
        seat = a.to_act
        assert seat is not None and a.view(seat) == b.view(seat)
        x = make_bot("search", "kakeya").choose(a.view(seat), random.Random(seed))
        y = make_bot("search", "kakeya").choose(b.view(seat), random.Random(seed))
        assert x == y == ChooseTrump(None)


def test_kakeya_trump_simulation_scores_every_suit() -> None:
    """The trump decision solves every suit in the same sampled deals (the trace holds each
    suit's outcomes, as many as the deals), and ``search:v1`` keeps by rule."""
    from kirifuda.bots.trace import Trace
    from kirifuda.games.kakeya import ChooseTrump

    state = _kakeya_at_trump(4, 0)
    seat = state.to_act
    assert seat is not None
    trace = Trace()
    make_bot("search", "kakeya").choose_traced(state.view(seat), random.Random(0), trace)  # type: ignore[attr-defined]
    assert trace.kind == "trump"
    counts = {len(stats.scores) for stats in trace.choices.values()}
    assert len(trace.choices) == 4 and counts == {16}
    assert make_bot("search:v1", "kakeya").choose(state.view(seat), random.Random(0)) == ChooseTrump(None)
