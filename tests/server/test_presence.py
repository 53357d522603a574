"""Joining and leaving cost the watchers a small presence frame each, not a state frame: 50
join/leave cycles before 200 watchers used to send about 20,000 whole frames (79 MB)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from kirifuda.server.store import Store
from kirifuda.server.tables import Client, TableManager


class Counter(Client):
    def __init__(self, seat: int | None, got: list[dict[str, Any]], sizes: list[int]) -> None:
        async def send(text: str) -> None:
            return None

        super().__init__(seat, send)
        self.got = got
        self.sizes = sizes

    def put(self, frame: str) -> None:
        self.got.append(json.loads(frame))
        self.sizes.append(len(frame.encode()))


def test_join_and_leave_send_presence_frames(db_url: str) -> None:
    async def go() -> None:
        store = await Store.open(db_url)
        manager = TableManager(store, grace=60, bot_delay=0)
        table, _ = await manager.create("meitora", {}, [{"kind": "human"}] * 4, secret="7")
        while table.version < 1:
            await asyncio.sleep(0.005)
        watched: list[dict[str, Any]] = []
        sizes: list[int] = []
        watchers = [Counter(None, watched, sizes) for _ in range(200)]
        for w in watchers:
            table.join(w)
        watched.clear()
        sizes.clear()
        for _ in range(50):
            mine: list[dict[str, Any]] = []
            player = Counter(1, mine, [])
            table.join(player)
            assert [f["type"] for f in mine] == ["state"] and mine[0]["seat"] == 1  # the newcomer: its view
            table.leave(player)
            await player.close()
        assert len(watched) == 50 * 2 * 200 and {f["type"] for f in watched} == {"presence"}
        assert max(sizes) < 300 and sum(sizes) < 5_000_000  # about 4 MB, not 79 MB
        joined, left = watched[0], watched[200]
        assert joined["seats"][1]["connected"] and not left["seats"][1]["connected"]
        assert joined["spectators"] == left["spectators"] == 200
        # an action still gives every watcher the state, built once for all of them
        seat = table.state.to_act
        before = len(watched)
        await table.act(seat, table.version, table.state.legal_actions()[0])
        states = [f for f in watched[before:] if f["type"] == "state"]
        assert len(states) == 200 and len({json.dumps(f) for f in states}) == 1
        for w in watchers:
            await w.close()
        await manager.close()
        await store.close()

    asyncio.run(go())
