"""Twelve (十二): a tiny three-player trick game of twelve cards that exists only for the tests.

It proves ``docs/architecture.md``'s "Adding a game": it writes exactly what that list asks —
options, phases, a view, a state, its action JSON, its words (ja/en), a
:class:`~kirifuda.game.GameInfo` with its action space, roles and bot module, a heuristic bot,
a record with its expected result (``tests/records/twelve/``), and its rules (this docstring,
for a game that ships: ``docs/<id>.md``) — and registers itself with
:func:`kirifuda.games.register_game`.  No shared file names it; the conformance, record, env
and server-frame tests pick it up from the registry (the root ``conftest.py`` imports this
module so that it is registered before the tests are collected).

The rules: twelve cards, ♠ and ♥ from 9 to A; four to each of three players; the first player
leads (``first`` in the first deal, then the next seat each deal); the others must follow suit
if they can; the highest card of the suit led wins the trick and leads the next; a deal scores
one point per trick; a match is ``deals`` deals (default 2); the most points wins (a tie is
shared).  (Three players, not two: the research adapters' tests swap cards between two other
seats, which a two-player game without a kitty does not have.)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Mapping, Sequence

from kirifuda.actions import PLAY_KIND, Action, ActionKind, Play
from kirifuda.bots import register_heuristic
from kirifuda.cards import CARDS, Card, cards_of, parse_card
from kirifuda.dealing import check_deal
from kirifuda.errors import DealError, InvalidActionError, OptionError
from kirifuda.game import ActionSpace, GameInfo, GameState, Outcome, View, options_to_json, public_options
from kirifuda.games import register_game
from kirifuda.i18n import add_terms, t
from kirifuda.tricks import Trick
from kirifuda.ui.results import GameText, register, who_text

GAME_ID = "twelve"
DECK: tuple[Card, ...] = tuple(parse_card(f"{r}{s}") for s in "SH" for r in "9TJQKA")
N = 3
HAND = 4


@dataclass(frozen=True)
class TwelveOptions:
    deals: int = 2
    """The match's length in deals."""

    def __post_init__(self) -> None:
        if not 1 <= self.deals <= 20:
            raise OptionError(f"option deals={self.deals} must be between 1 and 20")


class Phase(str, Enum):
    DEAL = "deal"
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True, kw_only=True)
class TwelveView(View):
    leader: int | None = None
    """The seat that leads the current trick."""
    trick: tuple[tuple[int, Card], ...] = ()
    """The current trick's plays ``(seat, card)``."""
    last_trick: Trick | None = None
    last_trick_winner: int | None = None
    tricks_won: tuple[int, ...] = ()
    last_deal: Mapping[str, Any] | None = None

    SEAT_FIELDS: ClassVar[frozenset[str]] = frozenset({"to_act", "leader", "last_trick_winner"})


