"""Against OpenSpiel's own bots (OpenSpiel のボットとの対戦), the same CPU time per decision.

    python -m kirifuda.bots.versus --game meitora --bots search,ismcts --seconds-per-move 0.05 --deals 100 --seed 2026

plays a duplicate match between a kirifuda bot and one of OpenSpiel's search bots, every seat
through the OpenSpiel adapter (``pyspiel.load_game("kirifuda_<game>")``,
:mod:`kirifuda.env.openspiel`):

- ``ismcts``: OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, one random
  rollout per simulation, the most visited action), run until its CPU time for the decision is
  spent (at least one simulation);
- ``pimc``: perfect-information Monte Carlo in OpenSpiel's terms: a world drawn with the
  adapter's ``resample_from_infostate``, searched by OpenSpiel's MCTS (``mcts.MCTSBot``, random
  rollouts, ``2 × legal actions`` simulations a world, so every action is tried), the root's
  visit counts summed over the worlds, worlds drawn until the CPU time is spent (at least one);
  the most visited action.  OpenSpiel's MCTS, not kirifuda's solver, so that the baseline owes
  nothing to kirifuda's own search;
- any kirifuda bot that plays from a view (``search``, ``heuristic``, …), seated through
  :class:`kirifuda.env.openspiel.KirifudaBot` (it sees its seat's views only).

**Only information-state data.** An OpenSpiel bot is handed an :class:`InfoState`, not the
state: it answers the acting seat's legal actions, its information-state string and
``resample_from_infostate`` (the adapter's resampling keeps what the seat saw and moves every
card it could not place: tested in ``tests/env``), nothing else; a bot that asked for another
seat's hand would fail with an ``AttributeError``.

**Duplicate**: deal ``i`` is dealt by ``Random(f"{seed}:deal:{i}")`` in every rotation of the
bots around the table (:func:`kirifuda.tournament.rotations`; in a partnership game each team is
one kind), each seat's generator from ``f"{seed}:{i}:{rotation}:{seat}"``.  Scores, intervals
and decision times as in :mod:`kirifuda.tournament` (a seat's score is its unit's points minus
the mean of the other units'); the per-role table (:mod:`.evaluation`) from the deals' records.
Meitora's claim is left out of every seat's actions (``claims=off``: random rollouts would
claim at random); the deals are played out instead.

A budget in CPU seconds depends on the machine: for a figure that does not, ``--simulations N``
gives the OpenSpiel bots a fixed count instead (IS-MCTS simulations; PIMC worlds), and then the
same seed gives the same result.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ..errors import OptionError

__all__ = ["OPENSPIEL_KINDS", "InfoState", "play_deal", "run", "table", "main"]

OPENSPIEL_KINDS = ("ismcts", "pimc")
"""The OpenSpiel bots this module seats."""


class InfoState:
    """What an OpenSpiel bot is handed at its decision: the acting seat's information state and
    nothing more (its legal actions, its information-state string, worlds resampled from it)."""

    __slots__ = ("_state", "_player")

    def __init__(self, state: Any) -> None:
        self._state = state
        self._player = state.current_player()

    def current_player(self) -> int:
        return int(self._player)

    def is_chance_node(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return False

    def get_game(self) -> Any:
        return self._state.get_game()

    def legal_actions(self, player: Any = None) -> list[int]:
        return list(self._state.legal_actions(self._player))

    def information_state_string(self, player: Any = None) -> str:
        if player is not None and player != self._player:
            raise PermissionError(f"seat {self._player}'s bot asked for seat {player}'s information state")
        return str(self._state.information_state_string(self._player))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        if player_id != self._player:
            raise PermissionError(f"seat {self._player}'s bot asked for a world of seat {player_id}")
        return self._state.resample_from_infostate(player_id, probability_sampler)


def _np_seed(text: str) -> int:
    return zlib.crc32(text.encode())


class _Budget:
    """A decision's allowance: CPU seconds, or a count (``simulations``)."""

    def __init__(self, seconds: float | None, count: int | None) -> None:
        if (seconds is None) == (count is None):
            raise OptionError("give the OpenSpiel bots either --seconds-per-move or --simulations")
        if seconds is not None and seconds <= 0:
            raise OptionError(f"--seconds-per-move must be more than 0, got {seconds}")
        if count is not None and count < 1:
            raise OptionError(f"--simulations must be at least 1, got {count}")
        self.seconds = seconds
        self.count = count

    def runner(self, least: int = 1) -> Callable[[int], bool]:
        """``more(done)``: whether another unit of work fits (``least`` at least)."""
        if self.count is not None:
            count = max(self.count, least)
            return lambda done: done < count
        deadline = time.process_time() + float(self.seconds or 0.0)
        return lambda done: done < least or time.process_time() < deadline


