"""gunicorn's settings for the web process: ``gunicorn config.wsgi -c config/gunicorn.py``
(docker/Dockerfile's CMD and docker/compose.yaml's web command; README, "With Redis and
PostgreSQL").

- ``gthread`` workers: each of the 3 processes serves 8 requests at once on threads, so a
  client that sends its request slowly holds one thread, not a whole worker (with the
  default ``sync`` workers, three slow clients froze the site: tests/config/test_gunicorn.py
  shows it no longer does). Behind a buffering reverse proxy (nginx, Caddy) no slow client
  reaches gunicorn at all; that is still the best set-up on the open internet.
- ``timeout``: a worker stuck 30 s on one request is restarted; ``keepalive`` 5 s.
- The access log goes to stdout without players' tokens (``config.redaction``).

Command-line options still win (``--bind``, ``--workers``...).
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from config.redaction import redact

bind = "0.0.0.0:8000"
worker_class = "config.gunicorn_worker.ArrivalThreadWorker"  # gthread, stamping arrivals
workers = 3
threads = 8
timeout = 30
graceful_timeout = 30
keepalive = 5
accesslog = "-"
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s"'

# Headers that hold secrets: never offered to the access log's format.
_SECRET_ATOMS = ("{authorization}i", "{cookie}i", "{set-cookie}o")


class RedactingLogger(Logger):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's logger, writing join links without their token."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for key in _SECRET_ATOMS:
            if key in atoms:
                atoms[key] = "-"
        return {k: redact(v) if isinstance(v, str) else v for k, v in atoms.items()}


logger_class = RedactingLogger
