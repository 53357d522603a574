"""How much the search bot's inference knows: the real deal's rank among sampled deals.

    python tools/inference_check.py RECORD.json …

For each card decision of every seat in the records (kirifuda-record/1 files, e.g. the
``records/`` of ``kirifuda tournament --out DIR``), the seat's memory is fed the views it was
shown, 63 consistent deals are sampled as the search bot samples them, and the real deal (the
other hands as they are at that moment) is weighed with them.  Printed: the mean percentile of
the real deal's log-likelihood among the 64 (0.5: the model knows nothing; 1: the real deal is
always the likeliest) and the mean ratio of its weight to the mean weight (1: nothing known).
Ties count half.  Reads the real cards by design: a measuring tool, never a player.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

from kirifuda import record as records
from kirifuda.actions import Play
from kirifuda.bots.search import LEVELS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--samples", type=int, default=63)
    args = parser.parse_args()
    ranks: list[float] = []
    ratios: list[float] = []
    for path in args.records:
        rec = records.loads(path.read_text())
        game = rec.game
        if game == "meitora":
            from kirifuda.bots.inference_meitora import log_likelihood
            from kirifuda.bots.search_meitora import MeitoraSearch as Search
        elif game == "kakeya":
            from kirifuda.bots.inference_kakeya import play_log_likelihood
            from kirifuda.bots.search_kakeya import KakeyaSearch as Search  # type: ignore[assignment]
        elif game == "napoleon":
            from kirifuda.bots.inference_napoleon import log_likelihood as napoleon_ll
            from kirifuda.bots.search_napoleon import SUIT_INDEX, NapoleonSearch as Search  # type: ignore[assignment]
        elif game == "unsun":
            from kirifuda.bots.inference_unsun import events_of, play_log_likelihood as unsun_ll
            from kirifuda.bots.search_unsun import UnsunSearch as Search, sample_world  # type: ignore[assignment]
        else:
            print(f"{path}: no inference for {game}", file=sys.stderr)
            continue
        state = rec.new_state()
        n = state.num_players
        searches = [Search(LEVELS["normal"]) for _ in range(n)]
        for step in _steps_with_start(rec, state, searches):
            seat, s = step
            view = s.view(seat)
            if not any(isinstance(a, Play) for a in view.legal_actions) or len(view.legal_actions) < 2:
                continue
            search = searches[seat]
            search.observe(view)
            rng = random.Random(len(ranks))
            if game == "napoleon":
                nap = view.napoleon  # type: ignore[attr-defined]
                named = view.adjutant_card.id if view.adjutant_card is not None else None  # type: ignore[attr-defined]
                trump = SUIT_INDEX[view.contract.strain]  # type: ignore[attr-defined]
                worlds = [search._world_gone(view, rng) for _ in range(args.samples)]  # type: ignore[attr-defined]
                gone_real = sum(1 << c for c in s._discard) if seat != nap else 0  # type: ignore[attr-defined]
                ws = [
                    napoleon_ll(
                        h,
                        g,
                        seat,
                        search.memory,
                        trump,
                        nap,
                        named,
                        view.yoromeki,  # type: ignore[attr-defined]
                        view.first_trick_plain,
                    )
                    for h, _, g in worlds
                ]  # type: ignore[attr-defined]
                w_real = napoleon_ll(
                    list(s._hands),
                    gone_real,
                    seat,
                    search.memory,
                    trump,
                    nap,
                    named,  # type: ignore[attr-defined]
                    view.yoromeki,
                    view.first_trick_plain,
                )  # type: ignore[attr-defined]
                _add(ranks, ratios, ws, w_real)
                continue
            if game == "unsun":
                events = events_of(view, bool(search.all_face_down))  # type: ignore[arg-type,attr-defined]
                got = [sample_world(view, rng, bool(search.all_face_down)) for _ in range(args.samples)]  # type: ignore[arg-type,attr-defined]
                ws = [unsun_ll(h, t, seat, events, view.trump.index) for h, t in (w for w in got if w is not None)]  # type: ignore[attr-defined]
                w_real = unsun_ll(list(s._hands), list(s._trick), seat, events, view.trump.index)  # type: ignore[attr-defined]
                _add(ranks, ratios, ws, w_real)
                continue
            pool = [search._deal(view, rng) for _ in range(args.samples)]  # type: ignore[arg-type]
            if game == "meitora":
                from kirifuda.games.meitora import STRAINS

                real = list(s._hands)
                si = STRAINS.index(view.contract.strain)  # type: ignore[attr-defined]
                ws = [log_likelihood(h, seat, search.memory, si, view.declarer) for h in pool]  # type: ignore[attr-defined]
                w_real = log_likelihood(real, seat, search.memory, si, view.declarer)  # type: ignore[attr-defined]
            else:
                real_k = {x: s._hands[x] for x in pool[0]}
                ws = [
                    play_log_likelihood(h, seat, search.memory, view.trump.index, view.players)  # type: ignore[attr-defined]
                    for h in pool
                ]
                w_real = play_log_likelihood(real_k, seat, search.memory, view.trump.index, view.players)  # type: ignore[attr-defined]
            _add(ranks, ratios, ws, w_real)
    if not ranks:
        print("no card decision found")
        return 1
    print(
        f"{len(ranks)} card decisions: the real deal's mean percentile {sum(ranks) / len(ranks):.3f} "
        f"(0.5: nothing known), its weight over the mean weight {sum(ratios) / len(ratios):.2f} (1: nothing known)"
    )
    return 0


def _add(ranks: list[float], ratios: list[float], ws: list[float], w_real: float) -> None:
    below = sum(1 for w in ws if w < w_real) + 0.5 * sum(1 for w in ws if w == w_real)
    ranks.append((below + 0.5) / (len(ws) + 1))
    top = max(ws + [w_real])
    mean = sum(math.exp(w - top) for w in ws + [w_real]) / (len(ws) + 1)
    ratios.append(math.exp(w_real - top) / mean)


def _steps_with_start(rec, state, searches):  # type: ignore[no-untyped-def]
    """Each decision point (seat to act, state), every seat shown every view as the runners do."""
    action_from_json = rec.info.action_from_json
    deal = rec.deals[0]
    state.deal(deal.hands, deal.rest)
    for s, search in enumerate(searches):
        search.observe(state.view(s))
    for data in deal.actions:
        seat = data["seat"]
        if state.phase.value == "play":
            yield seat, state
        state.apply(action_from_json(data, seat), seat)
        for s, search in enumerate(searches):
            search.observe(state.view(s))


if __name__ == "__main__":
    raise SystemExit(main())
