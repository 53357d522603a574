"""Unsun against a plain reference written from the spec alone (``unsun.md``, ``record.md``).

The reference below shares no code with the engine: cards are code strings, hands are sets,
the trick winner is §5 read sentence by sentence.  Random matches (Hypothesis over seeds,
player counts and every option of the options table) are played on the engine, the deals
either dealt by the reference (sometimes spoiled, to be refused by both) or by the engine's
own ``deal_random`` (checked against the spec's dealing).  At every decision the engine's legal
actions must be the reference's, a refused action must be refused by both and change nothing,
and the views must show what the reference's table shows (face-down trumps hidden from the
others, every card once the trick is complete, the left-over cards never).  At the end every
deal's replay JSON must be the reference's, both for the engine's record and for a record
the reference writes itself (as an independent implementation would: card codes in lower case
or with ``10``), and a spoiled copy of that record must be refused by both at the same deal and
action.  The reference also replays ``tests/records/unsun`` and ``tests/records/bad/unsun-*``,
and is checked against ``kirifuda replay --json`` run as a command.

Left out: the terminal and browser rendering (``table_lines``), the bots and the solver, the
records' ``players`` names beyond their count, and errors of form that are not Unsun's
(``format``, ``game``: ``tests/test_records.py``).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

from hypothesis import given, settings, strategies as st

from kirifuda import record
from kirifuda.cli import main
from kirifuda.errors import IllegalActionError, KirifudaError, RecordError
from kirifuda.games import GAMES

from ..conftest import assert_subset

RANKS = "23456789TJQKA"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]
FACE = "AKQJ"
SIZES = {3: (16, 4), 4: (12, 4), 5: (10, 2)}  # cards each, left over
INFO = GAMES["unsun"]


class Refused(Exception):
    pass


# -- §3 groups and §5 the trick winner ------------------------------------------------------


def group(card: str, trump: str) -> str:
    if card[1] == trump:
        return "trump"
    return "red" if card[1] in "HD" else "black"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def strongest(plays: list[tuple[int, str]]) -> int:
    """Rank alone; of equal ranks the card played earlier (``plays`` in the order played)."""
    best = plays[0]
    for p in plays[1:]:
        if rank(p[1]) > rank(best[1]):
            best = p
    return best[0]


def trick_winner(plays: list[tuple[int, str]], trump: str) -> int:
    """``plays``: (seat, card) in the order played; the last one is the last player's."""
    trumps = [p for p in plays if group(p[1], trump) == "trump"]
    if trumps:  # rule 1
        return strongest(trumps)
    *before, last = plays
    groups_before = {group(c, trump) for _, c in before}
    mine = group(last[1], trump)
    if mine in groups_before:  # rule 2: contested, the last player's card included
        return strongest([p for p in plays if group(p[1], trump) == mine])
    # rule 3: everyone before played one group; the last player played the other and loses
    assert len(groups_before) == 1
    (theirs,) = groups_before
    return strongest([p for p in before if group(p[1], trump) == theirs])


def face_down(card: str, trump: str, all_trumps: bool) -> bool:
    return card[1] == trump and (all_trumps or card[0] in FACE)


# -- the reference ------------------------------------------------------------------------


