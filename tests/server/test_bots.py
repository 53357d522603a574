"""Bots at a table remember what their seat has seen: they are shown the seat's view after every
action (a human's, another bot's, a deal), as in tournaments and the terminal, and again after a
restart, from the events replayed; each human seat's stand-in remembers that seat's views only
(shown them all, in order, when it is first needed, then after every action)."""

from __future__ import annotations

import asyncio
import random

from kirifuda.actions import Claim
from kirifuda.games.meitora import Broken
from kirifuda.server.store import Store
from kirifuda.server.tables import LiveTable, TableManager

SEATS = [
    {"kind": "human"},
    {"kind": "bot", "bot": "search:easy"},
    {"kind": "human"},
    {"kind": "bot", "bot": "search:easy"},
]


def played_this_deal(table: LiveTable) -> set[int]:
    cards = {c.id for trick, _ in table.state.tricks for c in trick.cards}  # type: ignore[attr-defined]
    trick = table.state.view(None).trick  # type: ignore[attr-defined]
    return cards | ({c.id for c in trick.cards} if trick is not None else set())


def memory(bot: object) -> object:
    return bot._part.memory  # type: ignore[attr-defined]


async def humans_play(table: LiveTable, cards: int, rng: random.Random) -> None:
    """The two humans act at random until ``cards`` cards of the deal are played."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while len(played_this_deal(table)) < cards:
        assert loop.time() < end, "timed out"
        seat = table.state.to_act
        if seat in (0, 2):
            legal = [a for a in table.state.legal_actions() if not isinstance(a, (Claim, Broken))]
            await table.act(seat, table.version, rng.choice(legal))
        else:
            await asyncio.sleep(0.005)


def test_bots_and_stand_ins_see_every_card_played(db_url: str) -> None:
    async def go() -> None:
        store = await Store.open(db_url)
        manager = TableManager(store, grace=60, bot_delay=0)
        table, _ = await manager.create("meitora", {}, SEATS, secret="11")
        await humans_play(table, 14, random.Random(5))
        async with table.lock:
            seen = played_this_deal(table)
            assert len(seen) >= 14
            for seat in (1, 3):  # the bots, whichever team took the tricks
                assert set(memory(table._bots[seat]).played) == seen  # type: ignore[attr-defined]
            for seat in (0, 2):  # the humans' stand-ins, when first needed (they follow from then on)
                table._catch_up(seat)
                assert set(memory(table._standins[seat]).played) == seen  # type: ignore[attr-defined]
            tid, version = table.id, table.version
        await manager.close()
        # a restart: the events replayed show the bots the same views again
        manager = TableManager(store, grace=60, bot_delay=0)
        await manager.load()
        again = manager.tables[tid]
        assert again.version == version
        for seat in (1, 3):
            assert set(memory(again._bots[seat]).played) == seen  # type: ignore[attr-defined]
        await manager.close()
        await store.close()

    asyncio.run(go())
