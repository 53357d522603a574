"""``kirifuda bench-server``: a load benchmark of the web app (not a test).

Starts ``kirifuda serve`` on a loopback port (a separate process), creates ``--tables`` tables
(as many seats as the game has; ``--bot-seats`` of them played by the server's ``search`` bot, the
others human), and drives every human seat with a WebSocket client that plays a random legal
action as soon as it is its turn.  Reports the tables, the actions per second the clients sent
and the server committed and broadcast, and the p50 / p99 time from sending an action to
receiving the broadcast it causes; with bots, also the events committed at the tables per
second (every action, the bots' too, and each deal).  Also the server process's CPU time per
client action and per event committed, the clients' own CPU time per action (they share the
machine), the server's memory per table (resident size grown since start, over the concurrent tables
and over every match started: a finished table stays in memory),
and the machine's load average (the machine may be shared).  Bounded: at most
200 tables and 120 seconds; loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

__all__ = ["run", "main", "table_seats"]

MAX_TABLES = 200
MAX_SECONDS = 120.0


def _cpu_seconds(pid: int) -> float | None:
    """The user + system CPU time of process ``pid`` (Linux ``/proc``; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _rss_bytes(pid: int) -> int | None:
    """The resident size of process ``pid`` (Linux ``/proc``; None elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _seat(
    url: str, token: str, deadline: float, latencies: list[float], rng: random.Random, moved: Any = None
) -> tuple[int, int]:
    """Play one human seat until the match ends or the deadline: (actions sent, the last state
    version seen: the events committed at the table)."""
    import websockets

    acted = version = 0
    async with websockets.connect(url, max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: tuple[int, float] | None = None
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break
            m = orjson.loads(raw)
            if m["type"] != "state":
                if m["type"] == "error":
                    pending = None
                continue
            if m["version"] > version and moved is not None:
                moved()
            version = max(version, m["version"])
            now = time.perf_counter()
            if pending is not None and m["version"] > pending[0]:
                latencies.append(now - pending[1])
                pending = None
            if m["table"]["over"]:
                break
            if m["legal"] and pending is None:
                # a random claim (オープン) would mostly be a chombo: the driver does not claim
                choices = [e["action"] for e in m["legal"] if "claim" not in e["action"]] or [
                    e["action"] for e in m["legal"]
                ]
                action = rng.choice(choices)
                pending = (m["version"], time.perf_counter())
                await ws.send(orjson.dumps({"type": "act", "version": m["version"], "action": action}).decode())
                acted += 1
    return acted, version


async def _table_worker(
    k: int,
    client: Any,
    bases: list[str],
    ws_bases: list[str],
    deadline: float,
    game: str,
    seats: list[dict[str, str]],
    latencies: list[float],
    counts: dict[str, int],
    progress: dict[int, float],
) -> None:
    """Keep one table busy until the deadline: a new match whenever one ends.  With several
    instances, table ``k`` is made on instance ``k`` and seat ``s`` connects to instance
    ``k + s`` (as a proxy spreading connections would: most of them relayed)."""
    rng = random.Random(k)
    n = len(bases)

    def moved() -> None:
        progress[k] = time.monotonic()

    while time.monotonic() < deadline:
        r = await client.post(bases[k % n] + "/api/tables", json={"game": game, "seats": seats})
        r.raise_for_status()
        t = r.json()
        counts["matches"] += 1
        played = await asyncio.gather(
            *[
                _seat(
                    f"{ws_bases[(k + s) % n]}/ws/{t['id']}",
                    tok,
                    deadline,
                    latencies,
                    random.Random(rng.random()),
                    moved,
                )
                for s, tok in enumerate(t["tokens"])
                if tok
            ]
        )
        counts["committed"] += max(v for _, v in played)


def table_seats(game: str, bot_seats: int) -> list[dict[str, str]]:
    """A table's seats for the benchmark: as many as ``game`` has (with its default options),
    the last ``bot_seats`` of them the ``search`` bot's, at least one human."""
    from ..games import find_game

    info = find_game(game)
    n = info.new_state(info.options({})).num_players
    bots = max(0, min(bot_seats, n - 1))
    return [{"kind": "human"}] * (n - bots) + [{"kind": "bot", "bot": "search"}] * bots


async def _drive(
    bases: list[str], ws_bases: list[str], tables: int, seconds: float, game: str, bot_seats: int
) -> dict[str, Any]:
    latencies: list[float] = []
    counts = {"matches": 0, "committed": 0}
    progress: dict[int, float] = {}
    seats = table_seats(game, bot_seats)
    deadline = time.monotonic() + seconds
    t0 = time.perf_counter()
    import httpx

    # one HTTP client for every table (each client of its own used to cost ~50 ms of CPU to
    # build: 200 of them held every table back ten seconds)
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=50)) as client:
        results = await asyncio.gather(
            *[
                _table_worker(k, client, bases, ws_bases, deadline, game, seats, latencies, counts, progress)
                for k in range(tables)
            ],
            return_exceptions=True,
        )
    elapsed = time.perf_counter() - t0
    errors = [r for r in results if isinstance(r, BaseException)]
    lat = sorted(latencies)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    window = min(5.0, seconds / 3)
    moving = sum(1 for t in progress.values() if t >= deadline - window)
    return {
        "tables": tables,
        "moving_tables": moving,
        "moving_window_s": round(window, 1),
        "bot_seats": sum(s["kind"] == "bot" for s in seats),
        "matches": counts["matches"],
        "seconds": round(elapsed, 2),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed, 1),
        "committed": counts["committed"],
        "committed_per_s": round(counts["committed"] / elapsed, 1),
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "client_errors": len(errors),
        "client_error_sample": repr(errors[0])[:200] if errors else None,
    }