class Ref:
    def __init__(self, options: dict, first: int):
        self.n = options.get("players", 4)
        self.reflip = options.get("reflip_face_card", False)
        self.all_down = options.get("all_trumps_face_down", False)
        # ``"deals": null`` is read as left out (the spec's table does not list null, as Kakeya's
        # ``games`` does; record.md refuses "an invalid value": an open point, the engine's reading)
        self.length = self.n if options.get("deals") is None else options["deals"]
        self.options = options
        self.first = first
        self.finished: list[dict] = []  # the summaries of finished deals
        self.totals = [0] * self.n
        self.deals_won = [0] * self.n
        self.cur: dict | None = None
        self.log: list[dict] = []  # the record's deals: hands, rest, actions
        self.last_trick: tuple[list[str], int] | None = None  # shown until the next card
        self.before_hidden: set[str] = set()  # the previous deal's left-over cards

    @property
    def over(self) -> bool:
        return len(self.finished) == self.length

    # dealing, as recorded
    def check_deal(self, hands: list[list[str]], rest: list[str]) -> None:
        size, left = SIZES[self.n]
        if self.over or self.cur is not None:
            raise Refused("no deal is due")
        if len(hands) != self.n:
            raise Refused("hands")
        if any(len(h) != size for h in hands) or len(rest) != left:
            raise Refused("sizes")
        every = [c for h in hands for c in h] + list(rest)
        if sorted(every) != sorted(DECK):
            raise Refused("not the pack")
        if self.reflip and rest[0][0] in FACE:
            raise Refused("a face card indicator with reflip_face_card")

    def deal(self, hands: list[list[str]], rest: list[str]) -> None:
        self.check_deal(hands, rest)
        dealer = (self.first + len(self.finished)) % self.n
        trump = rest[0][1]
        holders = [s for s in range(self.n) if "JC" in hands[s]]
        last = holders[0] if holders else dealer
        self.cur = dict(
            hands=[set(h) for h in hands],
            dealer=dealer,
            indicator=rest[0],
            trump=trump,
            rest=list(rest),
            start=(last + 1) % self.n,
            last=last,
            to_act=(last + 1) % self.n,
            trick=[],
            tricks=[],
            won=[0] * self.n,
        )
        self.before_hidden = set(self.log[-1]["rest"][1:]) if self.log else set()
        self.log.append(dict(hands=[list(h) for h in hands], rest=list(rest), actions=[]))
        self.last_trick = None

    def random_deal(self, rng: random.Random) -> tuple[list[list[str]], list[str]]:
        """Shuffle, turn the top card (again while it is a face card under reflip), deal."""
        size, left = SIZES[self.n]
        while True:
            pack = list(DECK)
            rng.shuffle(pack)
            if not (self.reflip and pack[0][0] in FACE):
                break
        indicator, pack = pack[0], pack[1:]
        hands = [pack[s * size : (s + 1) * size] for s in range(self.n)]
        rest = [indicator] + pack[self.n * size :]
        assert len(rest) == left
        return hands, rest

    # play
    @property
    def to_act(self) -> int | None:
        return None if self.cur is None else self.cur["to_act"]

    def legal(self) -> list[dict]:
        if self.cur is None:
            return []
        return [{"play": c} for c in self.cur["hands"][self.cur["to_act"]]]  # no must-follow

    def act(self, seat: int, action: dict) -> None:
        d = self.cur
        if d is None:
            raise Refused("no deal in progress")
        if seat != d["to_act"]:
            raise Refused("turn")
        if action not in self.legal():
            raise Refused(f"not legal: {action}")
        card = action["play"]
        d["hands"][seat].remove(card)
        self.log[-1]["actions"].append(dict(seat=seat, **action))
        self.last_trick = None
        d["trick"].append((seat, card))
        if len(d["trick"]) < self.n:
            d["to_act"] = (seat + 1) % self.n
            return
        assert seat == d["last"]
        win = trick_winner(d["trick"], d["trump"])
        cards = [c for _, c in d["trick"]]
        d["tricks"].append(dict(leader=d["start"], cards=cards, winner=win, last_player=d["last"]))
        d["won"][win] += 1
        d["trick"] = []
        if len(d["tricks"]) == SIZES[self.n][0]:
            self.end()
            return
        self.last_trick = (cards, win)
        d["start"], d["last"], d["to_act"] = win, (win - 1) % self.n, win

    def end(self) -> None:
        d = self.cur
        top = max(d["won"])
        winners = [s for s in range(self.n) if d["won"][s] == top]
        for s in winners:
            self.deals_won[s] += 1
        self.totals = [t + w for t, w in zip(self.totals, d["won"])]
        self.finished.append(self.deal_summary(d, "played", list(d["won"]), winners))
        self.cur = None

    # what is seen
    def table(self, viewer: int | None) -> list[tuple[int, str | None]]:
        d = self.cur
        return [(s, None if face_down(c, d["trump"], self.all_down) and viewer != s else c) for s, c in d["trick"]]

    def hidden_from(self, viewer: int | None) -> set[str]:
        d = self.cur
        hidden = set(d["rest"][1:])
        for s in range(self.n):
            if s != viewer:
                hidden |= d["hands"][s]
        return hidden | {c for s, c in d["trick"] if s != viewer and face_down(c, d["trump"], self.all_down)}

    # the replay JSON
    def deal_summary(self, d: dict, outcome: str, score: list[int], winners: list[int] | None) -> dict:
        return dict(
            outcome=outcome,
            tricks=[dict(t) for t in d["tricks"]],
            score=score,
            trump=d["trump"],
            tricks_won=list(d["won"]),
            dealer=d["dealer"],
            indicator=d["indicator"],
            winners=winners,
        )

    def summary(self) -> dict:
        deals = list(self.finished)
        if self.cur is not None:
            deals.append(self.deal_summary(self.cur, "in-progress", [0] * self.n, None))
        winner = None
        if self.over:
            top = max(self.totals)
            best = [s for s in range(self.n) if self.totals[s] == top]
            winner = best[0] if len(best) == 1 else best
        return dict(
            game="unsun",
            deals=deals,
            totals=list(self.totals),
            finished=self.over,
            winner=winner,
            deals_won=list(self.deals_won),
        )

    def record(self, rng: random.Random) -> dict:
        """The record of the match so far, as another implementation might write it: card codes
        sometimes in lower case or with ``10``, ``first`` left out when 0, names or not."""

        def code(c: str) -> str:
            c = "10" + c[1] if c[0] == "T" and rng.random() < 0.3 else c
            return c.lower() if rng.random() < 0.2 else c

        deals = [
            dict(
                hands=[[code(c) for c in h] for h in d["hands"]],
                rest=[code(c) for c in d["rest"]],
                actions=[dict(seat=a["seat"], play=code(a["play"])) for a in d["actions"]],
            )
            for d in self.log
        ]
        data = dict(format="kirifuda-record/1", game="unsun", options=dict(self.options), deals=deals)
        if self.first or rng.random() < 0.5:
            data["first"] = self.first
        if rng.random() < 0.3:
            data["players"] = [f"P{s}" for s in range(self.n)]
        return data


