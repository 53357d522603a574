"""The web app: ``kirifuda serve``.

- :mod:`.store`: the database (SQLAlchemy async; SQLite in WAL mode by default, PostgreSQL with
  ``postgresql+asyncpg://``) and its versioned migrations;
- :mod:`.protocol`: the WebSocket messages, each frame to a seat built from that seat's view;
- :mod:`.tables`: a table in play (the engine's state, seats, tokens, bots, timers);
- :mod:`.connections`: a connection's hello and messages, direct or relayed;
- :mod:`.app`: the FastAPI application (HTTP API, WebSocket, the static browser client);
- :mod:`.cluster`: many processes, one lobby (leases, relay, take-over; ``--redis``);
- :mod:`.botworker`: ``kirifuda bot-worker``, bot decisions for a cluster.
"""