def _start(
    db: str, port: int, env: dict[str, str], redis: str | None, name: str, remote_bots: bool
) -> "subprocess.Popen[bytes]":
    cmd = [
        sys.executable,
        "-m",
        "kirifuda",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        db,
        "--bot-delay",
        "0",
    ]
    if redis is not None:
        cmd += ["--redis", redis, "--process", name] + (["--remote-bots"] if remote_bots else [])
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


def _wait_up(base: str) -> None:
    import httpx

    for _ in range(600):
        try:
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"the server at {base} did not start")


def _takeover(redis: str, victim: "subprocess.Popen[bytes]", name: str) -> dict[str, Any]:
    """Kill (SIGKILL) one instance; the seconds until every table it owned has another owner."""
    import redis as sync_redis

    r = sync_redis.Redis.from_url(redis)
    try:
        owned = [k for k in r.scan_iter("kf:lease:*") if r.get(k) == name.encode()]
        victim.kill()
        victim.wait(10)
        t0 = time.monotonic()
        left = set(owned)
        while left and time.monotonic() - t0 < 60:
            left = {k for k in left if r.get(k) in (None, name.encode())}
            time.sleep(0.02)
        return {"takeover_tables": len(owned), "takeover_s": round(time.monotonic() - t0, 2) if not left else None}
    finally:
        r.close()