def read_code(code: object) -> str:
    """A card code as record.md reads it (``10`` for ``T``, any case); anything else stays as
    it is, to be refused where it is used."""
    if not isinstance(code, str):
        return repr(code)
    c = code.upper()
    return "T" + c[2:] if c.startswith("10") else c


def reference_replay(data: dict) -> dict:
    """A record replayed by the reference: the replay JSON, or ``{"error": {deal, action}}``
    at the first deal or action the spec refuses (record.md §1, §3 "Errors")."""
    options = data.get("options") or {}
    n, deals = options.get("players", 4), options.get("deals")
    if (
        set(options) - {"players", "reflip_face_card", "all_trumps_face_down", "deals"}
        or n not in (3, 4, 5)
        or isinstance(n, bool)
        or any(not isinstance(options.get(k, False), bool) for k in ("reflip_face_card", "all_trumps_face_down"))
        or not (deals is None or isinstance(deals, int) and not isinstance(deals, bool) and deals >= 1)
        or data.get("first", 0) not in range(n)
        or len(data.get("players") or range(n)) != n
    ):
        return {"error": {"deal": None, "action": None}}
    ref = Ref(options, data.get("first", 0))
    for i, d in enumerate(data["deals"]):
        if ref.cur is not None:  # the deal before stops inside: only the last deal may
            return {"error": {"deal": i - 1, "action": None}}
        try:
            ref.deal([[read_code(c) for c in h] for h in d["hands"]], [read_code(c) for c in d["rest"]])
        except Refused:
            return {"error": {"deal": i, "action": None}}
        for j, a in enumerate(d["actions"]):
            body = {k: (read_code(v) if k == "play" else v) for k, v in a.items() if k != "seat"}
            try:
                ref.act(a["seat"], body)
            except Refused:
                return {"error": {"deal": i, "action": j, "seat": a["seat"]}}
    return ref.summary()


# -- playing the engine against it ----------------------------------------------------------


