"""What a rated table's seat check costs at ``hello``: ``python -m kirifuda.server.clubbench``.

Starts the web app in this process on a throw-away SQLite database, opens a plain table and a
rated club table (the seat held by a signed-in member), and times ``hello`` → ``welcome`` on a
fresh WebSocket, ``--rounds`` times each, printing the median and 95th percentile in
milliseconds.  A plain table's hello reads nothing more than before; a rated one reads the
login session (one query) and, the seat being held, nothing else.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    import socket
    import threading

    import httpx
    import uvicorn
    from websockets.sync.client import connect

    from ..games import GAMES
    from .app import create_app
    from .limits import Limits

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        limits = Limits(tables_per_minute=10_000, open_tables_per_client=10_000, connections_per_client=10_000)
        app = create_app(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}", bot_delay=0, limits=limits)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        try:
            url = f"http://127.0.0.1:{port}"
            r = httpx.post(url + "/api/accounts", json={"name": "Bench", "password": "bench password"})
            cookie = r.headers["set-cookie"].split(";")[0]
            auth = {"Cookie": cookie}
            club = httpx.post(url + "/api/clubs", json={"name": "Bench club"}, headers=auth).json()["id"]
            info = next(iter(GAMES.values()))  # any game: the check is the same for all
            n = info.new_state(info.options({})).num_players
            seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (n - 1)
            plain = httpx.post(url + "/api/tables", json={"game": info.id, "seats": seats}).json()
            rated = httpx.post(
                url + "/api/tables", json={"game": info.id, "seats": seats, "club": club, "rated": True}, headers=auth
            ).json()
            for name, made in (("plain table", plain), ("rated table", rated)):
                times = []
                for _ in range(args.rounds):
                    start = time.perf_counter()
                    with connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", additional_headers=auth) as ws:
                        ws.send(json.dumps({"type": "hello", "token": made["tokens"][0]}))
                        while json.loads(ws.recv(timeout=10))["type"] != "welcome":
                            pass
                    times.append((time.perf_counter() - start) * 1000)
                times.sort()
                print(
                    f"{name}: hello → welcome on a new connection, {args.rounds} rounds: "
                    f"median {statistics.median(times):.2f} ms, p95 {times[int(len(times) * 0.95) - 1]:.2f} ms"
                )
        finally:
            server.should_exit = True
            thread.join(10)


if __name__ == "__main__":
    main()
