"""``kirifuda bot-worker --redis redis://…``: bot decisions for a cluster's tables (:mod:`.cluster`).

A worker takes jobs from the Redis list ``kf:bots`` (each: a table's game, options and event
log up to a version, a bot seat, its bot's kind and the decision's random seed), rebuilds what
that seat's bot has seen (the seat's view after every event, shown to the bot in order, as the
table's own bot is shown them), lets it choose, and publishes the answer, with the table and
version it was made on, to the owner's channel.  The owner alone applies it (:meth:`.cluster.
Cluster.decide`).  A worker keeps each (table, seat)'s bot between jobs, so that it only catches
up on the events since the last one.  Run as many as there are cores to spare, on any machine
that reaches the Redis.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sys
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import orjson

from ..bots import Bot
from ..game import GameState
from ..games import GAMES
from .cluster import BOT_QUEUE, channel, pack
from .tables import _bot

__all__ = ["Decider", "run_worker", "main"]

log = logging.getLogger("kirifuda.botworker")


@dataclass
class _Seat:
    bot: Bot
    state: GameState
    seen: int
    """Events shown to the bot so far."""


class Decider:
    """Bot decisions from jobs, each (table, seat)'s bot kept between jobs (the latest ``keep``)."""

    def __init__(self, keep: int = 512) -> None:
        self.keep = keep
        self._seats: OrderedDict[tuple[str, int], _Seat] = OrderedDict()
        self._lock = threading.Lock()

    def decide(self, job: dict[str, Any]) -> dict[str, Any]:
        """The action (its record form) the job's bot chooses."""
        info = GAMES[job["game"]]
        key = (str(job["table"]), int(job["seat"]))
        events: list[dict[str, Any]] = job["events"]
        with self._lock:
            seat = self._seats.pop(key, None)
        if seat is None or seat.seen > len(events):
            options = info.options(job["options"])
            seat = _Seat(_bot(job["bot"], info.id), info.new_state(options, first=job["first"]), 0)
        observe = getattr(seat.bot, "observe", None)
        for ev in events[seat.seen :]:
            if "deal" in ev:
                seat.state.deal(ev["deal"]["hands"], ev["deal"]["rest"])
            else:
                data = ev["action"]
                seat.state.apply(info.action_from_json(data, data["seat"]), data["seat"])
            if observe is not None:
                observe(seat.state.view(key[1]))
        seat.seen = len(events)
        action = seat.bot.choose(seat.state.view(key[1]), random.Random(job["seed"]))
        with self._lock:
            self._seats[key] = seat
            while len(self._seats) > self.keep:
                self._seats.popitem(last=False)
        return dict(action.to_json())


async def run_worker(redis_url: str, threads: int, stop: asyncio.Event | None = None) -> None:
    """Take and answer jobs until ``stop`` is set (or forever)."""
    import redis.asyncio as aioredis

    r = aioredis.from_url(redis_url)
    decider = Decider()
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kirifuda-bot-worker")
    slots = asyncio.Semaphore(threads)
    running: set[asyncio.Task[None]] = set()
    loop = asyncio.get_running_loop()

    async def answer(job: dict[str, Any]) -> None:
        try:
            action = await loop.run_in_executor(pool, decider.decide, job)
            await r.publish(
                job.get("channel") or channel(job["reply"]),
                pack(
                    {"op": "bot", "job": job["job"], "table": job["table"], "version": job["version"], "action": action}
                ),
            )
        except Exception:
            log.exception("a bot job for table %s failed", job.get("table"))
        finally:
            slots.release()

    try:
        while stop is None or not stop.is_set():
            await slots.acquire()
            try:
                got = await r.brpop([BOT_QUEUE], timeout=1)
            except Exception as exc:  # Redis restarting: wait for it
                log.warning("the Redis cannot be read (%s); retrying", type(exc).__name__)
                got = None
                await asyncio.sleep(1)
            if got is None:
                slots.release()
                continue
            task = loop.create_task(answer(orjson.loads(got[1])))
            running.add(task)
            task.add_done_callback(running.discard)
    finally:
        await asyncio.gather(*running, return_exceptions=True)
        pool.shutdown(wait=False)
        await r.aclose()


def main(redis_url: str, threads: int | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    n = threads or os.cpu_count() or 1
    from .serve import redis_problem

    why = redis_problem(redis_url)
    if why is not None:
        print(f"kirifuda bot-worker: {why}", file=sys.stderr)
        return 2
    print(f"kirifuda bot-worker: {n} threads, jobs from {redis_url.split('@')[-1]} (Ctrl-C stops)", flush=True)
    try:
        asyncio.run(run_worker(redis_url, n))
    except KeyboardInterrupt:
        pass
    return 0