def _canon(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def _state_text(state) -> str:
    return json.dumps(
        [
            state.summary(),
            state.record_deals(),
            state.to_act,
            state.needs_deal,
            [a.to_json() for a in state.legal_actions()],
        ]
    )


def _spoil(rng: random.Random, hands: list[list[str]], rest: list[str]) -> tuple[list, list]:
    """A deal most often wrong: a doubled card, the joker, a wrong count, a face-card indicator
    (wrong only under reflip), one hand too few."""
    hands, rest = [list(h) for h in hands], list(rest)
    how = rng.randrange(5)
    if how == 0:
        hands[0][0] = hands[1][0]
    elif how == 1:
        hands[-1][-1] = "JK"
    elif how == 2:
        rest.append(hands[0].pop())
    elif how == 3:
        face = next(c for h in hands for c in h if c[0] in FACE)
        for h in hands:
            if face in h:
                h[h.index(face)] = rest[0]
        rest[0] = face
    else:
        rest += hands.pop()
    return hands, rest


def _check_views(state, ref: Ref, viewers) -> None:
    d = ref.cur
    for viewer in viewers:
        v = state.view(viewer)
        assert [(s, None if c is None else c.code) for s, c in v.trick] == ref.table(viewer)
        assert list(v.face_down) == [s for s, c in d["trick"] if face_down(c, d["trump"], ref.all_down)]
        assert (v.dealer, v.indicator.code, v.trump.value) == (d["dealer"], d["indicator"], d["trump"])
        assert (v.starting_player, v.last_player, v.to_act) == (d["start"], d["last"], d["to_act"])
        assert list(v.tricks_won) == d["won"] and list(v.totals) == ref.totals
        assert list(v.hand_sizes) == [len(h) for h in d["hands"]]
        if viewer is not None:
            assert sorted(c.code for c in v.hand) == sorted(d["hands"][viewer])
            mine = ref.legal() if viewer == d["to_act"] else []
            assert sorted(_canon(a.to_json()) for a in v.legal_actions) == sorted(map(_canon, mine))
        if ref.last_trick is not None:  # all cards of the trick are shown once it is complete
            cards, win = ref.last_trick
            assert [c.code for c in v.last_trick.cards] == cards and v.last_trick_winner == win
            assert v.last_trick_last_player == d["tricks"][-1]["last_player"]
        # won tricks lie face up: public, every card
        assert [([c.code for c in t.cards], t.leader, w) for t, w in v.tricks] == [
            (t["cards"], t["leader"], t["winner"]) for t in d["tricks"]
        ]
        assert list(v.deals_won) == ref.deals_won
        data = v.to_json()
        last_deal = json.dumps(data.pop("last_deal"))  # the previous deal's result
        for code in ref.before_hidden:  # its left-over cards, never seen
            assert f'"{code}"' not in last_deal, (viewer, code)
        text = json.dumps(data)
        for code in ref.hidden_from(viewer):
            assert f'"{code}"' not in text, (viewer, code)


def play_against_the_reference(seed: int, n: int, options: dict, stop: int | None) -> None:
    rng = random.Random(seed)
    first = rng.randrange(n)
    state = INFO.new_state(INFO.options(options), first=first)
    ref = Ref(options, first)
    steps = 0
    while not state.is_over and (stop is None or steps < stop):
        steps += 1
        assert state.needs_deal == (ref.cur is None) and state.to_act == ref.to_act
        if state.needs_deal:
            if ref.log:  # between deals: the left-over cards of the deal just ended stay unseen
                for viewer in (None, rng.randrange(n)):
                    text = json.dumps(state.view(viewer).to_json())
                    assert not any(f'"{c}"' in text for c in ref.log[-1]["rest"][1:]), viewer
            if rng.random() < 0.5:  # the reference deals: spoiled ones refused by both
                hands, rest = ref.random_deal(rng)
                if rng.random() < 0.3:
                    bad_hands, bad_rest = _spoil(rng, hands, rest)
                    before = _state_text(state)
                    try:
                        ref.check_deal(bad_hands, bad_rest)
                    except Refused:
                        try:
                            state.deal(bad_hands, bad_rest)
                        except KirifudaError:
                            pass
                        else:
                            raise AssertionError(f"engine dealt {bad_hands} {bad_rest}")
                        assert _state_text(state) == before
                    else:
                        hands, rest = bad_hands, bad_rest  # a good deal after all
                state.deal(hands, rest)
                ref.deal(hands, rest)
            else:  # the engine deals: the recorded deal must be one the spec allows
                state.deal_random(rng)
                dealt = record.from_state(state).deals[-1]
                ref.deal([list(h) for h in dealt.hands], list(dealt.rest))
            with_deal = _state_text(state)  # a second deal in progress is refused
            try:
                state.deal(*ref.random_deal(rng))
            except KirifudaError:
                pass
            else:
                raise AssertionError("dealt twice")
            assert _state_text(state) == with_deal
            _check_views(state, ref, [None, *range(n)])
            continue
        seat = state.to_act
        legal = state.legal_actions()
        assert {_canon(a.to_json()) for a in legal} == {_canon(a) for a in ref.legal()}
        if rng.random() < 0.1:  # a card not held, or a held card out of turn: refused by both
            before = _state_text(state)
            held = ref.cur["hands"][seat]
            others = [s for s in range(n) if s != seat and ref.cur["hands"][s]]
            if rng.random() < 0.5 or not others:
                who, card = seat, rng.choice([c for c in DECK if c not in held])
            else:
                who = rng.choice(others)
                card = rng.choice(sorted(ref.cur["hands"][who]))
            try:
                ref.act(who, {"play": card})
            except Refused:
                pass
            else:
                raise AssertionError("the reference took an illegal card")
            try:
                state.apply(INFO.action_from_json({"seat": who, "play": card}, who), who)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"engine took {card} from seat {who}")
            assert _state_text(state) == before
        action = rng.choice(legal)
        state.apply(action, seat)
        ref.act(seat, action.to_json())
        if ref.cur is not None:
            _check_views(state, ref, [None, ref.cur["to_act"], seat])
    if stop is None:
        assert state.is_over and ref.over
    if state.is_over:  # no deal and no card after the match
        before = _state_text(state)
        for attempt in (
            lambda: state.deal(*ref.random_deal(rng)),
            lambda: state.apply(INFO.action_from_json({"seat": 0, "play": "2S"}, 0), 0),
        ):
            try:
                attempt()
            except KirifudaError:
                pass
            else:
                raise AssertionError("the engine went on after the match")
        assert _state_text(state) == before
    ours, theirs = state.summary(), ref.summary()
    _assert_replay_json(ours, theirs)
    # the engine's record and the reference's own record replay to the same JSON
    again = record.replay_json(record.loads(record.dumps(record.from_state(state))))
    _assert_replay_json(again, theirs)
    data = ref.record(rng)
    assert reference_replay(data) == theirs
    _assert_replay_json(engine_replay(data), theirs)
    for _ in range(3):  # spoiled records: refused by both at the same deal and action
        bad = _spoil_record(rng, data, ref.n)
        expected = reference_replay(bad)
        got = engine_replay(bad)
        if "error" in expected:
            assert "error" in got, (expected, bad)
            assert {k: got["error"][k] for k in expected["error"]} == expected["error"], (got, expected)
        else:
            _assert_replay_json(got, expected)
    for ours_deal, theirs_deal in zip(record.from_state(state).deals, ref.log):
        assert [sorted(h) for h in ours_deal.hands] == [sorted(h) for h in theirs_deal["hands"]]
        assert ours_deal.rest[0] == theirs_deal["rest"][0]  # the indicator first
        assert sorted(ours_deal.rest) == sorted(theirs_deal["rest"])
        assert ours_deal.actions == theirs_deal["actions"]