class TwelveState(GameState):
    game_id: ClassVar[str] = GAME_ID
    DEAL_PHASE: ClassVar[Enum] = Phase.DEAL
    DONE_PHASE: ClassVar[Enum] = Phase.DONE

    # its fields, and which hold lists it changes in place: the core writes its copy()
    __slots__ = (
        "options",
        "first",
        "num_players",
        "_phase",
        "_to_act",
        "_legal",
        "_deal_no",
        "_totals",
        "_results",
        "_records",
        "_hands",
        "_dealt",
        "_log",
        "_trick",
        "_tricks",
        "_won",
        "_leader",
    )
    COPY_LISTS = ("_totals", "_results", "_records", "_hands", "_log", "_trick", "_tricks", "_won")
    COPY_NESTED = ("_dealt",)

    def __init__(self, options: TwelveOptions | None = None, first: int = 0) -> None:
        if first not in range(N):
            raise OptionError(f"first must be a seat from 0 to {N - 1}, got {first!r}")
        self.options = options or TwelveOptions()
        self.first = first
        self.num_players = N
        self._phase: Enum = Phase.DEAL
        self._to_act: int | None = None
        self._legal = None
        self._deal_no = 0
        self._totals = [0] * N
        self._results: list[dict[str, Any]] = []
        self._records: list[dict[str, Any]] = []
        self._reset_deal()

    def _reset_deal(self) -> None:
        self._hands: list[int] = [0] * N
        self._dealt: list[list[str]] = [[] for _ in range(N)]
        self._log: list[tuple[int, Action]] = []
        self._trick: list[tuple[int, int]] = []
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._won = [0] * N
        self._leader = (self.first + self._deal_no) % N

    # -- dealing ---------------------------------------------------------------------------
    def deal(self, hands: Sequence[Sequence[Card | str]], rest: Sequence[Card | str]) -> None:
        self._require_deal()
        masks, _ = check_deal(hands, rest, DECK, (HAND,) * N, 0)
        self._start(masks, [[parse_card(c).code for c in h] for h in hands])

    def deal_random(self, rng: random.Random) -> None:
        self._require_deal()
        ids = [c.id for c in DECK]
        rng.shuffle(ids)
        hands = [sorted(ids[HAND * s : HAND * (s + 1)]) for s in range(N)]
        self._start([sum(1 << c for c in h) for h in hands], [[CARDS[c].code for c in h] for h in hands])

    def _require_deal(self) -> None:
        if self._phase is not Phase.DEAL:
            raise DealError("the match is over" if self._phase is Phase.DONE else "a deal is in progress")

    def _start(self, masks: list[int], dealt: list[list[str]]) -> None:
        self._reset_deal()
        self._hands = list(masks)
        self._dealt = dealt
        self._phase = Phase.PLAY
        self._to_act = self._leader
        self._legal = None

    # -- acting ----------------------------------------------------------------------------
    def _compute_legal(self) -> tuple[Action, ...]:
        seat = self._to_act
        if seat is None:
            return ()
        hand = self._hands[seat]
        if self._trick:  # must follow suit if it can
            suit = self._trick[0][1] // 13
            follow = hand & (0x1FFF << (13 * suit))
            hand = follow or hand
        return tuple(Play(c) for c in cards_of(hand))

    def _why_illegal(self, action: Action) -> str:
        seat = self._to_act
        assert seat is not None
        if not isinstance(action, Play):
            return "the only action of Twelve is playing a card"
        if not self._hands[seat] >> action.card.id & 1:
            return f"{action.card.code} is not in seat {seat}'s hand"
        return f"must follow suit: {CARDS[self._trick[0][1]].code} was led"

    def _apply(self, action: Action) -> None:
        seat = self._to_act
        assert seat is not None and isinstance(action, Play)
        cid = action.card.id
        self._legal = None
        self._log.append((seat, action))
        self._hands[seat] &= ~(1 << cid)
        self._trick.append((seat, cid))
        if len(self._trick) < N:
            self._to_act = (seat + 1) % N
            return
        lead_seat, lead = self._trick[0]
        winner = max((p for p in self._trick if p[1] // 13 == lead // 13), key=lambda p: p[1])[0]
        self._tricks.append((lead_seat, tuple(c for _, c in self._trick), winner))
        self._won[winner] += 1
        self._trick = []
        self._to_act = winner
        if not self._hands[0]:
            self._end_deal()

    def _end_deal(self) -> None:
        self._results.append(self._deal_summary("played"))
        self._records.append(self._deal_record())
        self._totals = [a + b for a, b in zip(self._totals, self._won)]
        self._deal_no += 1
        self._to_act = None
        self._phase = Phase.DONE if self._deal_no >= self.options.deals else Phase.DEAL

    # -- seeing ----------------------------------------------------------------------------
    def view(self, seat: int | None) -> TwelveView:
        if seat is not None and seat not in range(N):
            raise ValueError(f"no seat {seat!r} at a table of {N}")
        playing = self._phase is Phase.PLAY
        last = self._tricks[-1] if playing and self._tricks and not self._trick else None
        return TwelveView(
            game=GAME_ID,
            seat=seat,
            phase=self._phase.value,
            to_act=self._to_act,
            deal_number=self._deal_no,
            hand=cards_of(self._hands[seat]) if seat is not None and playing else (),
            hand_sizes=tuple(h.bit_count() for h in self._hands) if playing else (0,) * N,
            legal_actions=self.legal_actions() if seat is not None and seat == self._to_act else (),
            totals=tuple(self._totals),
            options=public_options(self.options, self.options_json),
            leader=self._trick[0][0] if self._trick else (self._to_act if playing else None),
            trick=tuple((s, CARDS[c]) for s, c in self._trick),
            last_trick=Trick(last[0], tuple(((last[0] + i) % N, CARDS[c]) for i, c in enumerate(last[1])))
            if last
            else None,
            last_trick_winner=last[2] if last else None,
            tricks_won=tuple(self._won) if playing else (),
            last_deal=self._results[-1] if self._results else None,
        )

    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.DONE:
            return None
        top = max(self._totals)
        best = tuple(s for s in range(N) if self._totals[s] == top)
        return Outcome(tuple(self._totals), best[0] if len(best) == 1 else best)

    def summary(self) -> dict[str, Any]:
        deals = list(self._results)
        if self._phase is Phase.PLAY:
            deals.append(self._deal_summary("in-progress"))
        out = self.outcome()
        winner = None if out is None else list(out.winner) if isinstance(out.winner, tuple) else out.winner
        return {
            "game": GAME_ID,
            "deals": deals,
            "totals": list(self._totals),
            "finished": out is not None,
            "winner": winner,
        }

    def _deal_summary(self, outcome: str) -> dict[str, Any]:
        return {
            "outcome": outcome,
            "tricks": [
                {"leader": lead, "cards": [CARDS[c].code for c in cards], "winner": w}
                for lead, cards, w in self._tricks
            ],
            "score": list(self._won) if outcome == "played" else [0] * N,
            "tricks_won": list(self._won),
        }

    # -- records ---------------------------------------------------------------------------
    def _deal_record(self) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in self._dealt],
            "rest": [],
            "actions": [dict(seat=s, **a.to_json()) for s, a in self._log],
        }

    def record_deals(self) -> list[dict[str, Any]]:
        deals = list(self._records)
        if self._phase is Phase.PLAY:
            deals.append(self._deal_record())
        return deals

    def options_json(self) -> dict[str, Any]:
        return options_to_json(self.options)