def _ismcts(game: Any, budget: _Budget, seed: int, uct_c: float) -> Any:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped, import-not-found, unused-ignore]

    class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        """OpenSpiel's IS-MCTS with ``run_search``'s loop bounded by the budget (the rest is
        OpenSpiel's: its tree, its selection, its final policy)."""

        def run_search(self, state: Any) -> list[tuple[int, float]]:
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            key = self.get_state_key(state)
            more = budget.runner(least=2)  # the first simulation only expands the root
            done = 0
            while more(done):
                world = self.sample_root_state(state)
                assert key == self.get_state_key(world)
                self.run_simulation(world)
                done += 1
            self.simulations = getattr(self, "simulations", 0) + done
            return list(self.get_final_policy(state, self._root_node))

    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = TimedISMCTS(game, evaluator, uct_c=uct_c, max_simulations=1, random_state=rs)
    # worlds drawn with the bot's own seeded generator (OpenSpiel's default sampler is unseeded)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, lambda: rs.uniform()))
    return bot


class PIMCBot:
    """Determinized search in OpenSpiel's terms (see the module docstring)."""

    def __init__(self, game: Any, budget: _Budget, seed: int, uct_c: float) -> None:
        import numpy as np
        from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped, import-not-found, unused-ignore]

        self.rs = np.random.RandomState(seed)
        self.game = game
        self.budget = budget
        self.uct_c = uct_c
        self.evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.rs)
        self.mcts = mcts
        self.simulations = 0

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        visits = dict.fromkeys(legal, 0)
        reward = dict.fromkeys(legal, 0.0)
        player = state.current_player()
        searcher = self.mcts.MCTSBot(
            self.game, self.uct_c, 2 * len(legal), self.evaluator, solve=False, random_state=self.rs
        )
        more = self.budget.runner()
        worlds = 0
        while more(worlds):
            world = state.resample_from_infostate(player, lambda: self.rs.uniform())
            root = searcher.mcts_search(world)
            for child in root.children:
                visits[child.action] += child.explore_count
                reward[child.action] += child.total_reward
            worlds += 1
        self.simulations += worlds
        return int(max(legal, key=lambda a: (visits[a], reward[a] / max(visits[a], 1))))


def _uct_c(game: Any) -> float:
    """The exploration constant: OpenSpiel's customary 2 for returns in [−1, 1], scaled to the
    game's bound on a deal's score (``max_utility``)."""
    return 2.0 * float(game.max_utility())