def engine_replay(data: dict) -> dict:
    """``kirifuda replay --json`` on the record: the JSON, or the error's deal, action, seat."""
    try:
        return record.replay_json(record.loads(json.dumps(data)))
    except RecordError as exc:
        where = [f"deal {exc.deal}"]
        if exc.action is not None:
            where += [f"action {exc.action}", f"seat {exc.seat}"]
        assert all(w in str(exc) for w in where), str(exc)  # the message names them
        return {"error": {"deal": exc.deal, "action": exc.action, "seat": exc.seat}}


def _spoil_record(rng: random.Random, data: dict, n: int) -> dict:
    """The record with one thing wrong (or, by chance, still right): a card not held, a seat
    out of turn, an action twice, left out or foreign to Unsun, a deal cut short, spoiled or
    one too many."""
    bad = json.loads(json.dumps(data))
    deals = bad["deals"]
    with_actions = [d for d in deals if d["actions"]]
    how = rng.randrange(8)
    if how < 5 and with_actions:
        d = rng.choice(with_actions)
        j = rng.randrange(len(d["actions"]))
        a = d["actions"][j]
        if how == 0:
            a["play"] = rng.choice(DECK + ["JK"])
        elif how == 1:
            a["seat"] = rng.randrange(n)
        elif how == 2:
            d["actions"].insert(j, dict(a))
        elif how == 3:
            del d["actions"][j]
        else:
            a.update(rng.choice([{"request": "H"}, {"call_joker": True}]))
    elif how == 5 and deals:
        d = rng.choice(deals)
        d["hands"], d["rest"] = _spoil(
            rng, [[read_code(c) for c in h] for h in d["hands"]], [read_code(c) for c in d["rest"]]
        )
    elif how == 6 and len(deals) > 1:
        d = rng.choice(deals[:-1])
        del d["actions"][rng.randrange(len(d["actions"]) + 1) :]
    elif deals:
        deals.append(json.loads(json.dumps(deals[-1])))
    return bad


