"""gunicorn's gthread worker, stamping when each request arrived.

A room hands in its slips in the same seconds; with every thread busy a request waits in the
worker's queue before Django sees it, so a stamp taken in Django can fall after the deadline
for a slip the phone sent well before it. This worker stamps each request in its poll loop,
when the first bytes are readable (before it waits for a thread), and hands the stamp to the
application in ``environ["duplicate.arrived_at"]`` (seconds since the epoch): a key no client
can set, unlike a header. ``web.arrival`` reads it.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

ARRIVED_AT = "duplicate.arrived_at"
_current = threading.local()


class ArrivalThreadWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn is untyped
    def on_client_socket_readable(self, conn: Any, client: Any) -> None:
        conn.arrived_at = time.time()
        super().on_client_socket_readable(conn, client)

    def handle(self, conn: Any) -> Any:
        _current.arrived_at = getattr(conn, "arrived_at", None)  # this thread runs the app next
        return super().handle(conn)

    def load_wsgi(self) -> None:
        super().load_wsgi()
        app: Any = self.wsgi  # type: ignore[has-type]  # set by gunicorn's untyped Worker

        def stamped(environ: dict[str, Any], start_response: Any) -> Any:
            stamp = getattr(_current, "arrived_at", None)
            if stamp is not None:
                environ[ARRIVED_AT] = stamp
            return app(environ, start_response)

        self.wsgi = stamped