def play_deal(
    game_id: str,
    kinds: Sequence[str],
    index: int,
    seed: int,
    budget: _Budget,
    options: dict[str, Any] | None = None,
) -> Any:
    """Deal ``index`` once per rotation of ``kinds`` around the table, through the adapter: a
    :class:`kirifuda.tournament.DealResult` (scores, records, decision CPU times)."""
    import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]

    from .. import record as records
    from ..env.openspiel import KirifudaBot, game_name
    from ..tournament import DealResult, _names, rotations, seat_scores

    game = pyspiel.load_game(game_name(game_id), {"options": json.dumps(options or {}), "claims": "off"})
    env = game.env
    n = env.num_players
    names = _names(kinds)
    uct_c = _uct_c(game)
    totals: dict[str, list[float]] = {name: [] for name in names}
    times: dict[str, list[float]] = {name: [] for name in names}
    recs = []
    for r, seating in enumerate(rotations(names, n, env.num_units)):
        state = game.new_initial_state()
        deal_rng = random.Random(f"{seed}:deal:{index}")
        bots: list[Any] = []
        for s, name in enumerate(seating):
            kind = kinds[names.index(name)]
            bot_seed = _np_seed(f"{seed}:{index}:{r}:{s}")
            if kind == "ismcts":
                bots.append(_ismcts(game, budget, bot_seed, uct_c))
            elif kind == "pimc":
                bots.append(PIMCBot(game, budget, bot_seed, uct_c))
            else:
                bots.append(KirifudaBot(game, s, kind, seed=bot_seed))
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[deal_rng.randrange(len(outcomes))][0])
                continue
            seat = state.current_player()
            bot = bots[seat]
            t0 = time.process_time()
            if isinstance(bot, KirifudaBot):
                action = bot.step(state)
            else:
                before = getattr(bot, "simulations", 0)
                action = bot.step(InfoState(state))
                if len(state.legal_actions()) > 1:  # the work of a real choice (IS-MCTS simulations, PIMC worlds)
                    times.setdefault(f"{seating[seat]}:work", []).append(getattr(bot, "simulations", 0) - before)
            times[seating[seat]].append(time.process_time() - t0)
            if action not in state.legal_actions():
                raise RuntimeError(f"{seating[seat]} chose {action}, not a legal action")
            state.apply_action(action)
            for s, other in enumerate(bots):
                if s != seat and isinstance(other, KirifudaBot):
                    other.inform_action(state, seat, action)
        final = state._k.stepper.state if state._k.stepper is not None else None
        gains = [0.0] * env.num_units
        for s in range(n):
            gains[env.units[s]] = float(state.returns()[s])
        scores = seat_scores(game_id, [0.0] * env.num_units, gains, n)
        for s, name in enumerate(seating):
            totals[name].append(scores[s])
        if final is not None:
            recs.append(records.from_state(final, players=list(seating)).to_json())
    means = {name: (sum(v) / len(v) if v else 0.0) for name, v in totals.items()}
    return DealResult(index, means, recs, times)


def _work(args: tuple[str, tuple[str, ...], int, int, float | None, int | None]) -> Any:
    game_id, kinds, index, seed, seconds, count = args
    return play_deal(game_id, kinds, index, seed, _Budget(seconds, count))


def _deals(tasks: list[Any], jobs: int) -> Iterator[Any]:
    if jobs <= 1:
        yield from map(_work, tasks)
        return
    import multiprocessing
    import os

    with multiprocessing.get_context("spawn" if os.name == "nt" else "fork").Pool(jobs) as pool:
        yield from pool.imap_unordered(_work, tasks, chunksize=1)