DEAL_KEYS = ("outcome", "tricks", "score", "trump", "tricks_won", "dealer", "indicator", "winners")


def _assert_replay_json(ours: dict, theirs: dict) -> None:
    assert ours["game"] == theirs["game"]
    assert len(ours["deals"]) == len(theirs["deals"])
    for i, (a, b) in enumerate(zip(ours["deals"], theirs["deals"])):
        for k in DEAL_KEYS:
            assert a[k] == b[k], (i, k, a[k], b[k])
    for k in ("totals", "finished", "winner", "deals_won"):
        assert ours[k] == theirs[k], (k, ours[k], theirs[k])


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.sampled_from([3, 4, 5]),
    reflip=st.sampled_from([None, False, True]),
    all_down=st.sampled_from([None, False, True]),
    deals=st.one_of(st.none(), st.just("null"), st.integers(1, 6)),
    stop=st.one_of(st.none(), st.integers(0, 120)),
)
def test_the_engine_agrees_with_a_plain_reference(seed, n, reflip, all_down, deals, stop):
    options: dict = {"players": n} if n != 4 or seed % 2 else {}  # players left out: 4
    for name, value in (("reflip_face_card", reflip), ("all_trumps_face_down", all_down), ("deals", deals)):
        if value is not None:  # left out: the default
            options[name] = None if value == "null" else value
    play_against_the_reference(seed, n, options, stop)


def test_the_reference_reads_section_5_as_written():
    # ♥ trump: groups {♥}, {♦}, {♠ ♣}; seats 1 2 3 then the last player 0
    plays = lambda cards: [((1 + i) % 4, c) for i, c in enumerate(cards)]
    assert trick_winner(plays(["AS", "3H", "AD", "KS"]), "H") == 2  # any trump
    assert trick_winner(plays(["AD", "5S", "3C", "7S"]), "H") == 0  # black contested
    assert trick_winner(plays(["2D", "8S", "8C", "4S"]), "H") == 2  # tie: the earlier
    assert trick_winner(plays(["5S", "QC", "9S", "AD"]), "H") == 2  # switching away loses
    assert face_down("JH", "H", False) and not face_down("TH", "H", False)
    assert face_down("TH", "H", True) and not face_down("AS", "H", True)


RECORDS = Path(__file__).parent.parent / "records"


def test_the_reference_replays_the_unsun_records_as_their_expected_results():
    good = sorted(p for p in (RECORDS / "unsun").glob("*.json") if not p.name.endswith(".expected.json"))
    assert len(good) >= 6
    for path in good:
        data = json.loads(path.read_text())
        theirs = reference_replay(data)
        assert_subset(json.loads(path.with_name(path.stem + ".expected.json").read_text()), theirs, path.stem)
        _assert_replay_json(engine_replay(data), theirs)


def test_the_reference_refuses_the_bad_unsun_records_where_the_engine_does():
    bad = sorted(p for p in (RECORDS / "bad").glob("unsun-*.json") if not p.name.endswith(".error.json"))
    assert len(bad) >= 15
    for path in bad:
        expected = json.loads(path.with_name(path.stem + ".error.json").read_text())
        got = reference_replay(json.loads(path.read_text()))
        assert "error" in got, path.stem
        where = (got["error"]["deal"], got["error"]["action"])
        assert where == (expected["deal"], expected["action"]), path.stem


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([3, 4, 5]))
def test_kirifuda_replay_json_prints_the_references_result(seed, n, tmp_path_factory):
    """The command itself: the JSON on standard output, or status 1 and the error's indices."""
    rng = random.Random(seed)
    ref = Ref({"players": n, "deals": 2, "all_trumps_face_down": rng.random() < 0.5}, rng.randrange(n))
    while not ref.over and rng.random() < 0.995:
        if ref.cur is None:
            ref.deal(*ref.random_deal(rng))
        else:
            ref.act(ref.to_act, rng.choice(ref.legal()))
    data = ref.record(rng)
    path = tmp_path_factory.mktemp("rec") / "r.json"
    for record_data in (data, _spoil_record(rng, data, n)):
        expected = reference_replay(record_data)
        path.write_text(json.dumps(record_data))
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = main(["replay", str(path), "--json"])
        printed = json.loads(out.getvalue())
        assert status == (1 if "error" in expected else 0)
        if "error" in expected:
            assert {k: printed["error"][k] for k in expected["error"]} == expected["error"]
        else:
            assert printed == expected
