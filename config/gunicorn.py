"""gunicorn's settings for the web process: ``gunicorn config.asgi -c config/gunicorn.py``
(docker/Dockerfile's CMD, docker/compose.yaml's web command, and ``make run``'s embedded server,
web/management/server.py; README, "With Redis and PostgreSQL").

- ``config.gunicorn_worker.ArrivalUvicornWorker``: uvicorn (the ``uvicorn-worker`` package)
  serving the ASGI application on an asyncio loop, with the kernel's arrival stamp of every
  request. Phones, screens and consoles stay connected to the live stream (``web.live``) for
  the evening: each costs the loop a socket, not a thread. Ordinary views run in a thread per
  request (asgiref), so a client that sends its request slowly holds nothing but its socket
  (with the ``sync`` workers three slow clients froze the site: tests/config/test_gunicorn.py).
- 3 processes on the 2 cores of the room's machine: the slips' Python is what costs, and a
  third process takes the cores' slack while another waits for PostgreSQL. Without Redis
  (``make run``), one: the live versions are then the process's own (``web.live_store``).
- ``timeout``: a worker whose loop stops answering gunicorn's heartbeat for 30 s is restarted;
  ``keepalive`` 5 s between requests on a connection.
- The access log goes to stdout without players' tokens (``web.redaction``, installed on
  uvicorn's access logger by the worker).

Command-line options still win (``--bind``, ``--workers``...).
"""

from __future__ import annotations

import os

wsgi_app = "config.asgi:application"  # the ASGI application, despite gunicorn's name for it
bind = "0.0.0.0:8000"
worker_class = "config.gunicorn_worker.ArrivalUvicornWorker"  # uvicorn, stamping arrivals
# Without Redis the live versions live in the web process's memory (web.live_store): one process.
workers = 3 if os.environ.get("REDIS_URL") else 1
timeout = 30
graceful_timeout = 10  # live streams never finish by themselves: they are cut after this
keepalive = 5
backlog = 2048
accesslog = "-"
