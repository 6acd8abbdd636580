"""gunicorn's gthread worker, stamping when each request arrived.

A room hands in its slips in the same seconds; with every thread busy a request waits before
Django sees it (in the kernel's accept queue until the worker's loop accepts the connection,
then in the worker's queue for a thread), so a stamp taken in Django can fall after the
deadline for a slip the phone sent well before it. This worker asks the kernel when the
request's bytes came in: ``SO_TIMESTAMPNS`` on the listening socket (the accepted ones
inherit it), read with a ``MSG_PEEK`` when the connection is readable, before it waits for a
thread. The kernel stamps what it receives (when it merges segments waiting to be read, the
stamp is the latest's: still no later than the request's last bytes); the worker's own clock
is taken when it gives no stamp (TLS, not Linux, the first moments after start). The stamp
goes to the application in ``environ["duplicate.arrived_at"]`` (seconds since the epoch): a
key no client can set, unlike a header. ``web.arrival`` reads it; ``bench/slips.py`` measures
how late it is against when the phone sent.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

ARRIVED_AT = "duplicate.arrived_at"
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux; the socket module lacks it
_TIMESPEC = struct.Struct("qq")  # struct timespec on 64-bit Linux: seconds, nanoseconds
_current = threading.local()


def kernel_arrival(sock: socket.socket) -> float | None:
    """When the kernel received the oldest unread bytes of ``sock`` (a non-blocking socket with
    ``SO_TIMESTAMPNS``), without consuming them; None when it cannot tell."""
    try:
        data, ancillary, _, _ = sock.recvmsg(1, socket.CMSG_SPACE(_TIMESPEC.size), socket.MSG_PEEK)
    except (OSError, NotImplementedError):  # gone, or TLS (recvmsg): the clock then
        return None
    for level, kind, payload in ancillary:
        if data and level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            seconds: int
            nanoseconds: int
            seconds, nanoseconds = _TIMESPEC.unpack(payload[: _TIMESPEC.size])
            return seconds + nanoseconds / 1e9
    return None


class ArrivalThreadWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn is untyped
    def run(self) -> None:
        for listener in self.sockets:  # shared by the workers: setting it again is harmless
            with contextlib.suppress(OSError):  # not Linux, not TCP: the worker's clock then
                listener.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        super().run()

    def on_client_socket_readable(self, conn: Any, client: Any) -> None:
        now = time.time()
        stamp = kernel_arrival(conn.sock)
        conn.arrived_at = stamp if stamp is not None and stamp <= now else now
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