def run(
    db: str | None,
    tables: int = 20,
    seconds: float = 10.0,
    game: str = "meitora",
    bot_seats: int = 0,
    instances: int = 1,
    redis: str | None = None,
    remote_bots: bool = False,
    bot_workers: int = 0,
    kill: bool = False,
) -> dict[str, Any]:
    """One run: ``instances`` servers (more than one: a cluster on ``redis``, a PostgreSQL
    ``db``), ``bot_workers`` bot-worker processes, and the clients; ``kill``: then one instance
    is killed and the take-over timed."""
    from ..games import find_game

    game = find_game(game).id  # before the server starts: an unknown game is an OptionError
    tables = max(1, min(tables, MAX_TABLES))
    seconds = max(1.0, min(seconds, MAX_SECONDS))
    if instances > 1 and (redis is None or db is None or db.startswith("sqlite")):
        raise ValueError("several instances need --redis and a PostgreSQL --db")
    tmp = None
    if db is None:
        tmp = tempfile.TemporaryDirectory(prefix="kirifuda-bench-")
        db = f"sqlite+aiosqlite:///{Path(tmp.name) / 'bench.db'}"
    if redis is not None:
        import redis as sync_redis

        with sync_redis.Redis.from_url(redis) as r:
            r.flushdb()
    # every client of the benchmark is 127.0.0.1: the per-client limits are lifted; and a
    # loaded machine may take longer than the default 5 s to answer 800 hellos
    env = {
        **os.environ,
        "KIRIFUDA_LIMIT_TABLES_PER_MINUTE": "1000000",
        "KIRIFUDA_LIMIT_OPEN_TABLES_PER_CLIENT": "1000000",
        "KIRIFUDA_LIMIT_CONNECTIONS_PER_CLIENT": "1000000",
        "KIRIFUDA_LIMIT_HELLO_SECONDS": "60",
    }
    ports = [_free_port() for _ in range(instances)]
    names = [f"bench{i}-{port}" for i, port in enumerate(ports)]
    procs = [_start(db, port, env, redis, name, remote_bots) for name, port in zip(names, ports)]
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "kirifuda", "bot-worker", "--redis", str(redis), "--threads", "1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(bot_workers if redis else 0)
    ]
    pids = [p.pid for p in procs + workers]
    try:
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        for base in bases:
            _wait_up(base)

        def cpu() -> float | None:
            got = [_cpu_seconds(pid) for pid in pids]
            return None if any(c is None for c in got) else sum(c for c in got if c is not None)

        def rss() -> int | None:
            got = [_rss_bytes(p.pid) for p in procs]
            return None if any(r is None for r in got) else sum(r for r in got if r is not None)

        cpu0, rss0, load0 = cpu(), rss(), os.getloadavg()[0]
        mine0 = time.process_time()
        out = asyncio.run(_drive(bases, [f"ws://127.0.0.1:{port}" for port in ports], tables, seconds, game, bot_seats))
        mine = time.process_time() - mine0
        cpu1, rss1 = cpu(), rss()
        out["instances"] = instances
        out["bot_workers"] = len(workers)
        out["client_cpu_ms_per_action"] = round(1000 * mine / out["actions"], 3) if out["actions"] else None
        used = cpu1 - cpu0 if cpu0 is not None and cpu1 is not None else None
        out["server_cpu_s"] = round(used, 2) if used is not None else None
        out["cpu_ms_per_action"] = (
            round(1000 * used / out["actions"], 3) if used is not None and out["actions"] else None
        )
        out["cpu_ms_per_event"] = (
            round(1000 * used / out["committed"], 3) if used is not None and out["committed"] else None
        )
        out["kib_per_table"] = (
            round((rss1 - rss0) / 1024 / tables, 1) if rss0 is not None and rss1 is not None else None
        )
        out["kib_per_match"] = (
            round((rss1 - rss0) / 1024 / out["matches"], 1)
            if rss0 is not None and rss1 is not None and out["matches"]
            else None
        )
        out["load_before"] = round(load0, 2)
        out["load_after"] = round(os.getloadavg()[0], 2)
        if kill and instances > 1 and redis is not None:
            out.update(_takeover(redis, procs[0], names[0]))
    finally:
        for proc in procs + workers:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs + workers:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if tmp is not None:
            tmp.cleanup()
    shown = db.split("@")[-1] if "@" in db else db
    out["db"] = shown.split("+", 1)[0] if tmp is not None else shown
    return out


def main(args: argparse.Namespace) -> int:
    try:
        results = [
            run(
                db,
                args.tables,
                args.seconds,
                args.game,
                args.bot_seats,
                instances=getattr(args, "instances", 1),
                redis=getattr(args, "redis", None),
                remote_bots=getattr(args, "remote_bots", False),
                bot_workers=getattr(args, "bot_workers", 0),
                kill=getattr(args, "kill", False),
            )
            for db in (args.db or [None])
        ]
    except ValueError as exc:
        print(f"kirifuda bench-server: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(results))
        return 0
    for r in results:
        bots = (
            f"  {r['committed_per_s']:8.1f} committed/s with {r['bot_seats']} search bots a table, "
            f"{r['moving_tables']} tables moved in the last {r['moving_window_s']} s"
            if r["bot_seats"]
            else ""
        )
        print(
            f"{r['db']:40s} {r['tables']:4d} tables  {r['actions_per_s']:8.1f} actions/s  "
            f"p50 {r['p50_ms']:.2f} ms  p99 {r['p99_ms']:.2f} ms{bots}  ({r['actions']} actions in {r['seconds']} s"
            f"{', ' + str(r['client_errors']) + ' client errors' if r['client_errors'] else ''})"
        )
        if r["instances"] > 1 or r["bot_workers"]:
            print(
                f"{'':40s} {r['instances']} instances, {r['bot_workers']} bot workers"
                + (
                    f"; kill -9 of one: its {r['takeover_tables']} tables taken over in {r['takeover_s']} s"
                    if "takeover_s" in r
                    else ""
                )
            )
        print(
            f"{'':40s} server CPU {r['cpu_ms_per_action']} ms/action ({r['cpu_ms_per_event']} ms/event)  "
            f"clients' CPU {r['client_cpu_ms_per_action']} ms/action  {r['kib_per_table']} KiB/table "
            f"({r['kib_per_match']} KiB per match started; {r['matches']} matches)  "
            f"load {r['load_before']} -> {r['load_after']}"
        )
    return 0