def _read_play(data: Mapping[str, Any], seat: int | None) -> Action:
    """A play of a card: the only action of Twelve (a joker's request or call is refused)."""
    action = PLAY_KIND.read(data, seat)
    if not isinstance(action, Play) or action.request is not None or action.call_joker:
        raise InvalidActionError(f"Twelve has only plays of a card, got {dict(data)!r}")
    return action


ACTION_KINDS = (ActionKind("play", _read_play, PLAY_KIND.keys, PLAY_KIND.families[:1]),)
"""Twelve's one kind of action, a plain play (numbered by the shared ``play`` family)."""


class HighCardBot:
    """Twelve's rule of thumb: win the trick with the cheapest card that does, else the lowest."""

    name = "heuristic"

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = [a for a in view.legal_actions if isinstance(a, Play)]
        trick = getattr(view, "trick", ())
        if trick:
            led = trick[0][1]
            winning = [a for a in legal if a.card.suit == led.suit and a.card.id > led.id]
            if winning:
                return min(winning, key=lambda a: a.card.id)
        return min(legal, key=lambda a: a.card.id % 13)


register_heuristic(GAME_ID, HighCardBot)

add_terms(
    fields={
        "leader": ("打ち出し", "leader"),
        "trick": ("場", "trick"),
        "last_trick": ("直前の場", "last trick"),
        "last_trick_winner": ("直前の場を取った人", "took the last trick"),
        "tricks_won": ("取った場の数", "tricks won"),
    },
    game=GAME_ID,
)

UI: dict[str, Any] = {
    "direction": "cw",
    "strains": "",
    "units": "seats",
    "seat_roles": [],
    "unit_roles": [],
    "partner_role": None,
    "bids": None,
    "stats": [{"field": "tricks_won", "per": "seat", "show": "tricks"}],
    "headline": [],
    "hints": [],
    "confirm": [],
    "claim_option": None,
    "options": {"deals": {"label": ("回数", "Deals"), "doc": ("試合の回数。", "Length of the match in deals.")}},
}
"""How the browser draws Twelve: seats clockwise, tricks won per seat."""

add_terms(
    messages={
        "twelve.wins": ("{who} の勝ち: {k} 場", "{who} wins the deal with {k} tricks"),
        "twelve.share": ("{who} が {k} 場ずつで勝ちを分ける", "{who} share the deal with {k} tricks each"),
        "twelve.counts": ("取った場: {counts}", "Tricks: {counts}"),
        "twelve.unit": ("場", "tricks"),
        "twelve.input": (
            "札: 9s, S9, ♠9, Ah。出せる札は番号でも選べます。",
            "Cards: 9s, S9, ♠9, Ah, or the number of a choice.",
        ),
    }
)


def _result(deal: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> list[str]:
    """A deal's result in words: who took the most tricks, and everyone's tricks."""
    won = list(deal.get("tricks_won") or [])
    if not won:
        return [t("twelve.counts", lang, counts="-")]
    top = max(won)
    best = [s for s in range(len(won)) if won[s] == top]
    who = ("・" if lang == "ja" else " & ").join(who_text(s, lang, names) for s in best)
    return [
        t("twelve.wins" if len(best) == 1 else "twelve.share", lang, who=who, k=top),
        t("twelve.counts", lang, counts="  ".join(f"{who_text(s, lang, names)} {k}" for s, k in enumerate(won))),
    ]


register(GameText(GAME_ID, _result, unit="twelve.unit", input_forms="twelve.input"))

INFO = register_game(
    GameInfo(
        id=GAME_ID,
        name_ja="十二",
        name_en="Twelve",
        aliases=("twelve", "十二", "juni"),
        min_players=N,
        max_players=N,
        options_type=TwelveOptions,
        new_state=TwelveState,
        action_kinds=ACTION_KINDS,
        action_space=ActionSpace(families=("play",), max_seats=N, deal_steps=12, deal_score=4.0),
        roles={"seat": ("席", "seat"), "unit": ("席", "seat"), "leader": ("打ち出し", "leader")},
        bot_modules=(__name__,),
        parts={"words": __name__},
        ui=UI,
    )
)