def run(
    game_id: str,
    kinds: Sequence[str],
    deals: int,
    seed: int = 0,
    seconds: float | None = None,
    simulations: int | None = None,
    jobs: int = 1,
    progress: Callable[[Any], None] | None = None,
) -> tuple[dict[str, Any], list[Any]]:
    """The match: its summary (:func:`kirifuda.tournament.summarize`, plus the budget) and every
    deal's result, in deal order."""
    from ..games import GAMES
    from ..tournament import summarize
    from .base import make_bot

    if game_id not in GAMES:
        raise OptionError(f"unknown game {game_id!r}; the games are {', '.join(GAMES)}")
    if len(kinds) != 2:
        raise OptionError("--bots: two bots, e.g. search,ismcts")
    if deals < 1:
        raise OptionError("--deals must be at least 1")
    for kind in kinds:
        if kind not in OPENSPIEL_KINDS:
            if kind.split(":", 1)[0] == "oracle":
                raise OptionError("the oracle sees every card: it has no seat through the adapter")
            make_bot(kind, game_id)
    _Budget(seconds, simulations)
    import kirifuda.env.openspiel  # noqa: F401  (registers kirifuda_<game>; refuses without OpenSpiel)

    tasks = [(game_id, tuple(kinds), i, seed, seconds, simulations) for i in range(deals)]
    results = []
    for res in _deals(tasks, jobs):
        results.append(res)
        if progress is not None:
            progress(res)
    results.sort(key=lambda d: d.index)
    summary = summarize(game_id, kinds, results, seed)
    summary["budget"] = {"seconds_per_move": seconds, "simulations": simulations}
    summary["decisions"] = {name: sum(len(d.decision_s.get(name, [])) for d in results) for name in summary["bots"]}
    work = {name: [w for d in results for w in d.decision_s.get(f"{name}:work", [])] for name in summary["bots"]}
    summary["work_per_choice"] = {
        name: {"mean": round(sum(w) / len(w), 1), "median": sorted(w)[len(w) // 2]} for name, w in work.items() if w
    }
    summary["mean_decision_s"] = {
        name: round(sum(sum(d.decision_s.get(name, [])) for d in results) / max(summary["decisions"][name], 1), 4)
        for name in summary["bots"]
    }
    return summary, results


def _signed(x: float) -> str:
    return f"{x:+.3f}".replace("-", "−")


TABLE_HEADER = (
    "| game | A | B | budget of B | deals | A − B per deal | 95% interval | A: mean / p95 s | B: mean / p95 s |\n"
    "|---|---|---|---|---:|---:|---|---|---|\n"
)


ROLES_TABLE_HEADER = (
    "| game | A | B | role | deals A | A per deal | deals B | B per deal | A − B | 95% interval |\n"
    "|---|---|---|---|---:|---:|---:|---:|---:|---|\n"
)


def table(summary: dict[str, Any]) -> str:
    """One row of the table in ``docs/strength.md`` (A − B, decision CPU seconds of each)."""
    a, b = summary["bot_kinds"]
    diff = next(iter(summary["diff"].values()))
    lo, hi = diff["ci95"]
    budget = summary.get("budget", {})
    spent = (
        f"{budget['seconds_per_move']} s a decision"
        if budget.get("seconds_per_move") is not None
        else f"{budget.get('simulations')} simulations"
    )

    work = summary.get("work_per_choice", {}).get(b)
    if work:
        spent += f" (mean {work['mean']:.0f} {'worlds' if b == 'pimc' else 'simulations'} a choice)"

    def cpu(name: str) -> str:
        t = summary.get("decision_s", {}).get(name)
        return f"{summary['mean_decision_s'][name]:.3f} / {t['p95']:.3f}" if t else "–"

    return (
        f"| {summary['game']} | `{a}` | `{b}` | {spent} | {summary['deals']} | {_signed(diff['mean'])} | "
        f"[{_signed(lo)}, {_signed(hi)}] | {cpu(a)} | {cpu(b)} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    from ..errors import KirifudaError

    parser = argparse.ArgumentParser(prog="python -m kirifuda.bots.versus", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game id (kirifuda rules lists the games)")
    parser.add_argument("--bots", default="search,ismcts", help="two bots, A,B (default search,ismcts)")
    parser.add_argument("--deals", type=int, default=20, help="deals (default 20)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--seconds-per-move", type=float, default=None, help="CPU seconds an OpenSpiel bot decision gets"
    )
    parser.add_argument(
        "--simulations", type=int, default=None, help="a fixed count instead (IS-MCTS simulations; PIMC worlds)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--out", type=Path, default=None, help="write summary.json and the records here")
    parser.add_argument("--roles", action="store_true", help="print the table per role too")
    args = parser.parse_args(argv)
    if args.seconds_per_move is None and args.simulations is None:
        args.seconds_per_move = 0.05
    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    done = [0]

    def tick(res: Any) -> None:
        done[0] += 1
        print(f"deal {res.index}: {res.scores} ({done[0]}/{args.deals})", file=sys.stderr)

    try:
        summary, results = run(
            args.game, kinds, args.deals, args.seed, args.seconds_per_move, args.simulations, args.jobs, tick
        )
    except (KirifudaError, ImportError) as exc:
        parser.exit(2, f"error: {exc}\n")
    if args.out is not None:
        from ..tournament import write_outputs

        write_outputs(summary, results, args.out)
    print(TABLE_HEADER + table(summary))
    if args.roles:
        from .evaluation import role_table
        from .strength import role_rows

        rows = role_table(args.game, {d.index: d.records for d in results}, kinds[0], kinds[1])
        print(ROLES_TABLE_HEADER + role_rows(args.game, kinds[0], kinds[1], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
