"""The environment core over every registered game: the action catalog covers every legal
action, masks match the engine, illegal actions are refused, rewards are the deal's score, and an
observation encodes nothing hidden from its seat."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the research environments need numpy (pip install 'kirifuda[pettingzoo]')")

from kirifuda.env.core import ActionCatalog, GameEnv, cards_in, layout_markdown, view_string  # noqa: E402
from kirifuda.errors import IllegalActionError  # noqa: E402

from .helpers import CASE_IDS, CASES, deal_cards, random_permutation, replay_deal  # noqa: E402


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_random_episodes_mask_and_rewards(game, options):
    env = GameEnv(game, options)
    rng = random.Random(5)
    for episode in range(4):
        env.reset(seed=episode)
        size = env.encoder.size
        rewards = None
        steps = 0
        while not env.done:
            seat = env.to_act
            ids = env.legal_ids()
            mask = env.legal_mask()
            assert mask.dtype == np.int8 and mask.shape == (env.catalog.size,)
            assert list(np.flatnonzero(mask)) == list(ids) and ids
            obs = env.observe(seat)
            assert obs.shape == (size,) and obs.dtype == np.float32
            # every engine action the mask offers is one of the engine's legal actions
            if not env.stepper.pending:
                engine_legal = set(env.state.legal_actions())
                for i in ids:
                    a = env.catalog.action(i)
                    if type(a).__name__ != "Discard" or env.stepper._discards in (None, {}):
                        assert a in engine_legal
            rewards = env.step(rng.choice(ids))
            steps += 1
        assert rewards is not None and len(rewards) == env.num_players
        # the reward is the change of the match totals of the seat's unit over the deal
        start = env.info.new_state(env.options, first=0).view(None).totals
        totals = env.state.summary()["totals"]
        units = len(totals)
        assert rewards == [float(totals[s % units]) - float(start[s % units]) for s in range(env.num_players)]
        assert env.state.deal_number >= 1


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_an_illegal_action_raises_and_changes_nothing(game, options):
    env = GameEnv(game, options)
    env.reset(seed=11)
    illegal = next(i for i in range(env.catalog.size) if i not in env.legal_ids())
    before = env.state.summary(), env.legal_ids()
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(IllegalActionError):
        env.step(env.catalog.size)
    assert (env.state.summary(), env.legal_ids()) == before


def test_seeded_resets_repeat_and_differ():
    env = GameEnv("meitora")
    env.reset(seed=1)
    a = env.observe(0).copy()
    env.reset(seed=1)
    assert np.array_equal(a, env.observe(0))
    env.reset(seed=2)
    assert not np.array_equal(a, env.observe(0))


def test_match_mode_plays_the_whole_match():
    env = GameEnv("meitora", {"target": 3}, match=True)
    env.reset(seed=0)
    rng = random.Random(0)
    total = [0.0] * 4
    while not env.done:
        r = env.step(rng.choice(env.legal_ids()))
        if r is not None:
            total = [t + x for t, x in zip(total, r)]
    assert env.state.is_over
    totals = env.state.outcome().totals
    assert total == [float(totals[s % 2]) for s in range(4)]


def test_catalog_indices_are_stable_and_card_indexed():
    cat = ActionCatalog.for_game("meitora")
    assert [cat.describe(i) for i in (0, 12, 52)] == ["play 2S", "play AS", "play JK"]
    assert cat.card_of(cat.family_start["discard"] + 7) == 7
    assert len(set(cat.actions)) == cat.size


def _sample_states(game, options, seed, count):
    """(state, deal record, first) at random points of first deals."""
    rng = random.Random(seed)
    env = GameEnv(game, options)
    out = []
    episode = 0
    while len(out) < count and episode < 10 * count:
        env.reset(seed=seed * 1000 + episode)
        episode += 1
        stop = rng.randrange(1, 60)
        steps = 0
        while not env.done and steps < stop and not env.stepper.pending:
            env.step(rng.choice(env.legal_ids()))
            steps += 1
        if env.done or env.stepper.pending or env.state.deal_number != 0:
            continue
        out.append((env.state.copy(), env.state.record_deals()[-1]))
    return out


@pytest.mark.parametrize(("game", "options"), CASES, ids=CASE_IDS)
def test_an_observation_never_encodes_a_hidden_card(game, options):
    """Rename at random the cards a seat cannot see (in the deal and in the actions) and replay:
    whenever the renamed deal is still legal and tells the table the same public story (the
    spectator's view is the same: e.g. an Unsun face-down card is still one), the seat's
    observation is unchanged.  Renaming a card the seat does see changes it (the test can fail)."""
    rng = random.Random(3)
    changed = checked = 0
    env = GameEnv(game, options)
    for state, deal in _sample_states(game, options, seed=7, count=6):
        for seat in range(env.num_players):
            obs = env.encoder.encode(state.view(seat))
            public = view_string(state.view(None))
            visible = set(cards_in(state.view(seat)))
            hidden = [c for c in deal_cards(deal) if c not in visible]
            for _ in range(6):
                perm = random_permutation(hidden, rng)
                other = replay_deal(game, options, state.first, deal, perm)
                if other is None or view_string(other.view(None)) != public:
                    continue
                checked += 1
                changed += any(perm[c] != c for c in hidden)
                assert np.array_equal(env.encoder.encode(other.view(seat)), obs), (seat, perm)
            own = [c.id for c in state.view(seat).hand]
            spare = [c for c in range(53) if c not in deal_cards(deal)]
            if own and spare:  # a seen card renamed to a card out of the deal: the observation moves
                other = replay_deal(game, options, state.first, deal, {own[0]: spare[0], spare[0]: own[0]})
                if other is not None:
                    assert not np.array_equal(env.encoder.encode(other.view(seat)), obs)
    assert checked > 0 and changed > 0


@pytest.mark.parametrize("game", sorted({g for g, _ in CASES}))
def test_layout_documents_every_field(game):
    text = layout_markdown(game)
    env = GameEnv(game)
    for name, _, _, _ in env.encoder.layout():
        assert f"`{name}`" in text
    # left out: the previous deal's result (a mapping; its score is in the totals) and Kakeya's
    # seating of the pairs (fixed by the table size)
    assert set(env.encoder.skipped) <= {"last_deal", "pairs"}


@pytest.mark.parametrize("options", [{}, {"players": 4, "joker": True}])
def test_a_multi_card_discard_is_taken_card_by_card(options):
    if "napoleon" not in {g for g, _ in CASES}:
        pytest.skip("Napoleon is not registered")
    env = GameEnv("napoleon", options)
    rng = random.Random(1)
    for seed in range(20):
        env.reset(seed=seed)
        while not env.done and env.state.phase.value != "discard":
            env.step(rng.choice(env.legal_ids()))
        if not env.done:
            break
    assert not env.done
    seat = env.to_act
    start = env.catalog.family_start["discard"]
    size = len(env.state.legal_actions()[0].cards)
    hand = [c.id for c in env.state.view(seat).hand]
    assert list(env.legal_ids()) == sorted(start + c for c in hand)  # any cards may be discarded
    pending_at = next(off for name, off, _, _ in env.encoder.layout() if name == "pending_discard")
    picks = rng.sample(hand, size)
    for k, card in enumerate(picks):
        if k:
            with pytest.raises(IllegalActionError):
                env.step(start + picks[0])  # a card already picked
        before = env.state.summary()
        env.step(start + card)
        if k < size - 1:
            assert env.state.summary() == before and env.to_act == seat
            obs = env.observe(seat)
            assert sorted(np.flatnonzero(obs[pending_at : pending_at + 53])) == sorted(picks[: k + 1])
            assert not env.observe((seat + 1) % env.num_players)[pending_at : pending_at + 53].any()
            assert start + card not in env.legal_ids()
    assert sorted(c.id for c in env.state.view(seat).discard) == sorted(picks)
    assert env.state.phase.value != "discard"


def test_the_mask_never_offers_a_claim_that_may_be_refused() -> None:
    """Under Meitora's claim_failure=refuse a claim is accepted only when it holds, which
    depends on the other hands: the mask leaves it out always (it would leak them)."""
    from kirifuda.actions import CLAIM, Discard, action_from_json
    from kirifuda.env.core import Stepper
    from kirifuda.games.meitora import DECK

    env = GameEnv("meitora", {"claim_failure": "refuse"})
    s = env.new_match()
    hand0 = "JK JH JD AH KH QH TH 9H 8H 7H".split()
    rest = [c.code for c in DECK if c.code not in hand0]
    s.deal([hand0, rest[0:10], rest[10:20], rest[20:30]], rest[30:])
    for a in ("10H", "pass", "pass", "pass"):
        s.apply(action_from_json({"bid": a}))
    s.apply(next(x for x in s.legal_actions() if isinstance(x, Discard) and x.cards[0].code == rest[30]))
    assert CLAIM in s.legal_actions()  # it holds here ...
    ids = Stepper(s, env.catalog).legal_ids()
    assert env.catalog.index(CLAIM) not in ids  # ... and still is not in the mask
